"""Mutants that break a rule where no single scenario looks (issue 36, see registry.py).

Each rule the seeds state for every answer ("All tool responses MUST normalize", "Binary
fields MUST NOT be returned", "The `retry` field MUST be set according to", ...) is broken
here in a place other than the one its own scenarios read: another tool, a later page, one
protocol, a resource, the operator's own list. The kit's invariants (conformance/
odoo_mcp_conformance/invariants/) judge every answer, so each must be killed on exactly the
requirement of the rule, by the sweep scenarios alone (``select``). The matrix counts them
with the document of the requirement they kill.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from _sabotage import as_odoo_pair, patch_everywhere, post_resource, wrap_tool
from registry import mutant

Data = dict[str, Any]
Record = dict[str, Any]


def _sweep(row: str) -> str:
    """The one sweep row of normalization.feature a mutant runs on (``model-protocol``): a
    mutant's kit run is one server and one scenario, the suite's time is CI's."""
    return f"every_path and {row}"


_NORMALIZATION = ("normalization.feature",)
_SAFETY = ("safety_lists.feature",)


def _each_record(post: Callable[[Record], Record], key: str = "records") -> Callable[[Data], Data]:
    def apply(data: Data) -> Data:
        value = data.get(key)
        if isinstance(value, list):
            data[key] = [post(r) if isinstance(r, dict) else r for r in value]
        return data

    return apply


def _pairs(record: Record) -> Record:
    return {key: as_odoo_pair(value) for key, value in record.items()}


def _naive(record: Record) -> Record:
    """``2025-02-09T14:30:00Z`` back as Odoo's ``2025-02-09 14:30:00``."""
    return {
        key: value.replace("T", " ").removesuffix("Z")
        if isinstance(value, str) and len(value) == 20 and value.endswith("Z")
        else value
        for key, value in record.items()
    }


def _with_binary(name: str) -> Callable[[Record], Record]:
    def add(record: Record) -> Record:
        return {**record, name: "aGVsbG8="} if "id" in record else record

    return add


def _is_listing(uri: str) -> bool:
    return uri.startswith("odoo://record/") and uri.count("/") == 3


def _is_record(uri: str) -> bool:
    return uri.startswith("odoo://record/") and uri.count("/") == 4


def _record_resource(post: Callable[[Record], Record]) -> Callable[[Data], Data]:
    def apply(data: Data) -> Data:
        if isinstance(data.get("record"), dict):
            data["record"] = post(data["record"])
        return data

    return apply


def _execute_records(post: Callable[[Record], Record]) -> None:
    wrap_tool("odoo_core_execute", _each_record(post, key="result"))


# -- REQ-04-05: many2one objects, in three places beside search_read's first page ----------
_M2O = 'SPEC-04 §3.1: \'Many2one fields MUST be returned as objects {"id": 1, "name": ...}\''


@mutant(kills=["REQ-04-05"], seed=_M2O, select=_sweep("res.partner-json2"), features=_NORMALIZATION)
def execute_read_many2one_as_pair() -> None:
    """odoo_core_execute's read and search_read give many2one values as [id, name] pairs."""
    _execute_records(_pairs)


@mutant(kills=["REQ-04-05"], seed=_M2O, select=_sweep("res.partner-json2"), features=_NORMALIZATION)
def later_page_many2one_as_pair() -> None:
    """odoo_core_search_read gives [id, name] pairs on every page but the first."""
    pairs = _each_record(_pairs)
    wrap_tool("odoo_core_search_read", lambda d: pairs(d) if d.get("offset") else d)


@mutant(
    kills=["REQ-04-05"], seed=_M2O, select=_sweep("res.partner-xmlrpc"), features=_NORMALIZATION
)
def xmlrpc_read_many2one_as_pair() -> None:
    """odoo_core_read gives [id, name] pairs when the server talks to Odoo over XML-RPC."""
    if os.environ.get("ODOO_PROTOCOL") == "xmlrpc":
        wrap_tool("odoo_core_read", _each_record(_pairs))


