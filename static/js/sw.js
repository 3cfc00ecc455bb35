// The league's service worker, served from the site's root as /sw.js (league.views.pwa.service_worker) so it
// controls every page. What it keeps and what it never keeps: docs/pwa.md.
//
// - A page (a navigation) comes from the network first; a copy is kept only when the server marks the
//   answer `X-Offline: keep` (league.lib.offline: a logged-in person's own pages, GET, 200, no new cookie).
//   When the network fails, the kept copy is shown with the time it was kept; the page's script (pwa.js)
//   shows the banner from the body's data-offline-stored.
// - Static files whose names carry a hash (production) come from the cache first: a new file is a new address.
//   Others (development) from the network first, the kept one offline.
// - Everything else (POSTs, the live log's entries and polls, htmx fragments, the admin) goes to the
//   network untouched and is never kept; a form sent as a page that cannot reach the server stays on its page.
//
// Bump VERSION when this file's caching changes: the caches of the old version are deleted on activation.
const VERSION = "v1";
const PAGES = `torshov-pages-${VERSION}`; // pwa.js deletes every cache named torshov-pages… on log-out
const STATIC = `torshov-static-${VERSION}`;
const STATIC_PATH = "/static/"; // settings.STATIC_URL
const STORED = "X-Offline-Stored";
const ICON = "/static/img/icon-192.png";

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      const ours = [PAGES, STATIC];
      await Promise.all(names.filter((name) => name.startsWith("torshov-") && !ours.includes(name)).map((n) => caches.delete(n)));
      await self.clients.claim();
    })(),
  );
});

function keepable(request, response) {
  const url = new URL(request.url);
  return (
    request.method === "GET" &&
    response.status === 200 &&
    response.type === "basic" &&
    url.origin === self.location.origin &&
    !url.pathname.startsWith("/admin/") &&
    response.headers.get("X-Offline") === "keep"
  );
}

// The answer kept with the moment it was kept, which the offline banner shows. Its body is read here, already
// decoded: the length and encoding of the network's answer no longer describe it.
async function keep(request, response) {
  const headers = new Headers(response.headers);
  headers.set(STORED, new Date().toISOString());
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  const copy = new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
  const cache = await caches.open(PAGES);
  await cache.put(request.url, copy);
}

async function forget(request) {
  const cache = await caches.open(PAGES);
  await cache.delete(request.url, { ignoreVary: true });
}

async function kept(request) {
  const cache = await caches.open(PAGES);
  return cache.match(request.url, { ignoreVary: true });
}

// The kept copy, its <body> told when it was kept; the page's own markup is otherwise unchanged.
async function offlineCopy(copy) {
  const stored = (copy.headers.get(STORED) || "").replace(/[^0-9TZ:.-]/g, "");
  const html = (await copy.text()).replace("<body", `<body data-offline-stored="${stored}"`);
  return new Response(html, { status: 200, headers: copy.headers });
}

async function page(event) {
  const request = event.request;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const copy = await kept(request);
    if (copy) return offlineCopy(copy);
    throw error;
  }
  if (response.status >= 500) {
    // the server's trouble (its database away): the kept copy is better than the error page
    const copy = await kept(request);
    return copy ? offlineCopy(copy) : response;
  }
  // Kept when the server says so; an old copy goes when it no longer does (logged out, the team handed over),
  // and stays when the server only skips this answer (it set a cookie: league.lib.offline.SKIP).
  if (keepable(request, response)) event.waitUntil(keep(request, response.clone()));
  else if (response.headers.get("X-Offline") !== "skip") event.waitUntil(forget(request));
  return response;
}

// A name with its content's hash (css/league.0123456789ab.css, production's manifest storage) never changes:
// cache first, and the same file's older versions dropped. Any other (development, the unhashed icon): network
// first, the kept one offline.
const HASHED = /\.[0-9a-f]{12}(\.[^./]+)$/;
const unhashed = (url) => new URL(url).pathname.replace(HASHED, "$1");

// A form sent as a page (a plain POST) that never reached the server: the page stays where it is (a 204 does not
// navigate), with what was typed, and is told to say that the form needs the network (pwa.js).
async function sent(event) {
  try {
    return await fetch(event.request);
  } catch {
    const windows = await self.clients.matchAll({ type: "window" });
    for (const client of windows) client.postMessage({ type: "needs-connection" });
    return new Response(null, { status: 204 });
  }
}

async function staticFile(request) {
  const cache = await caches.open(STATIC);
  const hashed = HASHED.test(new URL(request.url).pathname);
  const kept = await cache.match(request);
  if (kept && hashed) return kept;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    if (kept) return kept;
    throw error;
  }
  if (response.status === 200 && response.type === "basic") {
    const copy = response.clone();
    const older = hashed ? (await cache.keys()).filter((r) => r.url !== request.url && unhashed(r.url) === unhashed(request.url)) : [];
    await Promise.all(older.map((r) => cache.delete(r)));
    await cache.put(request, copy);
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && request.method === "POST") return event.respondWith(sent(event)); // never kept
  if (request.method !== "GET") return;
  if (request.mode === "navigate") event.respondWith(page(event));
  else if (url.pathname.startsWith(STATIC_PATH)) event.respondWith(staticFile(request));
});

// A page opened before this worker ran (the first visit): kept now, with its files.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "visited" || typeof data.url !== "string") return;
  event.waitUntil(
    (async () => {
      const url = new URL(data.url, self.location.origin);
      if (url.origin !== self.location.origin) return;
      const request = new Request(url.href, { credentials: "same-origin" });
      const response = await fetch(request).catch(() => null);
      if (response && keepable(request, response)) await keep(request, response);
      const files = (Array.isArray(data.files) ? data.files : []).filter(
        (file) => typeof file === "string" && new URL(file, self.location.origin).pathname.startsWith(STATIC_PATH),
      );
      await Promise.all(files.map((file) => staticFile(new Request(file)).catch(() => null)));
    })(),
  );
});

// Web Push. The payload is what league's push sender sends: {"title": str, "body": str, "url": str, "tag": str}.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = data.title || "Torshov Touchdown";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || "",
      tag: data.tag || undefined,
      data: { url: data.url || "/" },
      icon: ICON,
      lang: "nb",
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) return; // only the league's own pages
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).href === target.href);
      if (open) return open.focus();
      return self.clients.openWindow(target.href);
    })(),
  );
});
