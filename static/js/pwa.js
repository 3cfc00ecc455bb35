// The installable app's page side (docs/pwa.md): registers the service worker (/sw.js), offers to install
// the app on "Mitt lag", shows the offline banner on a kept copy, stops forms that need the network, and
// empties the kept pages on log-out. Texts come from the page's (auto-escaped) attributes and elements.
(() => {
  const PAGES_PREFIX = "torshov-pages"; // the service worker's page caches (sw.js: PAGES)
  const body = document.body;

  // The kept pages are one person's: gone at log-out, and on any page served to nobody logged in (a
  // session ended elsewhere), so the next person on this phone never reads them.
  async function forgetPages() {
    if (!("caches" in window)) return;
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PAGES_PREFIX)).map((name) => caches.delete(name)));
  }
  if (body.hasAttribute("data-anonymous")) forgetPages().catch(() => {});

  // ---- the service worker ----
  const script = document.currentScript;
  if ("serviceWorker" in navigator && script && script.dataset.sw) {
    const uncontrolled = !navigator.serviceWorker.controller;
    navigator.serviceWorker
      .register(script.dataset.sw, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        // The first visit loaded before the worker ran: it keeps this page and its files now, as it would
        // have kept them on the way in.
        if (!uncontrolled || !registration.active || body.hasAttribute("data-anonymous")) return;
        const files = [...document.querySelectorAll("link[rel=stylesheet][href], script[src]")]
          .map((element) => element.href || element.src)
          .filter((url) => new URL(url, location.href).origin === location.origin);
        registration.active.postMessage({ type: "visited", url: location.href, files });
      })
      .catch(() => {}); // no worker (a private window, an old browser): the site works as before
  }

  // ---- a kept copy, shown offline ----
  const stored = body.dataset.offlineStored;
  const banner = document.getElementById("offline-banner");
  const offlineCopy = Boolean(stored);
  if (offlineCopy && banner) {
    const when = new Date(stored);
    const time = banner.querySelector("time");
    if (time && !Number.isNaN(when.getTime())) {
      const two = (n) => String(n).padStart(2, "0");
      time.dateTime = when.toISOString();
      time.textContent = `${two(when.getHours())}:${two(when.getMinutes())}`;
    }
    banner.hidden = false;
  }

  // ---- forms that need the network ----
  function needsConnection(form) {
    const text = body.dataset.offlineForm;
    if (!text || !form) return;
    // a form in the header (the language switch, log-out) says it under the banner, where it is seen
    const place = form.closest(".site-header") ? banner : form;
    let note = place && place.nextElementSibling;
    if (!note || !note.classList.contains("offline-note")) {
      note = document.createElement("p");
      note.className = "offline-note message message--error";
      note.setAttribute("role", "alert");
      (place || form).after(note);
    }
    note.textContent = text;
    note.hidden = false;
  }

  // The form sent last, for the service worker's word that it never reached the server (sw.js: sent).
  let lastSent = null;
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", (event) => {
      const recent = lastSent && Date.now() - lastSent.at < 60_000;
      if (event.data && event.data.type === "needs-connection" && recent && document.contains(lastSent.form)) {
        needsConnection(lastSent.form);
      }
    });
    navigator.serviceWorker.startMessages();
  }

  // In the capture phase, before app.js's question and htmx's own listener: nothing is sent, nothing asked.
  window.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      lastSent = { form, at: Date.now() };
      if (form.hasAttribute("data-forget-offline")) {
        // log-out and log-in: the kept pages go first, whatever the network; the form is sent once they are gone
        event.preventDefault();
        event.stopImmediatePropagation();
        forgetPages()
          .catch(() => {})
          .finally(() => (navigator.onLine && !offlineCopy ? form.submit() : needsConnection(form)));
        return;
      }
      if (form.closest("[data-live]") || form.matches("[data-live]")) return; // the live log queues its own
      if (navigator.onLine && !offlineCopy) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      needsConnection(form);
    },
    true,
  );

  // An htmx form sent while the browser thought it was online, and the request failed on the way.
  body.addEventListener("htmx:sendError", (event) => {
    const element = event.detail && event.detail.elt;
    const form = element && element.closest ? element.closest("form") : null;
    if (form && !form.closest("[data-live]")) needsConnection(form);
  });

  // ---- installing the app ----
  const offer = document.querySelector("[data-install]");
  if (offer) {
    let prompt = null;
    window.addEventListener("beforeinstallprompt", (event) => {
      event.preventDefault(); // our button asks, where the coach looks for it
      prompt = event;
      offer.hidden = false;
    });
    window.addEventListener("appinstalled", () => (offer.hidden = true));
    const button = offer.querySelector("button");
    if (button) {
      button.addEventListener("click", async () => {
        if (!prompt) return;
        prompt.prompt();
        await prompt.userChoice.catch(() => null);
        prompt = null;
        offer.hidden = true;
      });
    }
  }
  // iOS Safari has no install prompt: the help for its Share menu, unless the app is open from the home screen.
  const help = document.querySelector("[data-install-ios]");
  if (help) {
    const ua = navigator.userAgent;
    const apple = /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
    const safari = /Safari/.test(ua) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(ua);
    const installed = navigator.standalone === true || window.matchMedia("(display-mode: standalone)").matches;
    help.hidden = !(apple && safari && !installed);
  }
})();
