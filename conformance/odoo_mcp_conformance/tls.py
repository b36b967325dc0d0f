"""The kit's one TLS client context, for every HTTP client it opens.

Why: each ``httpx2`` client otherwise builds its own default context, loading the CA bundle
again (40 to 90 ms each); a kit batch opens a few hundred clients, to its fake Odoo, the
server under test and the raw HTTP steps. One context verifies as each would have: it is
httpx2's own default, made once per process.
"""

from __future__ import annotations

import ssl
from functools import cache

import httpx2

__all__ = ["verify"]


@cache
def verify() -> ssl.SSLContext:
    """httpx2's default verifying context, shared (a context may serve many connections)."""
    return httpx2.create_ssl_context()
