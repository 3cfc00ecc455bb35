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