@mutant(
    kills=["REQ-06-10"],
    seed="SPEC-06 §4.2: 'The response MUST use the same normalization as tool responses'",
    select=_sweep("sale.order-json2"),
    features=_NORMALIZATION,
)
def listing_many2one_as_pair() -> None:
    """A record listing (odoo://record/{model}?...) gives many2one values as pairs."""
    post_resource(_is_listing, _each_record(_pairs))


# -- REQ-04-37: datetimes with Z, in default_get, execute and the record resource --------------
_Z = "SPEC-04 §4: 'All datetime fields MUST be returned in ISO 8601 format ... append Z'"


@mutant(kills=["REQ-04-37"], seed=_Z, select=_sweep("sale.order-json2"), features=_NORMALIZATION)
def default_get_naive_datetime() -> None:
    """odoo_core_default_get gives datetimes as Odoo's naive 'YYYY-MM-DD HH:MM:SS'."""

    def post(data: Data) -> Data:
        if isinstance(data.get("defaults"), dict):
            data["defaults"] = _naive(data["defaults"])
        return data

    wrap_tool("odoo_core_default_get", post)


@mutant(kills=["REQ-04-37"], seed=_Z, select=_sweep("res.partner-json2"), features=_NORMALIZATION)
def execute_naive_datetime() -> None:
    """odoo_core_execute's read and search_read give naive datetimes."""
    _execute_records(_naive)


@mutant(
    kills=["REQ-06-10"],
    seed="SPEC-06 §4.2: 'The response MUST use the same normalization as tool responses'",
    select=_sweep("sale.order-json2"),
    features=_NORMALIZATION,
)
def record_resource_naive_datetime() -> None:
    """odoo://record/{model}/{id} gives naive datetimes."""
    post_resource(_is_record, _record_resource(_naive))


# -- REQ-04-36: binary fields only when named, in execute, read and the listing ----------------
_BINARY = "SPEC-04 §4: 'Binary fields (type `binary`) MUST NOT be returned in search_read or read results by default'"  # noqa: E501


@mutant(
    kills=["REQ-04-36"], seed=_BINARY, select=_sweep("res.partner-json2"), features=_NORMALIZATION
)
def execute_read_shows_binary() -> None:
    """odoo_core_execute's read and search_read return image_128 though nobody asked for it."""
    _execute_records(_with_binary("image_128"))


@mutant(
    kills=["REQ-04-36"], seed=_BINARY, select=_sweep("res.partner-json2"), features=_NORMALIZATION
)
def read_shows_avatar() -> None:
    """odoo_core_read returns avatar_128 with every record (another binary than image_1920)."""
    wrap_tool("odoo_core_read", _each_record(_with_binary("avatar_128")))


@mutant(
    kills=["REQ-06-10"],
    seed="SPEC-06 §4.2: 'Binary fields MUST be excluded.'",
    select=_sweep("res.partner-json2"),
    features=_NORMALIZATION,
)
def listing_shows_binary() -> None:
    """A record listing gives image_128 with every record."""
    post_resource(_is_listing, _each_record(_with_binary("image_128")))


# -- SPEC-11 REQ-11-14 / SPEC-06 REQ-06-22: blocked fields, on the operator's own list too ------
def _unscrubbed(channel: str) -> None:
    """The reference's second line (the answer scrub, safety/scrub.py) let through on one
    channel (``tool odoo_core_execute``, ``resource ...``): its first line is broken there."""
    import pydantic_core

    import odoo_mcp.safety.scrub as scrub

    original, original_json = scrub.scrub, scrub.scrub_to_json

    def lax(value: Any, blocked: Any, where: str, **kwargs: Any) -> Any:
        return value if where.startswith(channel) else original(value, blocked, where, **kwargs)

    def lax_json(value: Any, blocked: Any, where: str, **kwargs: Any) -> Any:
        if where.startswith(channel):
            return value, pydantic_core.to_json(value)
        return original_json(value, blocked, where, **kwargs)

    patch_everywhere(original, lax)
    patch_everywhere(original_json, lax_json)


def _configured_blocked(record: Record) -> Record:
    """The fields the operator blocked (ODOO_MCP_FIELD_BLOCKLIST) put back into a record."""
    names = os.environ.get("ODOO_MCP_FIELD_BLOCKLIST", "")
    blocked = [n.strip() for n in names.split(",") if n.strip()]
    return {**record, **{name: "leaked" for name in blocked}} if "id" in record else record


