"""OAuth sign-in: the form an authorization waits at, checked against Odoo.

``GET /oauth/signin?request=<id>`` shows the form of a waiting authorization; its ``POST``
takes the authorization (single use, with its CSRF token), checks the login and password or
API key with Odoo through the per-caller connections (``CallerConnections.resolve_login``: the
same failed-authentication limit per address as a Bearer token), and on success redirects to
the client's registered redirect URI with a code. Any refusal is a page, never a redirect to a
URI the server did not register; a wrong password shows the form again, with a new CSRF token.
"""

from __future__ import annotations

import hmac
import logging
from typing import Final

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from odoo_mcp.adapter.http.auth import CallerConnections, CallerRefused
from odoo_mcp.adapter.http.oauth.documents import client_label
from odoo_mcp.adapter.http.oauth.pages import error_page, signin_page
from odoo_mcp.adapter.http.oauth.provider import OdooAuthorizationProvider, Pending
from odoo_mcp.state import StateUnavailable

__all__ = ["SIGNIN_PATH", "SignIn"]

logger = logging.getLogger("odoo_mcp.http.oauth")

SIGNIN_PATH: Final = "/oauth/signin"
_EXPIRED: Final = (
    "This sign-in link is unknown, already used or expired: start again from your client."
)
#: the longest login and secret read from the form
_MAX_FIELD: Final = 1024


class SignIn:
    """The sign-in form's two handlers."""

    def __init__(
        self, provider: OdooAuthorizationProvider, callers: CallerConnections, *, odoo: str
    ) -> None:
        self.provider = provider
        self.callers = callers
        self.odoo = odoo

    async def _form(
        self,
        pending: Pending,
        *,
        login: str = "",
        error: str | None = None,
        status: int = 200,
        retry_after: int | None = None,
    ) -> Response:
        client = await self.provider.get_client(pending.client_id)
        if client is None:
            return error_page("The client of this sign-in is no longer registered.")
        return signin_page(
            action=f"{self.provider.issuer}{SIGNIN_PATH}",
            request_id=pending.id,
            csrf=pending.csrf,
            client_name=client_label(pending.client_id, client.client_name),
            redirect_uri=pending.redirect_uri,
            odoo=self.odoo,
            login=login,
            error=error,
            status=status,
            retry_after=retry_after,
        )

    async def show(self, request: Request) -> Response:
        """The form of a waiting authorization, or a page saying it is gone."""
        try:
            pending = await self.provider.pending(request.query_params.get("request", ""))
        except StateUnavailable:
            return error_page("The server's shared state cannot be reached: retry.", 503, 5)
        if pending is None:
            return error_page(_EXPIRED)
        return await self._form(pending)

    async def submit(self, request: Request) -> Response:
        """Check the CSRF token and the credentials; redirect with a code, or refuse."""
        try:
            return await self._submit(request)
        except StateUnavailable:
            return error_page("The server's shared state cannot be reached: retry.", 503, 5)

    async def _submit(self, request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=8)
        fields = {k: v for k, v in form.items() if isinstance(v, str) and len(v) <= _MAX_FIELD}
        pending = await self.provider.pending(fields.get("request", ""), take=True)
        if pending is None:
            return error_page(_EXPIRED)
        if not hmac.compare_digest(fields.get("csrf", "").encode(), pending.csrf.encode()):
            logger.warning("OAuth sign-in refused: its form token (CSRF) is missing or wrong")
            return error_page(
                "This form's security token is missing or wrong: start again from your client.",
                403,
            )
        login, secret = fields.get("login", "").strip(), fields.get("secret", "")
        if not login or not secret:
            fresh = await self.provider.renew_pending(pending)
            return await self._form(
                fresh, login=login, error="Enter your login and password.", status=400
            )
        client = request.client
        try:
            caller = await self.callers.resolve_login(
                login, secret, client.host if client else None
            )
        except CallerRefused as refused:
            fresh = await self.provider.renew_pending(pending)
            if refused.status == 401:
                said = "Odoo refused this login and password or API key."
            elif refused.status == 429:
                said = (
                    f"Too many failed sign-ins from your address: retry in {refused.retry_after} s."
                )
            else:
                said = "Odoo cannot be reached to check the sign-in: retry in a moment."
            return await self._form(
                fresh, login=login, error=said, status=refused.status,
                retry_after=refused.retry_after,
            )  # fmt: skip
        if caller.uid is None:  # an authenticated connection has a uid; never bind None
            return error_page("Odoo did not say who signed in.", 502)
        target = await self.provider.approve(pending, uid=caller.uid, login=login, secret=secret)
        return RedirectResponse(target, status_code=303, headers={"Cache-Control": "no-store"})
