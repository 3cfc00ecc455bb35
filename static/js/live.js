// The live match log (issue 17). Each entry gets an id made here (crypto.randomUUID), is kept in
// localStorage until the server has it, and is sent again when the connection is back: the server
// records an id once, so a retried send never doubles an entry. No framework; no inline script.
(() => {
  const root = document.getElementById("live");
  if (!root) return;
  const KEY = `torshov-live-queue:${root.dataset.match}`;
  const pending = document.getElementById("live-pending");
  const errors = document.getElementById("live-errors");
  const csrf = () => {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch {
      return "";
    }
  };
  const load = () => {
    try {
      return JSON.parse(localStorage.getItem(KEY) || "[]");
    } catch {
      return [];
    }
  };
  const save = (queue) => localStorage.setItem(KEY, JSON.stringify(queue));
  const drop = (id) => save(load().filter((item) => item.fields.client_id !== id));

  function show() {
    const queue = load();
    pending.hidden = queue.length === 0;
    pending.querySelector("[data-count]").textContent = String(queue.length);
    const list = pending.querySelector("[data-list]");
    list.replaceChildren(
      ...queue.map((item) => {
        const li = document.createElement("li");
        li.textContent = item.label;
        return li;
      }),
    );
  }

  function refused(messages) {
    const list = errors.querySelector("[data-list]");
    list.replaceChildren(
      ...messages.map((text) => {
        const li = document.createElement("li");
        li.textContent = text;
        return li;
      }),
    );
    errors.hidden = messages.length === 0;
  }

  let sending = false;
  async function flush() {
    if (sending) return;
    sending = true;
    try {
      for (;;) {
        const item = load()[0];
        if (!item) break;
        let response;
        try {
          response = await fetch(root.dataset.eventUrl, {
            method: "POST",
            headers: { "X-CSRFToken": csrf(), Accept: "application/json" },
            body: new URLSearchParams(item.fields),
            credentials: "same-origin",
          });
        } catch {
          break; // offline: kept, sent again when the connection is back
        }
        if (response.status >= 500 || response.status === 429) break; // the server's trouble: try later
        drop(item.fields.client_id);
        if (response.ok) {
          refused([]);
          const body = await response.json().catch(() => ({}));
          if (body.then) {
            window.location.assign(body.then);
            return;
          }
        } else if (response.status === 422 || response.status === 403) {
          refused((await response.json().catch(() => ({}))).errors || [item.label]);
        } else {
          refused([`${item.label}: ${response.status} ${response.statusText}`]);
        }
        document.body.dispatchEvent(new Event("live:refresh"));
      }
    } finally {
      sending = false;
      show();
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-live]");
    if (!form || event.defaultPrevented) return; // a data-confirm question answered "no" (app.js): nothing sent
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(form, event.submitter));
    fields.client_id = crypto.randomUUID();
    fields.made_at = new Date().toISOString(); // the entry's time, however late it reaches the server (issue 26)
    const label = event.submitter && event.submitter.name === "team" ? event.submitter.textContent.trim() : form.dataset.label;
    save([...load(), { fields, label: label || "" }]);
    const details = form.closest("details");
    if (details) details.open = false;
    form.reset();
    show();
    flush();
  });

  // The board keeps polling while a coach chooses in an open form (issue 26: it used to freeze, and the other
  // phone's entries stopped appearing); only the controls are not swapped under his thumb then. They catch up
  // as soon as he closes the form.
  const busy = () => {
    const controls = document.getElementById("live-controls");
    const active = document.activeElement;
    return Boolean(
      controls &&
        (controls.querySelector("details[open]") || (active && controls.contains(active) && active.matches("input, select"))),
    );
  };
  document.body.addEventListener("htmx:oobBeforeSwap", (event) => {
    if (event.detail.target.id === "live-controls" && busy()) event.detail.shouldSwap = false;
  });
  document.addEventListener(
    "toggle",
    (event) => {
      if (event.target.matches("#live-controls details") && !event.target.open && !busy()) {
        document.body.dispatchEvent(new Event("live:refresh"));
      }
    },
    true, // toggle does not bubble
  );

  window.addEventListener("online", flush);
  setInterval(flush, 4000);
  show();
  flush();
})();