@mutant(
    kills=["REQ-11-14"],
    seed="SPEC-11 REQ-11-14: 'A blocked field must be ... dropped from search_read/read results'",
    select="configured_blocked_field and res.partner",
    features=_SAFETY,
)
def execute_shows_configured_blocked_fields() -> None:
    """odoo_core_execute's reads show the fields of the operator's field_blocklist."""
    _execute_records(_configured_blocked)
    _unscrubbed("tool odoo_core_execute")


@mutant(
    kills=["REQ-06-22"],
    seed="SPEC-06 §7: the safety configuration (blocked fields) applies to resources",
    select="configured_blocked_field and res.partner",
    features=_SAFETY,
)
def record_resource_shows_configured_blocked_fields() -> None:
    """odoo://record/{model}/{id} shows the fields of the operator's field_blocklist."""
    post_resource(_is_record, _record_resource(_configured_blocked))
    _unscrubbed("resource odoo://record/")


@mutant(
    kills=["REQ-11-14"],
    seed="SPEC-11 REQ-11-13: the default field blocklist (signature, ...) is always applied",
    select="builtin_blocked_fields_are_absent",
    features=_SAFETY,
)
def read_shows_builtin_signature() -> None:
    """odoo_core_read shows res.users' signature (a built-in blocked field)."""

    def post(data: Data) -> Data:
        if data.get("records") and "login" in data["records"][0]:
            data["records"] = [{**r, "signature": "-- Marc"} for r in data["records"]]
        return data

    wrap_tool("odoo_core_read", post)
    _unscrubbed("tool odoo_core_read")


# -- SPEC-10: the error object, its retry and no traceback, beyond tool results ---------------
_TRACE = 'Traceback (most recent call last):\n  File "/odoo/models.py", line 42, in read'


def _wrap_rpc_errors(factory_name: str, change: Callable[[Data], None]) -> None:
    """Change the SPEC-10 data (and message) of the JSON-RPC errors one factory of
    odoo_mcp.adapter.errors builds (``unknown_tool_error``: -32601; ``as_mcp_error``: every
    resource and prompt failure)."""
    import odoo_mcp.adapter.errors as errors

    original = getattr(errors, factory_name)

    def broken(*args: Any, **kwargs: Any) -> Any:
        error = original(*args, **kwargs)
        data = error.error.data
        if isinstance(data, dict):
            change(data)
            error.error.message = str(data.get("message", error.error.message))
        return error

    patch_everywhere(original, broken)


def _flip_retry(data: Data) -> None:
    data["retry"] = not data.get("retry")


def _add_traceback(data: Data) -> None:
    data["message"] = f"{data.get('message', '')}\n{_TRACE}"


@mutant(
    kills=["REQ-10-15"],
    seed="SPEC-10 §8: 'The `retry` field MUST be set according to' (not_found: true)",
    select="REQ-10-16",
    features=("errors.feature",),
)
def unknown_tool_retry_wrong() -> None:
    """The -32601 error of an unknown tool carries a retry its category (not_found) denies."""
    _wrap_rpc_errors("unknown_tool_error", _flip_retry)


@mutant(
    kills=["REQ-10-15"],
    seed="SPEC-10 §8: 'The `retry` field MUST be set according to' (access: false)",
    select="REQ-06-22 or REQ-06-23",
    features=("resources.feature",),
)
def resource_refusal_retry_wrong() -> None:
    """A resource read's refusal carries a retry its category denies."""
    _wrap_rpc_errors("as_mcp_error", _flip_retry)


@mutant(
    kills=["REQ-10-14"],
    seed="SPEC-10 §7: 'The server MUST NOT include full Python tracebacks in tool responses'",
    select="REQ-06-22 or REQ-06-23",
    features=("resources.feature",),
)
def resource_error_traceback() -> None:
    """A resource read's refusal carries a Python traceback in its message."""
    _wrap_rpc_errors("as_mcp_error", _add_traceback)


@mutant(
    kills=["REQ-10-14"],
    seed="SPEC-10 §7: 'The server MUST NOT include full Python tracebacks in tool responses'",
    select="REQ-10-16",
    features=("errors.feature",),
)
def unknown_tool_traceback() -> None:
    """The -32601 error of an unknown tool carries a Python traceback."""
    _wrap_rpc_errors("unknown_tool_error", _add_traceback)


