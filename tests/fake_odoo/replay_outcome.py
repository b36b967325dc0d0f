"""The normalised outcome of one request, real (from a capture) or replayed (from the fake).

``Outcome`` keeps what must match between real Odoo 19 and the fake: HTTP status, kind
(result, XML-RPC fault, JSON-RPC / JSON-2 error, bare HTTP error page), fault or error code,
error class (``data.name``, JSON-2 ``name``, or the class on the last line of a code-1
traceback), message, content type, ``WWW-Authenticate``; and the result itself, compared by
``compare``: exactly when it does not depend on the data (versions, db list, uids, booleans
and None returned by actions, access checks, context_get), otherwise by shape (same keys,
same JSON types, empty vs non-empty at the top; Odoo's ``False`` for "no value" matches any
non-null value), and ``fields_get`` attribute by attribute on the fields both servers know.
"""

from __future__ import annotations

import contextlib
import html
import re
from dataclasses import dataclass, field
from typing import Any

import httpx2

TRACEBACK = "Traceback (most recent call last):"
DETERMINISTIC_METHODS = frozenset({"context_get", "check_access_rights", "has_access"})
COMPARED_FIELDS = (
    "status",
    "kind",
    "code",
    "error_class",
    "message",
    "content_type",
    "www_authenticate",
)
ENVIRONMENT_SELECTIONS = frozenset({"lang", "tz"})
_NUMBER = re.compile(r"\d+")


def final_exception(text: str) -> str:
    """The last exception of a traceback, from its ``Type: msg`` line to the end."""
    if TRACEBACK not in text:
        return text.strip("\n")
    out: list[str] = []
    for line in text[text.rfind(TRACEBACK) + len(TRACEBACK) :].split("\n"):
        if not out and (not line.strip() or line.startswith(" ")):
            continue  # a frame or its source line
        out.append(line)
    return "\n".join(out).rstrip("\n")


def split_exception(line: str) -> tuple[str | None, str]:
    """``"ValueError: msg"`` -> ("ValueError", "msg")."""
    head, sep, rest = line.partition(": ")
    if sep and re.fullmatch(r"[A-Za-z_][\w.]*", head):
        return head, rest
    return None, line


def html_error(text: str) -> tuple[str | None, str | None]:
    """(title, first paragraph up to a <br>) of werkzeug's HTML error page."""
    title = re.search(r"<title>(.*?)</title>", text, re.S)
    para = re.search(r"<p>(.*?)(?:<br>|</p>|$)", text, re.S)
    return (
        html.unescape(title.group(1)).strip() if title else None,
        html.unescape(para.group(1)).strip() if para else None,
    )


def call_of(step: dict[str, Any]) -> str:
    """ "model.method" (or the service method) a step calls."""
    transport = step["transport"]
    if transport == "xmlrpc":
        params = step.get("params") or []
        if step["method"] == "execute_kw" and len(params) > 4:
            return f"{params[3]}.{params[4]}"
        return f"{step['endpoint'].rsplit('/', 1)[-1]}.{step['method']}"
    if transport == "jsonrpc":
        params = step["request"].get("params", {})
        args = params.get("args", [])
        if params.get("method") == "execute_kw" and len(args) > 4:
            return f"{args[3]}.{args[4]}"
        return f"{params.get('service')}.{params.get('method')}"
    if transport == "json2":
        return ".".join(step["endpoint"].split("/")[3:5])
    return f"{step.get('http_method', 'GET')} {step['endpoint']}"


def _deterministic(step: dict[str, Any], result: Any) -> bool:
    call = call_of(step)
    service = call.split(".", 1)[0]
    if step["transport"] in ("http", "jsonrpc-web") or service in ("common", "db"):
        return True
    if call.rsplit(".", 1)[-1] in DETERMINISTIC_METHODS:
        return True
    if step["transport"] == "jsonrpc" and isinstance(result, dict):
        result = result.get("result")
    return result is None or isinstance(result, bool)


def _requested_fields(step: dict[str, Any]) -> tuple[str, ...]:
    """The ``allfields`` a fields_get step names (positional or keyword), if any."""
    if step["transport"] == "xmlrpc":
        params = step.get("params") or []
        args, kwargs = (params[5:6] or [[]])[0], (params[6:7] or [{}])[0]
    elif step["transport"] == "jsonrpc":
        all_args = step["request"].get("params", {}).get("args", [])
        args, kwargs = (all_args[5:6] or [[]])[0], (all_args[6:7] or [{}])[0]
    else:
        args, kwargs = [], step.get("request_body") or {}
    names = args[0] if args else kwargs.get("allfields") if isinstance(kwargs, dict) else None
    return tuple(names) if isinstance(names, list) else ()


