"""SPEC-02 / L2-02b: JSON-RPC adapter, session flow or ``/jsonrpc`` service calls.

Two modes, because a real Odoo accepts an API key only on non-interactive logins:

* ``session`` (REQ-02-08/09): ``POST /web/session/authenticate`` with ``{db, login, password}``,
  keep the ``session_id`` cookie, then ``POST /web/dataset/call_kw/<model>/<method>``. The
  session info also carries the version, ``is_admin`` and (16+) ``is_enterprise``.
* ``service``: ``POST /jsonrpc`` with ``{"service": "object", "method": "execute_kw", "args":
  [db, uid, secret, model, method, args, kwargs]}``; the secret (password or API key) travels
  with every call, like XML-RPC. The manager uses this mode for API keys (REQ-02b-13).

Odoo answers 200 in both; a method returning None gives an envelope with no ``result`` key.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import httpx2

from odoo_mcp.connection.base import CallOutcome, OdooProtocol, OdooValue
from odoo_mcp.connection.errors import (
    OdooAuthenticationError,
    OdooConnectionError,
    OdooRpcError,
    OdooSessionExpired,
    endpoint_not_found,
)
from odoo_mcp.connection.transport import decode_json, raise_for_transport_status, send
from odoo_mcp.connection.version import OdooVersion

__all__ = ["JsonRpcMode", "JsonRpcProtocol"]

JsonRpcMode = Literal["session", "service"]

# Odoo's JSON-RPC code for an expired or missing session (odoo/http.py, SessionExpiredException).
_SESSION_EXPIRED_CODE = 100


class JsonRpcProtocol(OdooProtocol):
    """REQ-02b-06: Odoo's JSON-RPC 2.0 endpoints over the shared client."""

    protocol_name = "jsonrpc"

    def __init__(
        self,
        client: httpx2.AsyncClient,
        database: str,
        *,
        mode: JsonRpcMode = "session",
        base_context: Mapping[str, object] | None = None,
        version: OdooVersion | None = None,
    ) -> None:
        super().__init__(client, database, base_context=base_context, version=version)
        self.mode: JsonRpcMode = mode
        self._ids = itertools.count(1)
        self._session_id: str | None = None
        self._secret: str | None = None
        self.session_info: dict[str, Any] = {}

    async def _post(
        self, path: str, params: Mapping[str, OdooValue], *, model: str | None, method: str | None
    ) -> CallOutcome:
        """REQ-02b-07: one JSON-RPC 2.0 ``call``; the ``error`` member becomes OdooRpcError."""
        envelope = {"jsonrpc": "2.0", "method": "call", "params": params, "id": next(self._ids)}
        headers = {"Cookie": f"session_id={self._session_id}"} if self._session_id else None
        response = await send(
            self._client, "POST", path, json_body=envelope, headers=headers, protocol="jsonrpc"
        )
        if response.status_code == 404:
            raise endpoint_not_found(
                f"this server does not offer JSON-RPC ({path}: 404)", protocol="jsonrpc"
            )
        if response.status_code in (401, 403):
            # REQ-02-22: Odoo itself answers 200; a 401/403 comes from the session layer.
            raise OdooSessionExpired(f"HTTP {response.status_code}", protocol="jsonrpc")
        raise_for_transport_status(response, protocol="jsonrpc")
        body = decode_json(response, protocol="jsonrpc")
        if not isinstance(body, dict) or body.get("jsonrpc") != "2.0":
            raise OdooConnectionError(
                "malformed JSON-RPC answer", kind="malformed", request_sent=True
            )
        error = body.get("error")
        if isinstance(error, dict):
            rpc_error = OdooRpcError.from_jsonrpc_error(error, model=model, method=method)
            if rpc_error.fault_code == _SESSION_EXPIRED_CODE:
                raise OdooSessionExpired(rpc_error.message, protocol="jsonrpc", raw=rpc_error)
            raise rpc_error
        if (session := response.cookies.get("session_id")) is not None:
            self._session_id = session
            # The adapter, not the shared jar, owns the session: other adapters and a later
            # re-authentication must never send a stale cookie.
            self._client.cookies.delete("session_id")
        # Odoo omits "result" when the method returned None: a success with a null result.
        return CallOutcome(body.get("result"), "jsonrpc")

    async def authenticate(self, db: str, login: str, password: str) -> int:
        """REQ-02-08: log in (session or service mode) and keep what the next calls need."""
        self._session_id = None
        params: dict[str, OdooValue]
        try:
            if self.mode == "session":
                params = {"db": db, "login": login, "password": password}
                outcome = await self._post(
                    "/web/session/authenticate", params, model=None, method="authenticate"
                )
                info = outcome.result if isinstance(outcome.result, dict) else {}
                uid = info.get("uid")
            else:
                params = {"service": "common", "method": "authenticate"}
                params["args"] = [db, login, password, {}]
                uid = (await self._post("/jsonrpc", params, model=None, method=None)).result
                info = {}
        except OdooRpcError as exc:
            if exc.is_access_denied:
                raise OdooAuthenticationError(
                    f"Odoo refused the credentials of {login!r}", protocol="jsonrpc", raw=exc
                ) from exc
            raise
        if isinstance(uid, bool) or not isinstance(uid, int):
            raise OdooAuthenticationError(
                f"Odoo refused the credentials of {login!r} on database {db!r}",
                protocol="jsonrpc",
            )
        self.database, self._secret, self.uid, self.session_info = db, password, uid, info
        return uid

    async def call(
        self,
        model: str,
        method: str,
        args: Sequence[OdooValue] = (),
        kwargs: Mapping[str, OdooValue] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> CallOutcome:
        """REQ-02b-07: ``call_kw`` in session mode, ``object.execute_kw`` in service mode."""
        if self.uid is None:
            raise OdooSessionExpired("not authenticated", protocol="jsonrpc")
        call_kwargs = dict(kwargs or {})
        call_kwargs["context"] = self._context(kwargs, context)
        params: dict[str, OdooValue]
        try:
            if self.mode == "session":
                params = {"model": model, "method": method, "args": list(args)}
                params["kwargs"] = call_kwargs
                path = f"/web/dataset/call_kw/{model}/{method}"
                return await self._post(path, params, model=model, method=method)
            db_args = [self.database, self.uid, self._secret, model, method, list(args)]
            params = {"service": "object", "method": "execute_kw", "args": [*db_args, call_kwargs]}
            return await self._post("/jsonrpc", params, model=model, method=method)
        except OdooRpcError as exc:
            if exc.is_access_denied:
                # REQ-02-22: credentials no longer accepted; the manager re-authenticates.
                raise OdooSessionExpired(exc.message, protocol="jsonrpc", raw=exc) from exc
            raise

    async def version_info(self) -> dict[str, Any]:
        """REQ-02a-01: ``common.version`` over ``/jsonrpc`` (no authentication)."""
        params = {"service": "common", "method": "version", "args": []}
        result = (await self._post("/jsonrpc", params, model=None, method="version")).result
        if not isinstance(result, dict):
            raise OdooConnectionError(
                "malformed version answer", kind="malformed", request_sent=True
            )
        return result

    async def close(self) -> None:
        """REQ-02b-16: forget the session cookie, secret and uid (the client stays shared)."""
        self._session_id = None
        self._secret = None
        self.session_info = {}
        await super().close()
