"""SPEC-02 / L2-02b: XML-RPC adapter (``/xmlrpc/2/common``, ``/xmlrpc/2/object``).

The spec's ``ServerProxy`` + ``asyncio.to_thread`` design (REQ-02b-03/04) is replaced by the
standard library's codec (``xmlrpc.client.dumps`` / ``loads``) over the shared ``httpx2``
client: the same pool, keep-alive, timeout and TLS options as the other protocols, and no
thread per call. The behaviour the spec asks for is kept: uid + secret on every call, faults
become ``OdooRpcError``, network failures ``OdooConnectionError``.
"""

from __future__ import annotations

import xmlrpc.client
from collections.abc import Mapping, Sequence
from typing import Any
from xml.parsers.expat import ExpatError

from odoo_mcp.connection.base import CallOutcome, OdooProtocol, OdooValue
from odoo_mcp.connection.errors import (
    OdooAuthenticationError,
    OdooConnectionError,
    OdooRpcError,
    OdooSessionExpired,
    OdooUnsendableCall,
    endpoint_not_found,
    is_none_marshal_fault,
)
from odoo_mcp.connection.transport import raise_for_transport_status, send

__all__ = ["XmlRpcProtocol"]

_HEADERS = {"Content-Type": "text/xml; charset=utf-8"}


class XmlRpcProtocol(OdooProtocol):
    """REQ-02b-03: Odoo's XML-RPC external API; credentials travel with every call."""

    protocol_name = "xmlrpc"

    _secret: str | None = None
    _login: str | None = None

    async def _rpc(
        self,
        service: str,
        method: str,
        params: Sequence[OdooValue],
    ) -> OdooValue:
        """REQ-02b-05: one XML-RPC round trip; REQ-02b-04: a fault becomes OdooRpcError (raw
        kept), a transport failure a connection error."""
        try:
            body = xmlrpc.client.dumps(tuple(params), method, allow_none=True)
        except OverflowError:
            raise OdooUnsendableCall(
                "INVALID_ARGUMENT",
                "XML-RPC carries integers of 32 bits only (-2147483648 to 2147483647): "
                "an argument is beyond that range",
                "Use a smaller number; no Odoo id is that large. Values this big need the "
                "jsonrpc or json2 protocol.",
                {"protocol": "xmlrpc"},
                category="validation",
                protocol="xmlrpc",
            ) from None
        response = await send(
            self._client,
            "POST",
            f"/xmlrpc/2/{service}",
            content=body.encode("utf-8"),
            headers=_HEADERS,
            protocol=self.protocol_name,
        )
        if response.status_code == 404:
            raise endpoint_not_found(
                "this server does not offer XML-RPC (/xmlrpc/2 answered 404); "
                "choose protocol json2 or jsonrpc",
                protocol=self.protocol_name,
            )
        raise_for_transport_status(response, protocol=self.protocol_name)
        try:
            (result,), _ = xmlrpc.client.loads(response.content)
        except xmlrpc.client.Fault as fault:
            raise _FaultSignal(fault.faultCode, fault.faultString) from fault
        except (ExpatError, xmlrpc.client.ResponseError, ValueError) as exc:
            raise OdooConnectionError(
                f"malformed XML-RPC answer (HTTP {response.status_code})",
                kind="malformed",
                request_sent=True,
                http_status=response.status_code,
                protocol=self.protocol_name,
            ) from exc
        return result

    async def authenticate(self, db: str, login: str, password: str) -> int:
        """REQ-02-04: ``common.authenticate(db, login, password, {})``; False means refused."""
        try:
            uid = await self._rpc("common", "authenticate", [db, login, password, {}])
        except _FaultSignal as signal:
            raise signal.to_error(None, "authenticate") from None
        if isinstance(uid, bool) or not isinstance(uid, int):
            raise OdooAuthenticationError(
                f"Odoo refused the credentials of {login!r} on database {db!r}",
                protocol=self.protocol_name,
            )
        self.database, self._login, self._secret, self.uid = db, login, password, uid
        return uid

    async def call(
        self,
        model: str,
        method: str,
        args: Sequence[OdooValue] = (),
        kwargs: Mapping[str, OdooValue] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> CallOutcome:
        """REQ-02-05: ``object.execute_kw(db, uid, secret, model, method, args, kwargs)``."""
        if self.uid is None or self._secret is None:
            raise OdooSessionExpired("not authenticated", protocol=self.protocol_name)
        call_kwargs = dict(kwargs or {})
        call_kwargs["context"] = self._context(kwargs, context)
        params = [self.database, self.uid, self._secret, model, method, list(args), call_kwargs]
        try:
            result = await self._rpc("object", "execute_kw", params)
        except _FaultSignal as signal:
            if is_none_marshal_fault(signal.code, signal.string):
                # Decision 15: the method ran and committed; only its None result failed.
                return CallOutcome(None, self.protocol_name, null_from_marshal_fault=True)
            error = signal.to_error(model, method)
            if error.is_access_denied:
                # REQ-02-23: the credentials stopped working (password changed, key revoked).
                raise OdooSessionExpired(
                    "Odoo refused the stored credentials", protocol=self.protocol_name, raw=error
                ) from None
            raise error from None
        return CallOutcome(result, self.protocol_name)

    async def version_info(self) -> dict[str, Any]:
        """REQ-02a-01: ``common.version()``, no authentication needed."""
        try:
            info = await self._rpc("common", "version", [])
        except _FaultSignal as signal:
            raise signal.to_error(None, "version") from None
        if not isinstance(info, dict):
            raise OdooConnectionError(
                "malformed version answer", kind="malformed", request_sent=True
            )
        return info

    async def close(self) -> None:
        """REQ-02b-15: forget uid and credentials."""
        self._secret = None
        await super().close()


class _FaultSignal(Exception):
    """A fault seen by ``_rpc``; the caller decides whether it is an error (decision 15)."""

    def __init__(self, code: int | str, string: str) -> None:
        super().__init__(code, string)
        self.code = code
        self.string = string

    def to_error(self, model: str | None, method: str | None) -> OdooRpcError:
        """REQ-02b-12: the typed error for this fault."""
        return OdooRpcError.from_xmlrpc_fault(self.code, self.string, model=model, method=method)
