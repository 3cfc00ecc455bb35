// This device's Web Push, on the notification choices page: ask the browser's permission, subscribe with
// the league's VAPID key and hand the subscription to the server; or unsubscribe. The service worker
// (/sw.js) shows the pushes; this script registers it only if nothing has yet. The words shown come from
// the page (data attributes and the server's JSON), never from here.
(() => {
  const box = document.getElementById("push-device");
  if (!box) return;
  const status = box.querySelector('[data-push="status"]');
  const say = (text) => { status.textContent = text; };
  const csrf = () => JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(box.dataset.unsupported);
    box.querySelectorAll("button").forEach((button) => { button.disabled = true; });
    return;
  }

  // The key as the browser wants it: base64url to bytes.
  const keyBytes = (text) => {
    const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };

  const worker = async () => {
    if (!(await navigator.serviceWorker.getRegistration("/"))) await navigator.serviceWorker.register("/sw.js");
    return navigator.serviceWorker.ready;
  };

  const post = async (url, body) => {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw Object.assign(new Error((answer.errors || [box.dataset.failed]).join(" ")), { said: true });
    return answer;
  };

  const sameKey = (buffer, key) => {
    const bytes = new Uint8Array(buffer || []);
    return bytes.length === key.length && bytes.every((byte, i) => byte === key[i]);
  };

  const turnOn = async () => {
    if ((await Notification.requestPermission()) !== "granted") return say(box.dataset.denied);
    const registration = await worker();
    const key = keyBytes(box.dataset.vapidKey);
    let subscription = await registration.pushManager.getSubscription();
    // One made with the league's old key (the pair renewed) cannot take pushes signed with the new one.
    if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ||= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    const answer = await post(box.dataset.subscribeUrl, subscription.toJSON());
    say(answer.message);
    window.location.reload(); // the device list shows the new one
  };

  const turnOff = async () => {
    const registration = await navigator.serviceWorker.getRegistration("/");
    const subscription = registration && (await registration.pushManager.getSubscription());
    if (!subscription) return say(box.dataset.failed);
    const answer = await post(box.dataset.unsubscribeUrl, { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
    say(answer.message);
    window.location.reload();
  };

  box.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-push]");
    if (!button) return;
    const run = button.dataset.push === "on" ? turnOn : turnOff;
    button.disabled = true;
    run()
      .catch((error) => {
        console.error(error); // the browser's own words are English: the page says ours
        say(error.said ? error.message : box.dataset.failed);
      })
      .finally(() => { button.disabled = false; });
  });
})();