@mutant(
    kills=["REQ-10-03"],
    seed="SPEC-10 §3: 'Required fields in every error response: ... `suggestion`'",
    select="REQ-06-22 or REQ-06-23",
    features=("resources.feature",),
)
def resource_error_without_suggestion() -> None:
    """A resource read's refusal carries the SPEC-10 object without its suggestion."""
    _wrap_rpc_errors("as_mcp_error", lambda data: data.pop("suggestion", None))


# -- REQ-04-04 / REQ-04-03: the envelope on a later page ---------------------------------------
@mutant(
    kills=["REQ-04-04"],
    seed="SPEC-04 §3.1: 'The `has_more` field MUST be `true` if the number of returned records "
    "equals the limit'",
    select=_sweep("res.partner-json2"),
    features=_NORMALIZATION,
)
def later_page_has_more_false() -> None:
    """odoo_core_search_read says has_more false on every page but the first."""

    def post(data: Data) -> Data:
        return {**data, "has_more": False} if data.get("offset") else data

    wrap_tool("odoo_core_search_read", post)


@mutant(
    kills=["REQ-04-03"],
    seed="SPEC-04 §3.1: the envelope's `offset` (the records skipped, as asked)",
    select=_sweep("res.partner-json2"),
    features=_NORMALIZATION,
)
def later_page_offset_zero() -> None:
    """odoo_core_search_read reports offset 0 whatever offset was asked."""
    wrap_tool("odoo_core_search_read", lambda data: {**data, "offset": 0})


# -- each check judges its own requirement: no cascade (issue 36, item 4) ----------------------
@mutant(
    kills=["REQ-10-17"],
    seed="SPEC-10 §9: 'the server MUST return them as tool results with `isError: true`'",
    select="REQ-04-02 or REQ-04-13 or REQ-10-03 or REQ-10-14 or REQ-10-17",
    features=("tools_read.feature", "tools_write.feature", "errors.feature"),
)
def errors_without_is_error() -> None:
    """Every error comes as a plain result holding the SPEC-10 object, without isError (the
    refusals' requirements, REQ-04-02, 04-13, 10-03 and 10-14, must not fail with it)."""
    import odoo_mcp.adapter.errors as errors

    original = errors.to_tool_result

    def plain(response: Any) -> Any:
        result = original(response)
        return result.model_copy(update={"is_error": False})

    patch_everywhere(original, plain)


@mutant(
    kills=["REQ-04-10"],
    seed='SPEC-04 §3.3: \'On success, return: {"id": 42, "model": ..., "message": ...}\'',
    select="REQ-04-09 or REQ-04-10 or REQ-04-13",
    features=("tools_write.feature",),
)
def create_answers_without_id() -> None:
    """odoo_core_create answers without the new record's id (the scenarios that go on with
    that id, REQ-04-09's and REQ-04-13's, are blocked by REQ-04-10, not failed)."""

    wrap_tool("odoo_core_create", lambda data: {**data, "id": None})


# -- REQ-04-35 / REQ-06-10: HTML stripped, beyond the read tools --------------------------------
_HTML_FIELDS = ("comment", "description", "note")


def _html_back(record: Record) -> Record:
    """HTML fields' text wrapped in the paragraph tag Odoo's editor stores."""
    return {
        key: f"<p>{value}</p>"
        if key in _HTML_FIELDS and isinstance(value, str) and value
        else value
        for key, value in record.items()
    }


@mutant(
    kills=["REQ-04-35"],
    seed="SPEC-04 §4: 'HTML content in text fields | Stripped to plain text (configurable, "
    "default: strip)'",
    select=_sweep("res.partner-json2"),
    features=_NORMALIZATION,
)
def execute_keeps_html() -> None:
    """odoo_core_execute's read and search_read give HTML fields with their tags."""
    _execute_records(_html_back)


