"""OAuth sign-in: the server-rendered pages (no script, no external resource)."""

from __future__ import annotations

import re
from html import escape
from typing import Final
from urllib.parse import urlsplit

from starlette.responses import HTMLResponse

__all__ = ["error_page", "signin_page"]

_HEADERS: Final = {
    "Cache-Control": "no-store",
    "Pragma": "no-cache",
    "X-Frame-Options": "DENY",  # no clickjacking of the consent
    "Referrer-Policy": "no-referrer",  # the request id stays out of other sites' logs
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
}
_SCHEME: Final = re.compile(r"[a-z][a-z0-9+.-]*\Z")
_HOST: Final = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*\Z")


def _redirect_source(redirect_uri: str) -> str:
    """The CSP source of where the sign-in goes back: ``form-action`` also governs the
    redirect the form's POST is answered with (Chromium blocks a redirect it does not allow),
    so the sign-in form must be allowed to land on the client's redirect URI. Its origin
    (``http://127.0.0.1:PORT``), or its scheme alone (a native app's ``com.example.app:``,
    an IPv6 literal, which CSP host sources cannot name); nothing for what does not parse."""
    try:
        parts = urlsplit(redirect_uri)
        port = parts.port
    except ValueError:
        return ""
    scheme, host = parts.scheme.lower(), parts.hostname or ""
    if not _SCHEME.match(scheme):
        return ""
    if not _HOST.match(host):
        return f"{scheme}:"
    return f"{scheme}://{host}" + (f":{port}" if port is not None else "")


_STYLE: Final = (
    "body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem}"
    "label{display:block;margin-top:1rem}input{width:100%;padding:.4rem;box-sizing:border-box}"
    "button{margin-top:1.5rem;padding:.5rem 1.5rem}.error{color:#a00}.consent{color:#333}"
)


def _page(
    title: str, body: str, status: int, headers: dict[str, str] | None = None
) -> HTMLResponse:
    html = (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><h1>{escape(title)}</h1>{body}</body></html>"
    )
    return HTMLResponse(html, status_code=status, headers={**_HEADERS, **(headers or {})})


def error_page(message: str, status: int = 400, retry_after: int | None = None) -> HTMLResponse:
    """A refusal shown to the person, never a redirect."""
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    body = f"<p class=error id=error>{escape(message)}</p>"
    return _page("Sign-in refused", body, status, headers)


def signin_page(
    *,
    action: str,
    request_id: str,
    csrf: str,
    client_name: str,
    redirect_uri: str,
    odoo: str,
    login: str = "",
    error: str | None = None,
    status: int = 200,
    retry_after: int | None = None,
) -> HTMLResponse:
    """The form: Odoo login and password or API key, and whom the sign-in is for."""
    host = urlsplit(redirect_uri).hostname or redirect_uri
    problem = f"<p class=error id=error role=alert>{escape(error)}</p>" if error else ""
    body = (
        f"{problem}"
        f"<p class=consent id=consent><strong>{escape(client_name)}</strong> asks to use Odoo "
        f"({escape(odoo)}) as you, with your own access rights. After you sign in you are "
        f"sent back to <strong>{escape(host)}</strong>.</p>"
        f'<form method=post action="{escape(action)}">'
        f'<input type=hidden name=request value="{escape(request_id)}">'
        f'<input type=hidden name=csrf value="{escape(csrf)}">'
        f"<label for=login>Odoo login</label>"
        f'<input id=login name=login autocomplete=username required value="{escape(login)}">'
        f"<label for=secret>Password or API key</label>"
        f"<input id=secret name=secret type=password autocomplete=current-password required>"
        f"<button id=signin type=submit>Sign in and allow</button>"
        "</form>"
    )
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    target = _redirect_source(redirect_uri)
    if target:
        headers["Content-Security-Policy"] = _HEADERS["Content-Security-Policy"].replace(
            "form-action 'self'", f"form-action 'self' {target}"
        )
    return _page("Sign in to Odoo", body, status, headers)
