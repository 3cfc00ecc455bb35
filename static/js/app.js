// The site's few behaviours, wired by data attributes so the Content-Security-Policy needs no inline script.
// Text shown to people comes from the (auto-escaped) attributes, never from JavaScript strings.
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-confirm]");
  if (!form) return;
  if (!window.confirm(form.dataset.confirm)) {
    event.preventDefault();
    return;
  }
  // Asked here, so the server need not ask again with its confirm page (league.confirm).
  if (!form.querySelector('input[name="confirmed"]')) {
    const confirmed = document.createElement("input");
    confirmed.type = "hidden";
    confirmed.name = "confirmed";
    confirmed.value = "1";
    form.append(confirmed);
  }
});

document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});

document.addEventListener("change", (event) => {
  const select = event.target.closest("select[data-autosubmit]");
  if (select && select.form) select.form.requestSubmit();
});

// A table or bracket wider than the screen scrolls in its own box; say so above it, in the page's
// language (the text is the body's data-scroll-hint), or a coach on a phone never sees round 2.
function markScrolling(root) {
  const hint = document.body.dataset.scrollHint;
  if (!hint) return;
  for (const box of root.querySelectorAll(".table-wrap, .bracket")) {
    const wide = box.scrollWidth > box.clientWidth + 2;
    const shown = box.previousElementSibling && box.previousElementSibling.classList.contains("scroll-hint");
    // a box that scrolls can be scrolled from the keyboard too (WCAG 2.1.1, axe's scrollable-region-focusable)
    if (wide) box.tabIndex = 0;
    else box.removeAttribute("tabindex");
    if (wide && !shown) {
      const note = document.createElement("p");
      note.className = "scroll-hint muted no-print";
      note.textContent = hint;
      box.before(note);
    } else if (!wide && shown) {
      box.previousElementSibling.remove();
    }
  }
}
document.addEventListener("DOMContentLoaded", () => markScrolling(document));
window.addEventListener("resize", () => markScrolling(document));
document.addEventListener("htmx:afterSettle", (event) => markScrolling(event.target.parentElement || document));
