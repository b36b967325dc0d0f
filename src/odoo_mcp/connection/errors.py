"""SPEC-02 / L2-02b: typed errors of the connection layer, keeping the raw Odoo error.

Hierarchy::

    OdooError
    ├── OdooRpcError              Odoo answered and refused the call (fault, error, 4xx/5xx)
    ├── OdooConnectionError       no usable answer: refused, timeout, dropped, proxy 5xx, garbage
    │   └── OdooRateLimited       HTTP 429, with the server's Retry-After
    ├── OdooAuthenticationError   credentials refused (after any fallback and re-authentication)
    ├── OdooSessionExpired        session / key no longer accepted; the manager re-authenticates
    ├── OdooConfigurationError    the settings cannot work against this server (REQ-02-14)
    └── OdooUnsendableCall        a call no Odoo can receive (bad name, 64-bit int over XML-RPC)

Odoo's three wire forms report the same exception three ways (real Odoo 19):

* XML-RPC ``/xmlrpc/2``: int ``faultCode`` 1 (any Python error; ``faultString`` is the whole
  traceback whose last exception line is ``dotted.Class: message``), 2 (UserError family:
  UserError, ValidationError, MissingError, RedirectWarning), 3 (AccessDenied), 4 (AccessError).
* legacy ``/xmlrpc``: string ``faultCode`` ``"warning -- UserError\\n\\n<msg>"``,
  ``"AccessDenied"``, or the bare message with the traceback in ``faultString``.
* JSON-RPC: ``error.data`` = ``{name, message, arguments, context, debug}``; JSON-2: the same
  object as the body of a 4xx/5xx response.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Mapping
from typing import Any

__all__ = [
    "NONE_MARSHAL_MESSAGE",
    "OdooAuthenticationError",
    "OdooConfigurationError",
    "OdooConnectionError",
    "OdooError",
    "OdooRateLimited",
    "OdooRpcError",
    "OdooSessionExpired",
    "OdooUnsendableCall",
    "check_call_names",
    "endpoint_not_found",
    "is_none_marshal_fault",
    "parse_traceback_tail",
]

NONE_MARSHAL_MESSAGE = "cannot marshal None unless allow_none is enabled"

# Fault codes of /xmlrpc/2 (odoo/addons/rpc/controllers/xmlrpc.py). Fault 2 covers a family:
# the wire does not say which member, so we keep the family's root class.
_FAULT_CLASSES: dict[int, str] = {
    2: "odoo.exceptions.UserError",
    3: "odoo.exceptions.AccessDenied",
    4: "odoo.exceptions.AccessError",
}
_LEGACY_WARNING = re.compile(r"\Awarning -- (?P<cls>\w+)\n\n(?P<msg>.*)\Z", re.DOTALL)
_TRACEBACK_HEAD = "Traceback (most recent call last):"
_EXCEPTION_LINE = re.compile(r"\A(?P<cls>[A-Za-z_][\w.]*)(?::\s?(?P<msg>.*))?\Z", re.DOTALL)


class OdooError(Exception):
    """Root of every error raised by ``odoo_mcp.connection``."""

    def __init__(self, message: str, *, protocol: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.protocol = protocol


def _qualify(class_name: str) -> str:
    """Give a bare builtin exception name the ``builtins.`` prefix JSON-RPC uses.

    Tracebacks print ``ValueError`` where JSON-RPC's ``data.name`` says ``builtins.ValueError``;
    one spelling lets the classifier match either protocol with one table.
    """
    if "." not in class_name and isinstance(getattr(builtins, class_name, None), type):
        return f"builtins.{class_name}"
    return class_name


def parse_traceback_tail(text: str) -> tuple[str | None, str]:
    """REQ-02b-12: split a traceback's final exception line into (dotted class, message).

    The exception line is the first unindented line after the frames of the last
    ``Traceback`` block; a multi-line message continues on the following lines.
    """
    block = text.rsplit(_TRACEBACK_HEAD, 1)[-1]
    lines = block.strip("\n").split("\n")
    for index, line in enumerate(lines):
        if not line.strip() or line.startswith((" ", "\t")):
            continue
        tail = "\n".join([line, *lines[index + 1 :]]).rstrip()
        match = _EXCEPTION_LINE.match(tail)
        if match is None:
            return None, tail
        return _qualify(match["cls"]), (match["msg"] or "").rstrip()
    return None, text.strip()


class OdooRpcError(OdooError):
    """REQ-02b-12: Odoo refused a call; keeps class, message and traceback as Odoo sent them."""

    def __init__(
        self,
        message: str,
        error_class: str | None = None,
        traceback: str | None = None,
        model: str | None = None,
        method: str | None = None,
        http_status: int | None = None,
        fault_code: int | str | None = None,
        protocol: str | None = None,
        raw: object = None,
    ) -> None:
        super().__init__(message, protocol=protocol)
        self.error_class = error_class
        self.traceback = traceback
        self.model = model
        self.method = method
        self.http_status = http_status
        self.fault_code = fault_code
        self.raw = raw

    def __repr__(self) -> str:
        return (
            f"OdooRpcError({self.message!r}, error_class={self.error_class!r}, "
            f"model={self.model!r}, method={self.method!r}, protocol={self.protocol!r})"
        )

    @property
    def is_access_denied(self) -> bool:
        """REQ-02-23: credentials refused (fault 3, legacy ``AccessDenied``, JSON AccessDenied)."""
        return self.error_class == "odoo.exceptions.AccessDenied"

    @classmethod
    def from_xmlrpc_fault(
        cls,
        fault_code: int | str,
        fault_string: str,
        *,
        model: str | None = None,
        method: str | None = None,
    ) -> OdooRpcError:
        """REQ-02b-12: build the error from an XML-RPC fault (``/xmlrpc/2`` or legacy)."""
        raw = {"faultCode": fault_code, "faultString": fault_string}
        common: dict[str, Any] = {"model": model, "method": method, "protocol": "xmlrpc"}
        error_class: str | None
        if isinstance(fault_code, int):
            if fault_code in _FAULT_CLASSES:
                return cls(
                    fault_string,
                    _FAULT_CLASSES[fault_code],
                    None,
                    fault_code=fault_code,
                    raw=raw,
                    **common,
                )
            error_class, message = parse_traceback_tail(fault_string)
            return cls(message, error_class, fault_string, fault_code=fault_code, raw=raw, **common)
        legacy = _LEGACY_WARNING.match(fault_code)
        if legacy is not None:
            error_class = f"odoo.exceptions.{legacy['cls']}"
            return cls(legacy["msg"], error_class, None, fault_code=fault_code, raw=raw, **common)
        if fault_code == "AccessDenied":
            return cls(
                fault_string or "Access Denied",
                "odoo.exceptions.AccessDenied",
                None,
                fault_code=fault_code,
                raw=raw,
                **common,
            )
        # Legacy form for any other exception: the message is the code, the traceback the string.
        error_class, parsed = parse_traceback_tail(fault_string) if fault_string else (None, "")
        return cls(
            fault_code or parsed,
            error_class,
            fault_string or None,
            fault_code=fault_code,
            raw=raw,
            **common,
        )

    @classmethod
    def from_jsonrpc_error(
        cls,
        error: Mapping[str, Any],
        *,
        model: str | None = None,
        method: str | None = None,
        http_status: int | None = 200,
    ) -> OdooRpcError:
        """REQ-02b-08: build the error from a JSON-RPC ``error`` member (class in ``data``)."""
        data = error.get("data")
        data = data if isinstance(data, Mapping) else {}
        message = data.get("message") or error.get("message") or "Odoo Server Error"
        code = error.get("code")
        return cls(
            str(message),
            _str_or_none(data.get("name")),
            _str_or_none(data.get("debug")),
            model=model,
            method=method,
            http_status=http_status,
            fault_code=code if isinstance(code, int) else None,
            protocol="jsonrpc",
            raw=dict(error),
        )

    @classmethod
    def from_json2_error(
        cls,
        body: Mapping[str, Any],
        http_status: int,
        *,
        model: str | None = None,
        method: str | None = None,
    ) -> OdooRpcError:
        """REQ-02b-12: build the error from a JSON-2 error body and its HTTP status."""
        return cls(
            str(body.get("message") or f"HTTP {http_status}"),
            _str_or_none(body.get("name")),
            _str_or_none(body.get("debug")),
            model=model,
            method=method,
            http_status=http_status,
            protocol="json2",
            raw=dict(body),
        )


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def is_none_marshal_fault(fault_code: int | str, fault_string: str) -> bool:
    """REQ-02b-10: Odoo's XML-RPC answer for a method that ran and returned None (decision 15)."""
    if fault_code == 1:
        return fault_string.rstrip().endswith(f"TypeError: {NONE_MARSHAL_MESSAGE}")
    # Legacy /xmlrpc puts the message in faultCode and the traceback in faultString.
    return fault_code == NONE_MARSHAL_MESSAGE


