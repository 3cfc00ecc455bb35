"""A Web Push service of the tests' own on 127.0.0.1, and devices subscribed to it: what the app pushes is
checked and read as a phone would have it. The service verifies the VAPID header (RFC 8292: an ES256 JWT
signed by the key it names, for this origin, not expired) and the device decrypts the body (RFC 8291,
aes128gcm) with its own ECDH private key and auth secret. A message that fails either is refused (401,
400) and kept in `refused`, so a test sees why.

    with push_service() as service:
        phone = service.device()
        ... the app pushes to phone.subscription() ...
        [message] = phone.wait(1)   # the JSON the service worker's `push` handler receives
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.test import override_settings


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def vapid_pair() -> tuple[str, str]:
    """A VAPID key pair as `manage.py vapid_keys` prints it: (public, private), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(public), b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def verify_vapid(authorization: str, origin: str, expected_key: str) -> dict[str, Any]:
    """The claims of a valid `vapid t=<JWT>,k=<key>` header; ValueError saying what is wrong."""
    scheme, _, rest = authorization.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError(f"not a vapid header: {authorization[:40]!r}")
    parts = dict(item.strip().split("=", 1) for item in rest.split(","))
    token, key = parts.get("t", ""), parts.get("k", "")
    if key != expected_key:
        raise ValueError("signed with another key than the league's")
    header_b64, claims_b64, signature_b64 = token.split(".")
    header, claims = json.loads(unb64url(header_b64)), json.loads(unb64url(claims_b64))
    if header.get("alg") != "ES256":
        raise ValueError(f"alg {header.get('alg')}")
    raw = unb64url(signature_b64)
    if len(raw) != 64:
        raise ValueError("an ES256 signature is 64 bytes")
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    try:
        public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("bad signature") from None
    if claims.get("aud") != origin:
        raise ValueError(f"aud {claims.get('aud')!r}, not {origin!r}")
    if not (time.time() < int(claims.get("exp", 0)) <= time.time() + 24 * 3600):
        raise ValueError(f"exp {claims.get('exp')} is past or more than 24 hours ahead (RFC 8292)")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        raise ValueError("no contact (sub)")
    return claims


@dataclass
class Device:
    """A browser's subscription: its own ECDH key pair and auth secret, as a phone makes them."""

    endpoint: str
    answer: int = 201  # what the push service answers for this device: 410 when it has forgotten it
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    received: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)

    def subscription(self) -> dict[str, Any]:
        """PushSubscription.toJSON(), as the settings page's script posts it."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))

    def wait(self, count: int, seconds: float = 5) -> list[dict[str, Any]]:
        """The messages, once `count` have come (for a push sent from another thread)."""
        deadline = time.monotonic() + seconds
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.received


class PushService:
    def __init__(self, server: ThreadingHTTPServer, vapid_public_key: str) -> None:
        self.server, self.vapid_public_key = server, vapid_public_key
        self.origin = f"http://127.0.0.1:{server.server_address[1]}"
        self.devices: dict[str, Device] = {}
        self.refused: list[str] = []
        self.lock = threading.Lock()

    def device(self, answer: int = 201) -> Device:
        made = Device(endpoint=f"{self.origin}/push/{secrets.token_urlsafe(16)}", answer=answer)
        self.devices[made.endpoint.removeprefix(self.origin)] = made
        return made

    def receive(self, path: str, headers: Any, body: bytes) -> int:
        """One POST from the app: its status, the message kept by its device when it is accepted."""
        device = self.devices.get(path)
        if device is None:
            return 404
        try:
            verify_vapid(headers.get("Authorization", ""), self.origin, self.vapid_public_key)
        except (ValueError, KeyError) as problem:
            self.refused.append(f"vapid: {problem}")
            return 401
        if headers.get("Content-Encoding") != "aes128gcm" or not headers.get("TTL"):
            self.refused.append(f"headers: {dict(headers)}")
            return 400
        if device.answer >= 300:
            return device.answer
        try:
            message = device.decrypt(body)
        except Exception as problem:
            self.refused.append(f"decrypt: {problem!r}")
            return 400
        with self.lock:
            device.headers.append(dict(headers))
            device.received.append(message)
        return 201


@contextmanager
def push_service() -> Iterator[PushService]:
    """The service running in a thread, with the app given a VAPID pair of the test's and allowed to push to
    plain http on 127.0.0.1 while it runs."""
    public, private = vapid_pair()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            self.send_response(service.receive(self.path, self.headers, body))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:  # quiet in the test's output
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service = PushService(server, public)
    # a short poll: shutdown() waits for it, once per test
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        with override_settings(
            VAPID_PUBLIC_KEY=public,
            VAPID_PRIVATE_KEY=private,
            VAPID_SUBJECT="mailto:styret@example.org",
            PUSH_LOCAL_HTTP=True,
        ):
            yield service
    finally:
        server.shutdown()
        server.server_close()
