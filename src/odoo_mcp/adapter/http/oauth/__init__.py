"""OAuth 2.1 sign-in with the user's own Odoo identity (``oauth`` on, HTTP transport).

The server is its own authorization server, built from the MCP SDK's pieces
(``mcp.server.auth``): protected resource metadata (RFC 9728) at
``/.well-known/oauth-protected-resource<mcp path>``, authorization server metadata (RFC 8414)
at ``/.well-known/oauth-authorization-server``, dynamic client registration (RFC 7591) at
``/register``, ``/authorize`` (code flow, PKCE S256 only, RFC 8707 ``resource``), ``/token``
(code and refresh grants, refresh tokens rotated) and ``/revoke`` (RFC 7009). The one piece the
SDK leaves to the server is the sign-in: ``/oauth/signin`` (``signin``) asks for the Odoo
login and password or API key and binds the grant to that user and credential.

An access token then reaches the MCP endpoint through ``BearerAuth`` like an Odoo API key:
its grant's credential opens the caller's own connection (``CallerConnections``), so the
request runs as that Odoo user with Odoo's access rights. Odoo refusing the credential (a
changed password, a revoked key) ends the grant: 401 ``invalid_token``, every token revoked.
Records live sealed in the shared state (``store``: memory, or the ``state_url`` Redis).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from mcp.server.auth.handlers.authorize import AuthorizationHandler
from mcp.server.auth.handlers.metadata import MetadataHandler
from mcp.server.auth.routes import (
    AUTHORIZATION_PATH,
    build_metadata,
    build_resource_metadata_url,
    cors_middleware,
    create_auth_routes,
    create_protected_resource_routes,
)
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, RequestBodyLimitMiddleware
from mcp.shared.auth import OAuthMetadata
from pydantic import AnyHttpUrl
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, request_response

from odoo_mcp.adapter.http.auth import CallerConnections, CallerRefused
from odoo_mcp.adapter.http.oauth.crypto import Sealer
from odoo_mcp.adapter.http.oauth.documents import ClientDocuments
from odoo_mcp.adapter.http.oauth.pages import error_page
from odoo_mcp.adapter.http.oauth.provider import (
    ACCESS_PREFIX,
    Grant,
    Lifetimes,
    OdooAuthorizationProvider,
    same_resource,
)
from odoo_mcp.adapter.http.oauth.signin import SIGNIN_PATH, SignIn
from odoo_mcp.adapter.http.oauth.store import MemoryStore, OAuthStore, RedisStore, open_store
from odoo_mcp.callers import Caller
from odoo_mcp.config import OdooMcpConfig

#: RFC 8414's well-known path of the authorization server metadata
METADATA_PATH = "/.well-known/oauth-authorization-server"

__all__ = ["MemoryStore", "OAuthServer", "OAuthStore", "RedisStore", "oauth_urls"]


def oauth_urls(config: OdooMcpConfig, base_url: str | None = None) -> tuple[str, str]:
    """The issuer and the resource: ``public_url`` (the resource; its origin the issuer)
    behind a proxy, else this server's own URL (``base_url``, or the host and port)."""
    if config.public_url:
        parts = urlsplit(config.public_url)
        return f"{parts.scheme}://{parts.netloc}", config.public_url
    if base_url is None:
        host = f"[{config.host}]" if ":" in config.host else config.host
        base_url = f"http://{host}:{config.port}"
    base = base_url.rstrip("/")
    return base, base + config.mcp_path


