"""OAuth sign-in: what the shared state holds is sealed (AES-GCM), and looked up by keyed digest.

One secret (``oauth_secret``) gives, through HKDF-SHA256, two independent keys: an AES-256-GCM
key sealing every stored record (the Odoo credential a grant is bound to among them) and an
HMAC-SHA256 key naming records after the tokens and codes they belong to. The store never holds
a token, a code or a credential in clear, and a record sealed under one name does not open
under another (the name is the AEAD's associated data), so a record cannot be moved.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from typing import Any, Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

__all__ = ["Sealer"]

_SALT: Final = b"odoo-mcp oauth v1"
_NONCE: Final = 12


def _derive(secret: bytes, purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=_SALT, info=purpose).derive(secret)


class Sealer:
    """Seal and open JSON records under their store key; digest tokens for their keys."""

    def __init__(self, secret: str) -> None:
        raw = secret.encode("utf-8")
        self._aead = AESGCM(_derive(raw, b"seal"))
        self._mac = _derive(raw, b"name")

    def digest(self, token: str) -> str:
        """The store's name for a token or code: a keyed digest, never the token."""
        return hmac.new(self._mac, token.encode("utf-8"), hashlib.sha256).hexdigest()

    def seal(self, name: str, record: dict[str, Any]) -> str:
        """The record, encrypted and authenticated, bound to its store key ``name``."""
        nonce = os.urandom(_NONCE)
        plain = json.dumps(record, separators=(",", ":")).encode("utf-8")
        sealed = self._aead.encrypt(nonce, plain, name.encode("utf-8"))
        return base64.urlsafe_b64encode(nonce + sealed).decode("ascii")

    def open(self, name: str, blob: str | None) -> dict[str, Any] | None:
        """The record sealed under ``name``; None when absent, tampered with, moved from
        another key or sealed with another secret."""
        if blob is None:
            return None
        try:
            data = base64.urlsafe_b64decode(blob.encode("ascii"))
            plain = self._aead.decrypt(data[:_NONCE], data[_NONCE:], name.encode("utf-8"))
            record = json.loads(plain)
        except (InvalidTag, ValueError, UnicodeError):
            return None
        return record if isinstance(record, dict) else None