# -- SPEC-11 REQ-11-07: the operator's model blocklist, on execute too --------------------------
@mutant(
    kills=["REQ-11-07"],
    seed="SPEC-11 REQ-11-07: 'Models in model_blocklist are never reachable, whatever else is "
    "configured'",
    select="configured_blocked_model",
    features=_SAFETY,
)
def execute_ignores_configured_model_blocklist() -> None:
    """odoo_core_execute runs methods on the models of the operator's model_blocklist (the
    built-in blocklist still holds)."""
    from odoo_mcp.safety import policy
    from odoo_mcp.safety.modes import enforce_mode, operation_of_method

    configured = {
        name.strip() for name in os.environ.get("ODOO_MCP_MODEL_BLOCKLIST", "").split(",")
    }
    original = policy.SafetyPolicy.check_execute

    def lax(self: Any, model: str, method: str) -> None:
        if model not in configured:
            original(self, model, method)
            return
        self.methods.check(method)
        enforce_mode(self.mode, operation_of_method(method), model, self.write_allowlist)

    policy.SafetyPolicy.check_execute = lax  # type: ignore[method-assign]


# -- REQ-04-35: Odoo's false, beyond the read tools ---------------------------------------------
def _false_back(record: Record) -> Record:
    """Empty values ("" and null) back as Odoo's false."""
    return {key: False if value in ("", None) else value for key, value in record.items()}


@mutant(
    kills=["REQ-04-35"],
    seed="SPEC-04 §4: '`False` (empty string field) | `\"\"`' and '`False` (empty Many2one) | "
    "`null`'",
    select=_sweep("res.partner-json2"),
    features=_NORMALIZATION,
)
def execute_keeps_false() -> None:
    """odoo_core_execute's read and search_read give empty values as Odoo's false."""
    _execute_records(_false_back)


@mutant(
    kills=["REQ-04-35"],
    seed="SPEC-04 §4: 'HTML content in text fields | Stripped to plain text'",
    select=_sweep("res.partner-json2"),
    features=_NORMALIZATION,
)
def later_page_keeps_html() -> None:
    """odoo_core_search_read gives HTML fields with their tags on every page but the first."""
    tagged = _each_record(_html_back)
    wrap_tool("odoo_core_search_read", lambda d: tagged(d) if d.get("offset") else d)


@mutant(
    kills=["REQ-06-10"],
    seed="SPEC-06 §4.2: 'The response MUST use the same normalization as tool responses'",
    select=_sweep("res.partner-json2"),
    features=_NORMALIZATION,
)
def listing_keeps_false() -> None:
    """A record listing gives empty values as Odoo's false."""
    post_resource(_is_listing, _each_record(_false_back))


# -- SPEC-11 REQ-11-08: the built-in model blocklist, on execute too ----------------------------
@mutant(
    kills=["REQ-11-08"],
    seed="SPEC-11 REQ-11-08: 'A default model blocklist is always applied on top of the user's'",
    select="builtin_blocked_model",
    features=_SAFETY,
)
def execute_ignores_builtin_model_blocklist() -> None:
    """odoo_core_execute runs methods on the built-in blocklist's models (ir.cron, ...)."""
    from odoo_mcp.safety import policy
    from odoo_mcp.safety.modes import enforce_mode, operation_of_method

    builtin = {"ir.config_parameter", "ir.cron", "ir.model.access", "ir.mail_server",
               "payment.provider", "base.automation", "ir.rule", "fetchmail.server"}  # fmt: skip
    original = policy.SafetyPolicy.check_execute

    def lax(self: Any, model: str, method: str) -> None:
        if model not in builtin:
            original(self, model, method)
            return
        self.methods.check(method)
        enforce_mode(self.mode, operation_of_method(method), model, self.write_allowlist)

    policy.SafetyPolicy.check_execute = lax  # type: ignore[method-assign]


# -- REQ-10-03: the required keys, on the JSON-RPC errors too -----------------------------------
@mutant(
    kills=["REQ-10-03"],
    seed="SPEC-10 §3: 'Required fields in every error response: ... `suggestion`'",
    select="REQ-10-16",
    features=("errors.feature",),
)
def unknown_tool_without_suggestion() -> None:
    """The -32601 error of an unknown tool carries the SPEC-10 object without its suggestion."""
    _wrap_rpc_errors("unknown_tool_error", lambda data: data.pop("suggestion", None))