class OAuthServer:
    """The authorization server's routes, and the access-token check ``BearerAuth`` asks."""

    prefix = ACCESS_PREFIX

    def __init__(
        self,
        config: OdooMcpConfig,
        callers: CallerConnections,
        *,
        store: OAuthStore | None = None,
        clock: Callable[[], float] = time.time,
        base_url: str | None = None,
    ) -> None:
        self.issuer, self.resource = oauth_urls(config, base_url)
        self.resource_metadata = str(build_resource_metadata_url(AnyHttpUrl(self.resource)))
        self.callers = callers
        self.store = open_store(config.state_url) if store is None else store
        self.documents = (
            ClientDocuments(private_hosts=frozenset(config.oauth_client_document_hosts))
            if config.oauth_client_documents == "on"
            else None
        )
        self.provider = OdooAuthorizationProvider(
            self.store,
            Sealer(config.oauth_secret),
            issuer=self.issuer,
            resource=self.resource,
            lifetimes=Lifetimes(
                access=float(config.oauth_access_lifetime),
                refresh=float(config.oauth_refresh_lifetime),
                code=float(config.oauth_code_lifetime),
            ),
            clock=clock,
            check=self._still_accepted,
            documents=self.documents,
        )
        self.signin = SignIn(self.provider, callers, odoo=config.odoo_db)

    async def _still_accepted(self, grant: Grant) -> bool:
        return await self.callers.check_login(grant.login, grant.secret)

    async def caller(self, token: str) -> Caller:
        """REQ-HTTP-13/15: the Odoo connection of an access token's grant (the request runs
        as its signed-in user); ``CallerRefused`` 401 when the
        token is unknown, expired, revoked or for another resource, or when Odoo refuses the
        grant's credential (the grant then ends)."""
        access = await self.provider.load_access_token(token)
        if access is None:
            raise CallerRefused(
                401,
                "invalid_token",
                "The access token is unknown, expired or revoked: refresh it or sign in again",
            )
        if not same_resource(access.resource, self.resource):
            raise CallerRefused(
                401, "invalid_token", "The access token was issued for another resource"
            )
        grant = await self.provider.grant(access.grant)
        if grant is None:
            raise CallerRefused(401, "invalid_token", "The sign-in of this token has ended")
        try:
            caller = await self.callers.resolve_login(grant.login, grant.secret)
        except CallerRefused as refused:
            if refused.status != 401:
                raise
            await self.provider.end_grant(
                grant.id, f"Odoo refused the credential of uid {grant.uid}"
            )
            raise CallerRefused(
                401,
                "invalid_token",
                "Odoo refused the credential of this sign-in (changed password or revoked "
                "key): sign in again",
            ) from None
        if caller.uid != grant.uid:
            await self.provider.end_grant(grant.id, "the credential now names another user")
            raise CallerRefused(401, "invalid_token", "The sign-in of this token has ended")
        return caller

    async def _authorize(self, request: Request) -> Response:
        """The SDK's ``/authorize``; its direct refusals (unknown client, unregistered redirect
        URI: never redirected to) are shown as a page instead of JSON."""
        answer = await AuthorizationHandler(self.provider).handle(request)
        if answer.status_code == 400 and "location" not in answer.headers:
            try:
                said: Any = json.loads(bytes(answer.body))
                text = str(said.get("error_description") or said.get("error"))
            except (ValueError, AttributeError):
                text = "The authorization request is invalid"
            refusal = await self._document_refusal(request)
            if refusal is not None:
                text = f"the client's metadata document is refused: {refusal}"
            return error_page(f"This authorization request is refused: {text}")
        return answer

    async def _document_refusal(self, request: Request) -> str | None:
        """Why the metadata document the request's client ID names was refused, if it was."""
        if self.documents is None:
            return None
        client_id = request.query_params.get("client_id")
        if client_id is None and request.method == "POST":
            client_id = str((await request.form()).get("client_id") or "")  # the SDK's, cached
        return self.documents.refusal(client_id) if client_id else None

    async def _signin(self, request: Request) -> Response:
        if request.method == "POST":
            return await self.signin.submit(request)
        return await self.signin.show(request)

    def metadata(self) -> OAuthMetadata:
        """RFC 8414 metadata: the SDK's, saying also that public clients (authentication
        ``none``, what dynamic registration gives MCP clients) are accepted, and whether
        client ID metadata documents are."""
        sdk = build_metadata(
            AnyHttpUrl(self.issuer),
            None,
            ClientRegistrationOptions(enabled=True),
            RevocationOptions(enabled=True),
        )
        methods = [*(sdk.token_endpoint_auth_methods_supported or []), "none"]
        return sdk.model_copy(
            update={
                "token_endpoint_auth_methods_supported": methods,
                "client_id_metadata_document_supported": self.documents is not None or None,
            }
        )

    def routes(self) -> list[BaseRoute]:
        """The metadata, registration, authorization, token, revocation and sign-in routes."""
        sdk = create_auth_routes(
            self.provider,
            AnyHttpUrl(self.issuer),
            client_registration_options=ClientRegistrationOptions(enabled=True),
            revocation_options=RevocationOptions(enabled=True),
        )
        authorize = Route(
            AUTHORIZATION_PATH,
            endpoint=RequestBodyLimitMiddleware(
                request_response(self._authorize), DEFAULT_MAX_REQUEST_BODY_SIZE
            ),
            methods=["GET", "POST"],
        )
        metadata = Route(
            METADATA_PATH,
            endpoint=cors_middleware(MetadataHandler(self.metadata()).handle, ["GET", "OPTIONS"]),
            methods=["GET", "OPTIONS"],
        )
        ours = {AUTHORIZATION_PATH: authorize, METADATA_PATH: metadata}
        routes: list[BaseRoute] = [ours.get(r.path, r) if isinstance(r, Route) else r for r in sdk]
        routes += create_protected_resource_routes(
            AnyHttpUrl(self.resource), [AnyHttpUrl(self.issuer)], resource_name="Odoo MCP"
        )
        routes.append(Route(SIGNIN_PATH, self._signin, methods=["GET", "POST"]))
        return routes

    async def close(self) -> None:
        """Release the store (server shutdown)."""
        await self.store.close()
