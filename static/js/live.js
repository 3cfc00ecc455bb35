// The live match log. Each entry gets an id made here (crypto.randomUUID), is kept in
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

  // A queued entry as the coach chose it: the kind, then whom (the player and his team, from the
  // form's own options), then the choices ticked; the words are the page's, only the punctuation is ours.
  function who(form) {
    const players = [...form.querySelectorAll("select")]
      .filter((select) => select.value)
      .map((select) => {
        const option = select.selectedOptions[0];
        const team = option.closest("optgroup");
        return team ? `${option.textContent.trim()} (${team.label})` : option.textContent.trim();
      });
    const choices = [...form.querySelectorAll("input[type=radio]:checked")].map((input) =>
      (input.closest("label") || input).textContent.trim(),
    );
    return [players.join(" → "), ...choices].filter(Boolean).join(" · ");
  }

  const named = (item) => `${item.label}${item.who ? `: ${item.who}` : ""}`;

  const clock = (iso) => {
    const made = new Date(iso);
    if (!iso || Number.isNaN(made.getTime())) return "";
    const lang = document.documentElement.lang || undefined;
    return made.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  };

  function show() {
    const queue = load();
    pending.hidden = queue.length === 0;
    pending.querySelector("[data-count]").textContent = String(queue.length);
    const list = pending.querySelector("[data-list]");
    list.replaceChildren(
      ...queue.map((item) => {
        const li = document.createElement("li");
        const what = document.createElement("strong");
        const when = document.createElement("span");
        when.className = "muted";
        when.textContent = clock(item.fields.made_at);
        what.textContent = named(item);
        li.append(when, " ", what);
        return li;
      }),
    );
  }

  // The server's refusal of an entry, under the entry it refuses (sent from the queue, it may be
  // one the coach made minutes ago).
  function refused(messages, item) {
    const list = errors.querySelector("[data-list]");
    list.replaceChildren(
      ...messages.map((text) => {
        const li = document.createElement("li");
        if (item) {
          const what = document.createElement("strong");
          what.textContent = named(item);
          li.append(what);
        }
        li.append(text);
        return li;
      }),
    );
    errors.hidden = messages.length === 0;
  }

  // An entry the other phone had logged already (an end of turn pressed a poll late) is done, not refused: said
  // for a moment in the dock's status line, never in the red box.
  const done = document.getElementById("live-done");
  let doneTimer;
  function said(messages) {
    done.querySelector("[data-text]").textContent = messages.join(" ");
    done.hidden = messages.length === 0;
    clearTimeout(doneTimer);
    doneTimer = setTimeout(() => (done.hidden = true), 6000);
  }

  // An answer that found the phone behind carries the board as it is now (the score, whose turn, the log): drawn
  // at once, as a poll would, so the phone catches up without waiting for the next one.
  function redraw(html) {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    for (const id of ["live-head", "live-controls", "live-log"]) {
      const now = document.getElementById(id);
      const next = fresh.getElementById(id);
      if (!now || !next || (id === "live-controls" && busy())) continue;
      now.replaceWith(next);
      if (window.htmx) window.htmx.process(next);
    }
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
        let drawn = false;
        if (response.ok) {
          refused([]);
          const body = await response.json().catch(() => ({}));
          if (body.then) {
            window.location.assign(body.then);
            return;
          }
          if (body.already) said(body.messages || []);
          if (body.board) {
            redraw(body.board);
            drawn = true;
          }
        } else if (response.status === 422 || response.status === 403) {
          refused((await response.json().catch(() => ({}))).errors || [String(response.status)], item);
        } else {
          refused([`${response.status} ${response.statusText}`], item);
        }
        if (!drawn) document.body.dispatchEvent(new Event("live:refresh"));
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
    fields.made_at = new Date().toISOString(); // the entry's time, however late it reaches the server
    const label = event.submitter && event.submitter.name === "team" ? event.submitter.textContent.trim() : form.dataset.label;
    save([...load(), { fields, label: label || "", who: who(form) }]);
    const details = form.closest("details");
    if (details) details.open = false;
    form.reset();
    show();
    flush();
  });

  // The board keeps polling while a coach chooses in an open form (it used to freeze, and the other
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

  errors.querySelector("[data-close]").addEventListener("click", () => refused([]));

  window.addEventListener("online", flush);
  setInterval(flush, 4000);
  show();
  flush();
})();