def _norm_header(value: str | None) -> str | None:
    return " ".join(value.lower().split()) if value else None


@dataclass(frozen=True)
class Outcome:
    status: int
    kind: str  # "result" | "fault" | "error" | "http"
    code: int | str | None = None
    error_class: str | None = None
    message: str | None = None
    content_type: str | None = None
    www_authenticate: str | None = None
    result: Any = field(default=None, compare=False)
    call: str = field(default="", compare=False)
    deterministic: bool = field(default=False, compare=False)
    requested_fields: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_xmlrpc_fault(cls, code: Any, string: str, transport: Any = None) -> Outcome:
        """Odoo's faults: int codes 1-4 on /xmlrpc/2, string codes on the legacy /xmlrpc."""
        error_class: str | None = None
        message = string
        if isinstance(code, str) and code.startswith("warning -- "):
            error_class, _, message = code[len("warning -- ") :].partition("\n\n")
        elif code == "AccessDenied":
            error_class = code
        elif code == 1 or isinstance(code, str):
            # code 1, or a legacy fault whose code is the message: the string is a traceback
            error_class, message = split_exception(final_exception(string))
        content_type = getattr(transport, "content_type", None)
        return cls(
            status=200,
            kind="fault",
            code=code,
            error_class=error_class,
            message=message,
            content_type=_norm_header(content_type),
        )

    @classmethod
    def from_result(
        cls, status: int, result: Any, step: dict[str, Any], content_type: str | None
    ) -> Outcome:
        return cls(
            status=status,
            kind="result",
            content_type=_norm_header(content_type),
            result=result,
            call=call_of(step),
            deterministic=_deterministic(step, result),
            requested_fields=_requested_fields(step),
        )

    @classmethod
    def from_body(
        cls,
        status: int,
        body: Any,
        step: dict[str, Any],
        content_type: str | None,
        www_authenticate: str | None,
    ) -> Outcome:
        common: dict[str, Any] = {
            "status": status,
            "content_type": _norm_header(content_type),
            "www_authenticate": _norm_header(www_authenticate),
        }
        if isinstance(body, dict) and isinstance(body.get("error"), dict):  # JSON-RPC
            error = body["error"]
            data = error.get("data") or {}
            return cls(
                kind="error",
                code=f"{error.get('code')} {error.get('message')}",
                error_class=data.get("name"),
                message=data.get("message"),
                **common,
            )
        if step["transport"] == "json2" and status != 200 and isinstance(body, dict):
            return cls(
                kind="error", error_class=body.get("name"), message=body.get("message"), **common
            )
        if isinstance(body, str) and status >= 400:
            title, message = html_error(body)
            return cls(kind="http", error_class=title, message=message, **common)
        return cls(
            kind="result",
            result=body,
            call=call_of(step),
            deterministic=_deterministic(step, body),
            requested_fields=_requested_fields(step),
            **common,
        )

    @classmethod
    def from_http(cls, response: httpx2.Response, step: dict[str, Any]) -> Outcome:
        content_type = response.headers.get("content-type")
        body: Any = response.text
        if content_type and "json" in content_type:
            with contextlib.suppress(ValueError):
                body = response.json()
        return cls.from_body(
            response.status_code, body, step, content_type, response.headers.get("www-authenticate")
        )


def expected_outcome(step: dict[str, Any]) -> Outcome:
    """The outcome real Odoo gave, from a trimmed capture step."""
    headers = {k.lower(): v for k, v in (step.get("response_headers") or {}).items()}
    content_type = step.get("content_type") or headers.get("content-type")
    if step["transport"] == "xmlrpc":
        if "fault" in step:
            fault = step["fault"]
            outcome = Outcome.from_xmlrpc_fault(fault["faultCode"], fault["faultString"])
            return Outcome(**{**outcome.__dict__, "content_type": _norm_header(content_type)})
        return Outcome.from_result(step["http_status"], step.get("result"), step, content_type)
    body = step["response"] if "response" in step else step.get("raw_body")
    return Outcome.from_body(
        step["http_status"], body, step, content_type, headers.get("www-authenticate")
    )


# -- comparison ---------------------------------------------------------------------------------
def mask(text: Any) -> Any:
    """Record ids and sequence numbers masked (messages of flows embed them)."""
    return _NUMBER.sub("<n>", text) if isinstance(text, str) else text