class OdooConnectionError(OdooError):
    """REQ-02-21: no usable answer from Odoo (network, proxy 5xx, 429, malformed body).

    ``request_sent`` is False only when the request provably never left (connection refused,
    connect timeout): only then is a retry safe for a call that changes data (``resend``).
    ``unconfirmed`` is the ``(model, method)`` of a call that changes data, may have been
    applied and was not sent again: the caller is told what to check.
    """

    def __init__(
        self,
        message: str,
        *,
        kind: str,
        request_sent: bool,
        http_status: int | None = None,
        protocol: str | None = None,
        unconfirmed: tuple[str, str] | None = None,
    ) -> None:
        super().__init__(message, protocol=protocol)
        self.kind = kind
        self.request_sent = request_sent
        self.http_status = http_status
        self.unconfirmed = unconfirmed


class OdooRateLimited(OdooConnectionError):
    """REQ-02-21: HTTP 429; ``retry_after`` is the server's Retry-After in seconds, if given."""

    def __init__(
        self,
        message: str,
        *,
        retry_after: float | None,
        protocol: str | None = None,
        unconfirmed: tuple[str, str] | None = None,
    ) -> None:
        # issue 37: Odoo itself never answers 429; the proxy in front of it that does may have
        # forwarded the request first, so a 429 proves nothing about what Odoo ran.
        super().__init__(
            message,
            kind="rate_limited",
            request_sent=True,
            http_status=429,
            protocol=protocol,
            unconfirmed=unconfirmed,
        )
        self.retry_after = retry_after


