"""Make the league's VAPID key pair for Web Push (RFC 8292) and print the lines for the environment.
Made once: a new pair leaves every device turned on with the old public key unable to receive pushes
until it is turned on again."""

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Command(BaseCommand):
    help = "Make a VAPID key pair for Web Push and print the environment lines that set it."

    def add_arguments(self, parser):
        parser.add_argument(
            "--subject", default="mailto:styret@example.org", help="Who the push services may write to."
        )

    def handle(self, *args, **options):
        key = ec.generate_private_key(ec.SECP256R1())
        private = key.private_numbers().private_value.to_bytes(32, "big")
        point = serialization.PublicFormat.UncompressedPoint  # 65 bytes, as browsers take applicationServerKey
        public = key.public_key().public_bytes(serialization.Encoding.X962, point)
        self.stdout.write(f"VAPID_PUBLIC_KEY={_b64url(public)}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={_b64url(private)}")
        self.stdout.write(f"VAPID_SUBJECT={options['subject']}")