def compare(expected: Outcome, got: Outcome, *, mask_ids: bool = False) -> list[str]:
    """Every difference between the real outcome and the fake's, one line each."""
    diffs: list[str] = []
    for name in COMPARED_FIELDS:
        want, have = getattr(expected, name), getattr(got, name)
        if mask_ids and name in ("code", "message"):
            want, have = mask(want), mask(have)
        if name == "content_type" and want is None:
            continue  # two batch-1 captures kept only the body, not the headers
        if want != have:
            diffs.append(f"{name}: expected {want!r}, got {have!r}")
    if diffs or expected.kind != "result":
        return diffs
    if expected.call.endswith(".fields_get"):
        result = expected.result
        if isinstance(result, dict) and "result" in result and "jsonrpc" in result:
            result, have = result.get("result"), (got.result or {}).get("result")
        else:
            have = got.result
        return fields_get_diff(result, have, expected.requested_fields)
    if expected.deterministic:
        if expected.result != got.result:
            return [f"result: expected {expected.result!r}, got {got.result!r}"]
        return []
    return shape_diff(expected.result, got.result, "$")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    return {int: "int", float: "float", str: "str", list: "list", dict: "dict"}.get(
        type(value), type(value).__name__
    )


def shape_diff(expected: Any, got: Any, path: str, limit: int = 12) -> list[str]:
    """Differences of shape: keys, JSON types, emptiness of top-level lists."""
    diffs: list[str] = []

    def walk(want: Any, have: Any, where: str) -> None:
        if len(diffs) >= limit:
            return
        if (want is False and have is not None) or (have is False and want is not None):
            return  # Odoo's False for "no value": data, not shape
        kind_want, kind_have = _kind(want), _kind(have)
        if kind_want != kind_have:
            diffs.append(
                f"{where}: expected {kind_want} {_short(want)}, got {kind_have} {_short(have)}"
            )
        elif isinstance(want, dict):
            missing = sorted(set(want) - set(have))
            extra = sorted(set(have) - set(want))
            if missing or extra:
                diffs.append(f"{where}: keys missing {missing}, unexpected {extra}")
            for key in want:
                if key in have:
                    walk(want[key], have[key], f"{where}.{key}")
        elif isinstance(want, list):
            if where in ("$", "$.result") and (not want) != (not have):
                diffs.append(f"{where}: expected {_short(want)}, got {_short(have)}")
            for index, (w, h) in enumerate(zip(want, have, strict=False)):
                walk(w, h, f"{where}[{index}]")

    walk(expected, got, path)
    return diffs


def fields_get_diff(expected: Any, got: Any, requested: tuple[str, ...] = ()) -> list[str]:
    """fields_get: the attributes of every field both servers have, value by value.

    Without ``allfields`` the fake may model fewer fields than Odoo (a subset by design);
    the fields a request names must all be there.
    """
    if not isinstance(expected, dict) or not isinstance(got, dict):
        return shape_diff(expected, got, "$")
    common = [name for name in expected if name in got]
    if not common:
        return [f"$: no field in common (expected {sorted(expected)[:8]}…, got {sorted(got)[:8]})"]
    diffs: list[str] = []
    missing = [name for name in expected if name in requested and name not in got]
    if missing:
        diffs.append(f"$: requested fields missing {missing}")
    no_help: list[str] = []
    for name in common:
        want, have = expected[name], got[name]
        if not isinstance(want, dict) or not isinstance(have, dict):
            diffs.append(f"$.{name}: expected {_short(want)}, got {_short(have)}")
            continue
        for attr in sorted(set(want) | set(have)):
            if attr == "help" and attr in want and attr in have:
                continue  # Odoo's help texts are prose; presence is what clients rely on
            if attr == "help" and attr in want:
                no_help.append(name)
            elif attr == "selection" and name in ENVIRONMENT_SELECTIONS:
                continue  # installed languages, the server's tz database: environment data
            elif want.get(attr, "<absent>") != have.get(attr, "<absent>"):
                diffs.append(
                    f"$.{name}.{attr}: expected {_short(want.get(attr, '<absent>'))}, "
                    f"got {_short(have.get(attr, '<absent>'))}"
                )
    if no_help:
        diffs.append(f"$: 'help' missing on {len(no_help)} field(s): {_short(no_help, 160)}")
    return diffs


def _short(value: Any, size: int = 90) -> str:
    text = repr(value)
    return text if len(text) <= size else text[: size - 1] + "…"