class OdooAuthenticationError(OdooError):
    """REQ-02-07: credentials refused; ``raw`` is the Odoo error when Odoo sent one."""

    def __init__(
        self, message: str, *, protocol: str | None = None, raw: OdooRpcError | None = None
    ) -> None:
        super().__init__(message, protocol=protocol)
        self.raw = raw


class OdooSessionExpired(OdooError):
    """REQ-02-22: the session or key stopped being accepted; re-authentication may cure it."""

    def __init__(
        self, message: str, *, protocol: str | None = None, raw: OdooRpcError | None = None
    ) -> None:
        super().__init__(message, protocol=protocol)
        self.raw = raw


class OdooConfigurationError(OdooError):
    """REQ-02-14: the configuration cannot work here (e.g. json2 forced on Odoo 16)."""


def endpoint_not_found(message: str, *, protocol: str) -> OdooConnectionError:
    """REQ-10-08: an RPC endpoint answering 404 (the protocol is not served, or a proxy
    misroutes): connection / ENDPOINT_NOT_FOUND, with a message saying which protocol."""
    return OdooConnectionError(
        message, kind="http_status", request_sent=True, http_status=404, protocol=protocol
    )


#: Odoo's own rule for model names (``odoo.models.check_object_name``); a model's table name
#: is a PostgreSQL identifier (63 bytes), so 128 characters leave room and bound the URL.
_MODEL_NAME = re.compile(r"[a-z0-9_.]{1,128}")
#: A Python identifier in ASCII: every model method Odoo can dispatch to (a 100,000-character
#: one made the JSON-2 URL too long for the HTTP client: a -32603 the fuzz bench found).
_METHOD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


def _shown(name: str) -> str:
    return repr(name if len(name) <= 80 else name[:80] + "...")


class OdooUnsendableCall(OdooError):
    """A call no Odoo can receive, refused before anything is sent: a model or method name
    Odoo cannot have, a value the protocol cannot carry.

    Already in SPEC-10 shape (``code``, ``category``, ``suggestion``, ``details``), so the
    classifier keeps its fields.
    """

    def __init__(
        self,
        code: str,
        message: str,
        suggestion: str,
        details: dict[str, str],
        *,
        category: str = "not_found",
        protocol: str | None = None,
    ) -> None:
        super().__init__(message, protocol=protocol)
        self.code = code
        self.category = category
        self.suggestion = suggestion
        self.details = details


def check_call_names(model: str, method: str) -> None:
    """REQ-11-07: only well-formed names reach the wire.

    JSON-2 puts both names in the URL path (``/json/2/<model>/<method>``): a name holding
    ``/`` or ``..`` would address another model than the one the safety checks saw, and a
    control character breaks the URL. Odoo accepts no such name anywhere, so the refusal
    is the same on every protocol.
    """
    if _MODEL_NAME.fullmatch(model) is None:
        raise OdooUnsendableCall(
            "MODEL_NOT_FOUND",
            f"{_shown(model)} is not an Odoo model name: model names are made of at most 128 "
            "lowercase letters, digits, '_' and '.'",
            "Use a technical model name such as 'res.partner'; odoo_core_list_models lists them.",
            {"model": model[:128]},
        )
    if _METHOD_NAME.fullmatch(method) is None:
        raise OdooUnsendableCall(
            "METHOD_NOT_FOUND",
            f"{_shown(method)} is not an Odoo method name: method names are Python identifiers "
            "(at most 128 letters, digits and '_')",
            "Check the method name, e.g. 'action_confirm'; odoo_core_execute calls public "
            "model methods.",
            {"model": model, "method": method[:128]},
        )
