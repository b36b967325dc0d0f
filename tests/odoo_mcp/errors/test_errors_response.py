"""SPEC-10 §3, §7, §9: response structure, rendering without tracebacks, MCP helpers."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from odoo_mcp.adapter.errors import (
    error_tool_result,
    internal_error,
    invalid_params_error,
    unknown_tool_error,
)
from odoo_mcp.connection.errors import OdooRpcError
from odoo_mcp.errors import ErrorCategory, ErrorResponse, ToolError, classify, to_json, to_payload

_FRAME = '  File "{path}", line {line}, in {func}\n    {code}\n'
_paths = st.sampled_from(
    ["/opt/odoo/odoo/models.py", "/usr/lib/python3/dist-packages/odoo/api.py", "C:\\odoo\\x.py"]
)
_frames = st.lists(
    st.builds(
        _FRAME.format,
        path=_paths,
        line=st.integers(1, 9999),
        func=st.from_regex(r"[a-z_]{1,12}", fullmatch=True),
        code=st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=30),
    ),
    min_size=1,
    max_size=5,
)
_classes = st.sampled_from(
    ["odoo.exceptions.ValidationError", "builtins.ValueError", "psycopg2.errors.UniqueViolation",
     "builtins.KeyError", "odoo.exceptions.UserError", "TypeError"]
)  # fmt: skip
#: Odoo's message text: anything but the two markers the property looks for
_messages = st.text(max_size=200).filter(lambda m: "Traceback" not in m and 'File "' not in m)


def _traceback(frames: list[str], cls: str, message: str) -> str:
    return "Traceback (most recent call last):\n" + "".join(frames) + f"{cls}: {message}"


@given(frames=_frames, cls=_classes, message=_messages, code=st.sampled_from([1, "legacy"]))
def test_xmlrpc_tracebacks_never_leak_into_the_response(
    frames: list[str], cls: str, message: str, code: int | str
) -> None:
    """REQ-10-13/14: fault strings with tracebacks render without frames or paths."""
    text = _traceback(frames, cls, message)
    fault_code = message if code == "legacy" else code
    rendered = to_json(classify(OdooRpcError.from_xmlrpc_fault(fault_code, text)))
    assert "Traceback" not in rendered and 'File "' not in rendered
    assert "/opt/odoo" not in rendered and "dist-packages" not in rendered


@given(frames=_frames, cls=_classes, message=_messages, chained=st.booleans())
def test_json_debug_tracebacks_never_leak_into_the_response(
    frames: list[str], cls: str, message: str, chained: bool
) -> None:
    """REQ-10-14: JSON-RPC data.debug, even chained, and a message quoting a traceback."""
    debug = _traceback(frames, cls, message)
    if chained:
        debug = (
            debug
            + "\n\nDuring handling of the above exception, another exception "
            + ("occurred:\n\n" + _traceback(frames, "builtins.RuntimeError", "again"))
        )
    data = {"name": cls, "message": f"{message}\n{debug}", "debug": debug}
    response = classify(OdooRpcError.from_jsonrpc_error({"code": 0, "data": data}))
    rendered = to_json(response)
    assert "Traceback" not in rendered and 'File "' not in rendered
    assert response.traceback == debug  # REQ-10-13: kept for the debug log only


def test_rendered_fields_follow_req_10_02() -> None:
    """REQ-10-02/03/04: required fields, optional details and original_error, no traceback."""
    error = OdooRpcError.from_jsonrpc_error(
        {"code": 0, "data": {"name": "odoo.exceptions.ValidationError",
                             "message": "Missing required fields: partner_id",
                             "debug": "Traceback (most recent call last):\n  File \"/x\", line 1"
                                      "\nodoo.exceptions.ValidationError: Missing required "
                                      "fields: partner_id"}}
    )  # fmt: skip
    payload = to_payload(classify(error, model="sale.order"))
    assert list(payload) == [
        "error", "category", "code", "message", "details", "suggestion", "retry",
        "original_error",
    ]  # fmt: skip
    assert payload["error"] is True
    assert payload["original_error"] == (
        "odoo.exceptions.ValidationError: Missing required fields: partner_id"
    )
    assert "traceback" not in payload


def test_the_model_refuses_a_false_error_flag_and_extra_fields() -> None:
    with pytest.raises(ValidationError):
        ErrorResponse.model_validate(
            {"error": False, "category": "validation", "code": "X", "message": "m",
             "suggestion": "s", "retry": True}
        )  # fmt: skip
    with pytest.raises(ValidationError):
        ErrorResponse.model_validate(
            {"category": "nope", "code": "X", "message": "m", "suggestion": "s", "retry": True}
        )


def test_server_paths_in_odoo_messages_are_scrubbed() -> None:
    error = OdooRpcError.from_jsonrpc_error(
        {"code": 0, "data": {"name": "psycopg2.OperationalError",
                             "message": 'connection to server on socket "/var/run/postgresql/'
                                        '.s.PGSQL.5432" failed: FATAL:  database "x" does not '
                                        "exist"}}
    )  # fmt: skip
    assert "/var/run" not in to_json(classify(error))


def test_urls_in_odoo_hints_are_kept() -> None:
    error = OdooRpcError.from_json2_error(
        {
            "name": "werkzeug.exceptions.NotFound",
            "message": "Did you mean POST /json/2/<model>/<method>?",
        },
        404,
    )
    assert "/json/2/<model>/<method>" in to_json(classify(error))


def test_tool_result_is_an_error_with_json_text_only() -> None:
    """REQ-10-17: tool result with isError true and the error object as JSON text; no
    structured content, which a client would check against the tool's outputSchema."""
    error = OdooRpcError.from_xmlrpc_fault(
        4, "You are not allowed to delete 'User' (res.users) records."
    )
    response, result = error_tool_result(error, model="res.users", method="unlink")
    assert result.is_error is True
    text = result.content[0]
    assert text.type == "text"
    assert result.structured_content is None
    assert json.loads(text.text)["code"] == response.code == "OPERATION_NOT_ALLOWED"


