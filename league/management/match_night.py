"""The people of a match night, as threads sending what their browsers send (`manage.py match_night`):
phones polling a live log's board as the live page does (htmx, every LIVE_POLL_SECONDS), coaches posting
entries from the live page's forms as static/js/live.js does, visitors reading the public pages. Each
request's time is kept by kind; nothing here judges the times."""

from __future__ import annotations

import http.client
import json
import math
import random
import statistics
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from urllib.parse import urlencode, urlsplit

KINDS = ("polls", "entries", "pages")


@dataclass
class Figures:
    """Every request's time in ms by kind, the failures by kind (the first few described), and the client
    ids of the entries the server answered as recorded."""

    times: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    unchanged: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))  # answered 304
    errors: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    described: list[str] = field(default_factory=list)
    recorded: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def took(self, kind: str, ms: float, status: int) -> None:
        with self.lock:
            self.times[kind].append(ms)
            self.unchanged[kind] += status == 304

    def failed(self, kind: str, what: str) -> None:
        with self.lock:
            self.errors[kind] += 1
            if len(self.described) < 10:
                self.described.append(f"{kind}: {what}")

    def summary(self) -> dict[str, dict[str, float]]:
        return {
            kind: {
                "count": len(times),
                "p50_ms": round(statistics.median(times), 1) if times else 0.0,
                "p99_ms": round(_percentile(times, 0.99), 1),
                "unchanged": self.unchanged[kind],
                "errors": self.errors[kind],
            }
            for kind, times in self.times.items()
        }


def _percentile(times: list[float], q: float) -> float:
    if not times:
        return 0.0
    ordered = sorted(times)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


class Browser:
    """One kept-alive connection to the site, a set of cookies and a cache of what came with an ETag, as a
    phone's browser has (htmx's requests go through it too)."""

    def __init__(self, base: str, cookies: dict[str, str] | None = None) -> None:
        self.port = urlsplit(base).port
        self.base = base
        self.cookies = dict(cookies or {})
        self.kept: dict[str, tuple[str, str]] = {}  # path: (ETag, text)
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def send(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None):
        """The answer's status and text (a 304's: the text kept), and the time it took in ms (the whole body
        read)."""
        headers = {**(headers or {}), "Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "GET" and path in self.kept:
            headers["If-None-Match"] = self.kept[path][0]
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body=body or None, headers=headers)
            response = self.conn.getresponse()
            text = response.read().decode(errors="replace")
        except (OSError, http.client.HTTPException):
            self.conn.close()  # a fresh connection for the next request, as a browser opens one
            raise
        ms = (time.perf_counter() - started) * 1000
        if response.status == 304 and path in self.kept:
            text = self.kept[path][1]
        elif method == "GET" and response.status == 200 and response.getheader("ETag"):
            self.kept[path] = (response.getheader("ETag"), text)
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
        return response.status, text, ms

    def post_form(self, path: str, fields: dict[str, str], headers: dict[str, str] | None = None):
        body = urlencode(fields).encode()
        return self.send("POST", path, body, {**(headers or {}), "Content-Type": "application/x-www-form-urlencoded"})

    def log_in(self, username: str, password: str) -> None:
        status, _, _ = self.send("GET", "/accounts/login/")
        fields = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), "username": username, "password": password}
        status, _, _ = self.post_form("/accounts/login/", fields)
        if status != 302 or "sessionid" not in self.cookies:
            raise RuntimeError(f"{username} could not log in (status {status})")

    def close(self) -> None:
        self.conn.close()


