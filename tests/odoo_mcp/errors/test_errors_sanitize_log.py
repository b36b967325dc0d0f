"""SPEC-10 §10: log levels per category and sanitized arguments (REQ-10-18/19)."""

from __future__ import annotations

import base64
import json
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from odoo_mcp.connection.errors import OdooRpcError
from odoo_mcp.errors import ErrorCategory, ToolError, classify, log_error, sanitize_args
from odoo_mcp.errors.log import log_level

SECRET_KEYS = [
    "password", "new_password", "api_key", "apikey", "token", "access_token",
    "client_secret", "Authorization", "session_id", "totp_secret", "private_key",
]  # fmt: skip
_secret = st.text(min_size=1, max_size=20).map(lambda s: f"S3CR3T-{s}")
_plain = st.one_of(st.integers(), st.booleans(), st.none(), st.sampled_from(["acme", "draft"]))


def _tree(secrets: st.SearchStrategy[str]) -> st.SearchStrategy[object]:
    leaf = st.one_of(_plain, st.fixed_dictionaries({}, optional={k: secrets for k in SECRET_KEYS}))
    return st.recursive(
        leaf,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(
                st.sampled_from(["vals", "name", "args", *SECRET_KEYS]), children, max_size=3
            ),
        ),
        max_leaves=12,
    )


@given(tree=_tree(_secret))
def test_sanitized_arguments_never_contain_a_secret(tree: object) -> None:
    """REQ-10-19: whatever the nesting, no value under a secret-looking key survives."""
    assert "S3CR3T-" not in json.dumps(sanitize_args(tree))


def test_binary_contents_become_a_size() -> None:
    blob = base64.b64encode(b"\x89PNG" + bytes(300)).decode()
    clean = sanitize_args({"datas": blob, "image_1920": blob, "raw": b"abc", "name": "doc.png"})
    assert clean == {
        "datas": "<binary 304 bytes>",
        "image_1920": "<binary 304 bytes>",
        "raw": "<binary 3 bytes>",
        "name": "doc.png",
    }


def test_bearer_tokens_inside_strings_are_masked() -> None:
    assert sanitize_args(["Bearer abc.def"]) == ["Bearer ***"]


@pytest.mark.parametrize(
    ("category", "level"),
    [("validation", logging.WARNING), ("state", logging.WARNING), ("not_found", logging.WARNING),
     ("access", logging.ERROR), ("connection", logging.ERROR), ("unknown", logging.ERROR)],
)  # fmt: skip
def test_log_level_follows_the_category(category: str, level: int) -> None:
    """REQ-10-18."""
    assert log_level(ErrorCategory(category)) == level


def test_a_failed_call_is_logged_with_context_and_a_debug_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """REQ-10-18/19: level by category, model/method/code, sanitized args, debug traceback."""
    error = OdooRpcError.from_xmlrpc_fault(
        1, "Traceback (most recent call last):\n  File \"/opt/odoo/x.py\", line 1, in f\n"
        "ValueError: invalid literal for int() with base 10: 'abc'"
    )  # fmt: skip
    response = classify(error, model="res.users", method="write")
    caplog.set_level(logging.DEBUG, logger="odoo_mcp.errors")
    log_error(response, model="res.users", method="write",
              args=[[7], {"password": "hunter2", "color": "abc"}])  # fmt: skip
    main, debug = caplog.records
    assert main.levelno == logging.WARNING
    assert "res.users.write" in main.getMessage() and "INVALID_INTEGER" in main.getMessage()
    assert main.odoo_error["args"] == [[7], {"password": "***", "color": "abc"}]  # type: ignore[attr-defined]
    assert debug.levelno == logging.DEBUG and "Traceback" in debug.getMessage()
    assert "hunter2" not in caplog.text


def test_access_errors_log_at_error_level(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="odoo_mcp.errors")
    log_error(ToolError("MODEL_BLOCKED", "blocked", category=ErrorCategory.ACCESS).to_response())
    assert [r.levelno for r in caplog.records] == [logging.ERROR]
