"""SPEC-02 / L2-02b: JSON-2 adapter (``POST /json/2/<model>/<method>``, Odoo 19+).

Real Odoo 19 wire format (decision 6): headers ``Authorization: bearer <key>`` and
``X-Odoo-Database``; the body holds named parameters plus ``ids`` and ``context`` (see
``json2_params`` for the positional -> named table); success is HTTP 200 with the bare JSON
result; an error is a 4xx/5xx status with ``{name, message, arguments, context, debug}``:

======  =============================================================================
status  meaning
======  =============================================================================
401     missing or invalid API key (``WWW-Authenticate: Bearer``)
403     AccessError (ACL, record rule, private method)
404     MissingError, unknown model or method (``werkzeug.exceptions.NotFound``)
422     UserError / ValidationError, ids given to an ``@api.model`` method
400     body not JSON; 500 Python error (ValueError, TypeError, KeyError)
======  =============================================================================

A 5xx *without* that error body comes from a proxy or a crash: a connection error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

import httpx2

from odoo_mcp.connection.base import CallOutcome, OdooProtocol, OdooValue
from odoo_mcp.connection.errors import (
    OdooAuthenticationError,
    OdooConnectionError,
    OdooRpcError,
    OdooSessionExpired,
    endpoint_not_found,
)
from odoo_mcp.connection.json2_params import to_named_params
from odoo_mcp.connection.transport import decode_json, raise_for_transport_status, send

__all__ = ["Json2Protocol"]


def _odoo_error_body(response: httpx2.Response) -> dict[str, Any] | None:
    """The ``{name, message, ...}`` object Odoo sends with an error status, if that is it."""
    if "json" not in response.headers.get("Content-Type", ""):
        return None
    try:
        body = response.json()
    except ValueError:
        return None
    if isinstance(body, dict) and isinstance(body.get("message"), str) and "name" in body:
        return body
    return None


class Json2Protocol(OdooProtocol):
    """REQ-02b-09: the JSON-2 API; the API key authenticates every request, no session."""

    protocol_name = "json2"

    _api_key: str | None = None

    def _headers(self) -> dict[str, str]:
        headers = {"X-Odoo-Database": self.database}
        if self._api_key is not None:
            headers["Authorization"] = f"bearer {self._api_key}"
        return headers

    async def _post(self, model: str, method: str, body: Mapping[str, OdooValue]) -> OdooValue:
        """REQ-02b-09: one POST (09a); the status code decides success or which error."""
        response = await send(
            self._client,
            "POST",
            # quoted: a name can never add path segments (check_call_names refuses them first)
            f"/json/2/{quote(model, safe='')}/{quote(method, safe='')}",
            json_body=dict(body),
            headers=self._headers(),
            protocol="json2",
        )
        if response.status_code == 200:
            return decode_json(response, protocol="json2")
        error_body = _odoo_error_body(response)
        if error_body is None:
            if response.status_code == 404:
                raise endpoint_not_found(
                    "this server does not offer JSON-2 (/json/2 answered 404 without an Odoo "
                    "error): JSON-2 needs Odoo 19 or later",
                    protocol="json2",
                )
            raise_for_transport_status(response, protocol="json2")
            raise OdooConnectionError(
                f"unexpected HTTP {response.status_code} from /json/2 without an Odoo error body",
                kind="malformed",
                request_sent=True,
                http_status=response.status_code,
                protocol="json2",
            )
        if response.status_code == 429:
            raise_for_transport_status(response, protocol="json2")
        error = OdooRpcError.from_json2_error(
            error_body, response.status_code, model=model, method=method
        )
        if response.status_code == 401:
            # REQ-02-22: the key stopped working (revoked, expired); re-authentication decides.
            raise OdooSessionExpired(error.message, protocol="json2", raw=error)
        raise error

    async def authenticate(self, db: str, login: str, password: str) -> int:
        """REQ-02b-09: no login call; the key (``password``) is checked by resolving the uid.

        ``res.users.context_get`` returns the key owner's uid in one round trip; when a
        server leaves it out we search ``res.users`` by login, as REQ-02-06 describes.
        """
        self.database, self._api_key = db, password
        try:
            info = await self._post("res.users", "context_get", {})
            uid = info.get("uid") if isinstance(info, dict) else None
            if not isinstance(uid, int) and login:
                domain = [["login", "=", login]]
                body = {"domain": domain, "fields": ["id"], "limit": 1}
                rows = await self._post("res.users", "search_read", body)
                uid = rows[0]["id"] if isinstance(rows, list) and rows else None
        except OdooSessionExpired as exc:
            self._api_key = None
            raise OdooAuthenticationError(
                f"Odoo refused the API key: {exc.message}", protocol="json2", raw=exc.raw
            ) from exc
        if isinstance(uid, bool) or not isinstance(uid, int):
            raise OdooAuthenticationError("could not resolve the API key's user", protocol="json2")
        self.uid = uid
        return uid

    async def call(
        self,
        model: str,
        method: str,
        args: Sequence[OdooValue] = (),
        kwargs: Mapping[str, OdooValue] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> CallOutcome:
        """REQ-02b-09: named parameters + ``ids`` + ``context``; the result comes back bare."""
        if self._api_key is None:
            raise OdooSessionExpired("not authenticated", protocol="json2")
        body = to_named_params(model, method, args, kwargs or {})
        body["context"] = self._context(kwargs, context)
        return CallOutcome(await self._post(model, method, body), "json2")

    async def version_info(self) -> dict[str, Any]:
        """REQ-02a-01: ``GET /web/version`` (Odoo 19 keeps it; XML-RPC is deprecated there)."""
        response = await send(self._client, "GET", "/web/version", protocol="json2")
        raise_for_transport_status(response, protocol="json2")
        data = decode_json(response, protocol="json2") if response.status_code == 200 else None
        if not isinstance(data, dict) or not isinstance(data.get("version"), str):
            raise OdooConnectionError(
                f"no version at /web/version (HTTP {response.status_code})",
                kind="malformed",
                request_sent=True,
                protocol="json2",
            )
        listed = data.get("version_info")
        info: dict[str, Any] = {"server_version": data["version"]}
        if isinstance(listed, list):
            info["server_version_info"] = listed
        return info

    async def close(self) -> None:
        """REQ-02b-16: forget the key and uid (the shared client stays open)."""
        self._api_key = None
        await super().close()
