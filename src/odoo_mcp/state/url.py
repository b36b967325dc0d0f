"""Issue 19 / decision 37: the ``state_url`` setting: its schemes and how it is shown."""

from __future__ import annotations

import importlib.util
from typing import Final
from urllib.parse import urlsplit, urlunsplit

__all__ = ["SCHEMES", "redacted", "state_url_problem"]

#: redis-py's own URL schemes: TCP, TLS and a Unix socket
SCHEMES: Final = ("redis", "rediss", "unix")


def redacted(url: str) -> str:
    """Decision 37: the URL without its password, for messages and logs."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        user = parts.username or ""
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "<unparsable URL>"
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))


def state_url_problem(url: str) -> str | None:
    """REQ-11-28, decision 37: what is wrong with a non-empty ``state_url``, if anything."""
    scheme = urlsplit(url).scheme.lower() if "://" in url else ""
    if scheme not in SCHEMES:
        return f"must be a redis://, rediss:// or unix:// URL, not {redacted(url)}"
    if importlib.util.find_spec("redis") is None:
        return "needs the redis package: install odoo-mcp[redis]"
    return None