def test_tool_error_converts_to_the_same_response_shape() -> None:
    """REQ-10-03: the server's own refusals look like Odoo's."""
    exc = ToolError("INVALID_FIELD", "Unknown field 'x'", details={"model": "res.partner"})
    response = classify(exc)
    assert (response.category, response.code, response.retry) == (
        ErrorCategory.VALIDATION, "INVALID_FIELD", True,
    )  # fmt: skip
    assert "odoo_core_fields_get" in response.suggestion
    blocked = ToolError("MODEL_BLOCKED", "no", category=ErrorCategory.ACCESS).to_response()
    assert blocked.retry is False


class _DomainRefusal(Exception):
    """Shaped like odoo_mcp.domain.values.DomainError."""

    category = "validation"

    def __init__(self) -> None:
        super().__init__("bad")
        self.code, self.message, self.suggestion = "INVALID_DOMAIN", "bad operator", "use ="
        self.example = [["name", "=", "x"]]


class _RateRefusal(Exception):
    """Shaped like odoo_mcp.safety.RateLimitedError."""

    category, retry = "rate_limit", True

    def __init__(self) -> None:
        super().__init__("slow down")
        self.code, self.message, self.suggestion = "RATE_LIMITED", "slow down", "wait"
        self.details, self.retry_after = {"limit": "burst"}, 7


def test_spec_shaped_refusals_keep_their_fields() -> None:
    domain = classify(_DomainRefusal())
    assert (domain.code, domain.suggestion) == ("INVALID_DOMAIN", "use =")
    assert domain.details == {"example": [["name", "=", "x"]]}
    rate = classify(_RateRefusal())
    assert (rate.category, rate.retry, rate.retry_after) == (ErrorCategory.RATE_LIMIT, True, 7.0)


class _Args(BaseModel):
    model: str
    password: str


def test_mcp_errors_for_unknown_tools_bad_params_and_crashes() -> None:
    """REQ-10-16 / decision 13: -32601, -32602, -32603 carrying the SPEC-10 object."""
    unknown = unknown_tool_error("odoo_core_nope", ["odoo_core_read"])
    assert unknown.code == -32601 and unknown.data["code"] == "TOOL_NOT_FOUND"
    with pytest.raises(ValidationError) as caught:
        _Args.model_validate({"model": 3, "password": 4})
    bad = invalid_params_error("odoo_core_read", caught.value)
    assert bad.code == -32602 and bad.data["category"] == "validation"
    assert "4" not in json.dumps(bad.data["details"]["errors"])  # the input is never echoed
    crash = internal_error(RuntimeError("secret path /opt/odoo"))
    assert crash.code == -32603 and "secret" not in json.dumps(crash.data)


def test_the_model_named_by_odoo_s_message_wins_over_the_call_s() -> None:
    """REQ-10-06: writing sale.order with a missing partner is a MissingError on res.partner."""
    data = {
        "name": "odoo.exceptions.MissingError",
        "message": "Record does not exist or has been deleted.\n"
        "(Record: res.partner(999999,), User: 2)",
        "arguments": [],
        "debug": "",
    }
    error = OdooRpcError.from_jsonrpc_error({"code": 0, "data": data})
    payload = to_payload(classify(error, model="sale.order", method="write"))
    assert payload["category"] == "not_found"
    assert payload["details"]["model"] == "res.partner"
    assert "sale.order" not in payload["message"]
