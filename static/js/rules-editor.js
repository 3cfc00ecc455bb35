// The rules editor: mark a cell or setting the board has changed since the page loaded.
(function () {
  "use strict";
  function changed(el) {
    if (el.type === "checkbox") return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT") {
      return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    return el.value !== el.defaultValue;
  }
  document.addEventListener("input", function (event) {
    var el = event.target;
    if (!el.closest || !el.closest(".rules-editor")) return;
    el.classList.toggle("changed", changed(el));
  });
})();