class LiveForms(HTMLParser):
    """The live board's entry forms (`form[data-live]`): each form's hidden fields and its buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.half_over = False
        self._form: dict | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and "data-live" in a:
            self._form = {"fields": {}, "buttons": []}
            self.forms.append(self._form)
        elif tag == "p" and "live-hint" in (a.get("class") or ""):
            self.half_over = True  # both teams have played their eight turns
        elif self._form is not None and tag == "input" and a.get("type") == "hidden" and a.get("name"):
            self._form["fields"][a["name"]] = a.get("value") or ""
        elif self._form is not None and tag == "button" and a.get("name"):
            self._form["buttons"].append({"name": a["name"], "value": a.get("value"), "disabled": "disabled" in a})

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None

    def of_kind(self, kind: str) -> dict | None:
        return next((f for f in self.forms if f["fields"].get("kind") == kind), None)


def next_entry(board: str, rng: random.Random) -> dict[str, str] | None:
    """What a coach logs next on this board: the start, an end of turn (now and then a team re-roll first),
    half-time once both teams have played the half; None once only the end of the match is left (a coach
    ends it himself, and the load test leaves the log open)."""
    forms = LiveForms()
    forms.feed(board)
    if start := forms.of_kind("start"):
        return dict(start["fields"])
    if forms.half_over:
        half_time = forms.of_kind("half_time")
        return dict(half_time["fields"]) if half_time else None
    turn = forms.of_kind("turn")
    if turn is None:
        return None
    team = turn["buttons"][0]["value"]
    rerolls = [
        f
        for f in forms.forms
        if f["fields"].get("kind") == "reroll" and any(b["value"] == team and not b["disabled"] for b in f["buttons"])
    ]
    if rerolls and rng.random() < 0.25:
        return {**rerolls[0]["fields"], "team": team}
    return {**turn["fields"], "team": team}


@dataclass
class Phone:
    """A coach's phone on a live match: his session, and the page's CSRF token (from `hx-headers`)."""

    match: int
    cookies: dict[str, str]
    csrf: str


class Night:
    """Everyone at once until `deadline`; `run()` returns the figures."""

    def __init__(self, base: str, *, seconds: float, poll_seconds: float, entry_seconds: float, read_seconds: float):
        self.base = base
        self.seconds = seconds
        self.poll_seconds = poll_seconds
        self.entry_seconds = entry_seconds
        self.read_seconds = read_seconds
        self.figures = Figures()
        self.deadline = 0.0

    def _wait(self, seconds: float) -> bool:
        """Sleep, unless the night ends first; whether there is time left."""
        left = self.deadline - time.monotonic()
        time.sleep(max(0.0, min(seconds, left)))
        return time.monotonic() < self.deadline

    def _board(self, browser: Browser, phone: Phone) -> str | None:
        """One poll of the board, with the headers htmx sends for `hx-get` on #board."""
        live = f"/matches/{phone.match}/live/"
        headers = {
            "HX-Request": "true",
            "HX-Trigger": "board",
            "HX-Target": "board",
            "HX-Current-URL": f"{self.base}{live}",
            "X-CSRFToken": phone.csrf,
        }
        try:
            status, text, ms = browser.send("GET", f"{live}board/", headers=headers)
        except (OSError, http.client.HTTPException) as exc:
            self.figures.failed("polls", f"{live}board/ {exc!r}")
            return None
        self.figures.took("polls", ms, status)
        if status not in (200, 304):
            self.figures.failed("polls", f"{live}board/ {status}")
            return None
        return text

    def poll(self, phone: Phone, rng: random.Random) -> None:
        browser = Browser(self.base, phone.cookies)
        # the phones opened their pages at different moments, so their polls are spread over the interval
        if self._wait(rng.uniform(0, self.poll_seconds)):
            while True:
                self._board(browser, phone)
                if not self._wait(self.poll_seconds):
                    break
        browser.close()

    def post(self, phone: Phone, rng: random.Random) -> None:
        """A coach at his pace: between entries a pause of about `entry_seconds`; each entry chosen from the
        board as his phone has just drawn it, sent as live.js sends it, then the board drawn again."""
        browser = Browser(self.base, phone.cookies)
        while self._wait(rng.uniform(0.5, 1.5) * self.entry_seconds):
            board = self._board(browser, phone)
            entry = next_entry(board, rng) if board is not None else None
            if entry is None:
                continue
            entry["client_id"] = str(uuid.uuid4())
            entry["made_at"] = datetime.now(UTC).isoformat()
            entry["csrfmiddlewaretoken"] = phone.csrf
            headers = {"X-CSRFToken": phone.csrf, "Accept": "application/json"}
            path = f"/matches/{phone.match}/live/event/"
            try:
                status, text, ms = browser.post_form(path, entry, headers)
            except (OSError, http.client.HTTPException) as exc:
                self.figures.failed("entries", f"{path} {exc!r}")
                continue
            self.figures.took("entries", ms, status)
            answer = _json(text)
            if status != 200 or "errors" in answer or "id" not in answer:
                self.figures.failed("entries", f"{path} {entry['kind']} {status} {text[:200]}")
                continue
            with self.figures.lock:
                self.figures.recorded.append(entry["client_id"])
            self._board(browser, phone)  # live.js redraws the board at once (live:refresh)
        browser.close()

    def visit(self, pages: list[list[str]], rng: random.Random) -> None:
        """A visitor: a public page (a kind of page, then one of its kind), a while reading it, the next."""
        browser = Browser(self.base)
        # visitors come in at different moments, as the phones poll at different moments: twenty first
        # pages in the same millisecond, each worker's cache cold, is a queue no club night makes
        arrived = self._wait(rng.uniform(0, self.read_seconds))
        while arrived and time.monotonic() < self.deadline:
            path = rng.choice(rng.choice(pages))
            try:
                status, _, ms = browser.send("GET", path, headers={"Accept": "text/html"})
            except (OSError, http.client.HTTPException) as exc:
                self.figures.failed("pages", f"{path} {exc!r}")
            else:
                self.figures.took("pages", ms, status)
                if status not in (200, 304):
                    self.figures.failed("pages", f"{path} {status}")
            if not self._wait(rng.uniform(0.5, 1.5) * self.read_seconds):
                break
        browser.close()

    def run(
        self, *, phones: list[Phone], coaches: list[Phone], visitors: int, pages: list[list[str]], seed: int
    ) -> Figures:
        rng = random.Random(seed)
        jobs = [(self.poll, (p, random.Random(rng.random()))) for p in phones]
        jobs += [(self.post, (c, random.Random(rng.random()))) for c in coaches]
        jobs += [(self.visit, (pages, random.Random(rng.random()))) for _ in range(visitors)]
        self.deadline = time.monotonic() + self.seconds
        threads = [threading.Thread(target=job, args=args, daemon=True) for job, args in jobs]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=self.seconds + 60)
        return self.figures


def _json(text: str) -> dict:
    try:
        answer = json.loads(text)
    except ValueError:
        return {}
    return answer if isinstance(answer, dict) else {}


def page_token(html: str) -> str:
    """The CSRF token the page puts on <body hx-headers=…>, where live.js reads it."""
    forms = _BodyHeaders()
    forms.feed(html)
    return forms.token


class _BodyHeaders(HTMLParser):
    token = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self.token = _json(dict(attrs).get("hx-headers") or "{}").get("X-CSRFToken", "")
