"""SPEC-10 §7 and §10: keep tracebacks, file paths and secrets out of what leaves the server.

Two jobs, one module, because both decide what text may be shown or logged:

* :func:`scrub_text` reduces any Python traceback to its final exception line and removes
  stack frames and absolute server paths (REQ-10-13/14) from text shown to MCP clients.
* :func:`sanitize_args` replaces passwords, API keys, tokens, secrets and binary contents in
  call arguments before they are logged (REQ-10-19), and the values of blocked fields
  (REQ-11-14, issue 37) through the safety layer's one :class:`~odoo_mcp.safety.scrub.Redaction`.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from typing import Final

from pydantic import JsonValue

from odoo_mcp.connection.errors import parse_traceback_tail
from odoo_mcp.safety.scrub import Redaction

__all__ = [
    "REDACTED",
    "binary_placeholder",
    "is_secret_key",
    "sanitize_args",
    "scrub_text",
]

REDACTED: Final = "***"
TRACEBACK_HEAD: Final = "Traceback (most recent call last):"

# A stack frame line and the indented source / caret lines under it (not the next frame).
_FRAME_BLOCK = re.compile(
    r'^[ \t]*File "[^"\n]*", line \d+[^\n]*\n?(?:[ \t]+(?!File ")[^\n]*\n?)*', re.M
)
# A frame reference left inside a line, e.g. in a legacy fault code.
_FRAME_REF = re.compile(r'File "[^"\n]*", line \d+(?:, in [\w<>.]+)?')
_CHAIN = re.compile(
    r"^\s*(?:During handling of the above exception, another exception occurred:"
    r"|The above exception was the direct cause of the following exception:)\s*$",
    re.M,
)
# Absolute paths under the usual server roots, and Windows drive paths. URL paths such as
# "/json/2/<model>/<method>" in Odoo's own hints are left alone on purpose.
_PATH = re.compile(
    r"(?<![\w.:/])(?:/(?:opt|usr|var|home|srv|tmp|etc|root|run|mnt|Users|private|lib|app)"
    r"(?:/[^\s\"',:;)\]]*)?|[A-Za-z]:\\[^\s\"',;)\]]*)"
)
_SECRET_KEY = re.compile(
    r"pass(?:word|wd|phrase)|^pass$|pwd|secret|token|api[_-]?key|apikey|authorization|^auth$"
    r"|credential|cookie|session[_-]?id|private[_-]?key|totp|(?:^|_)otp(?:_|$)|signature"
    r"|(?:^|_)key$",
    re.I,
)
_BINARY_KEY = re.compile(
    r"^(?:datas?|db_datas|raw|file|content|attachment)$|image|avatar|_bin(?:ary)?$|_file$|_data$",
    re.I,
)
_BASE64 = re.compile(r"[A-Za-z0-9+/\r\n]{128,}={0,2}")
_BEARER = re.compile(r"\b(Bearer|Basic)\s+\S+", re.I)


def scrub_text(text: str) -> str:
    """REQ-10-14: no traceback, stack frame or server file path in text shown to a client.

    A text holding a traceback is reduced to its final ``Class: message`` line (REQ-10-13).
    """
    if TRACEBACK_HEAD in text:
        error_class, message = parse_traceback_tail(text)
        text = f"{error_class}: {message}" if error_class else message
    text = _CHAIN.sub("", text)
    text = _FRAME_BLOCK.sub("", text)
    text = _FRAME_REF.sub("", text)
    text = text.replace(TRACEBACK_HEAD, "")
    return _PATH.sub("<path>", text).strip()


def is_secret_key(key: str) -> bool:
    """REQ-10-19: names of arguments whose values must never be logged."""
    return _SECRET_KEY.search(key) is not None


def binary_placeholder(size: int) -> str:
    """REQ-10-19: what a binary value is replaced by in logs."""
    return f"<binary {size} bytes>"


def _base64_size(text: str) -> int | None:
    """Decoded size of ``text`` if it is one long base64 blob (how Odoo sends binary fields)."""
    if _BASE64.fullmatch(text) is None:
        return None
    try:
        return len(base64.b64decode(text, validate=False))
    except (binascii.Error, ValueError):
        return None


def _sanitize_str(text: str, *, binary_key: bool) -> str:
    size = _base64_size(text)
    if size is not None:
        return binary_placeholder(size)
    if binary_key and len(text) > 64:
        return binary_placeholder(len(text))
    return _BEARER.sub(lambda m: f"{m[1]} {REDACTED}", text)


def sanitize_args(
    value: object, *, redaction: Redaction | None = None, _binary_key: bool = False
) -> JsonValue:
    """REQ-10-19: a loggable copy of call arguments, with secrets and binary data replaced.

    Values under a secret-looking key become ``"***"``; bytes, and base64 blobs or long
    strings under a binary-looking key, become ``"<binary N bytes>"``; ``Bearer`` tokens in
    strings are masked. Anything that is not JSON becomes its type name. REQ-11-14 (issue
    37): with a ``redaction``, the values of blocked fields are replaced first.
    """
    if redaction is not None:
        value = redaction.arguments(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return _sanitize_str(value, binary_key=_binary_key)
    if isinstance(value, bytes | bytearray | memoryview):
        return binary_placeholder(len(value))
    if isinstance(value, Mapping):
        clean: dict[str, JsonValue] = {}
        for key, item in value.items():
            name = str(key)
            if is_secret_key(name):
                clean[name] = REDACTED
            else:
                binary = _BINARY_KEY.search(name) is not None
                clean[name] = sanitize_args(item, _binary_key=binary)
        return clean
    if isinstance(value, list | tuple | set | frozenset):
        return [sanitize_args(item, _binary_key=_binary_key) for item in value]
    return f"<{type(value).__name__}>"
