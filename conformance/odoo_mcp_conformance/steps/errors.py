"""Steps of the error features: the server's log lines and the error response's shape."""

from __future__ import annotations

import json
import time

from pytest_bdd import parsers, then

from odoo_mcp_conformance.world import World

#: REQ-10-02: the keys an error response may carry
ERROR_KEYS = frozenset(
    {"error", "category", "code", "message", "details", "suggestion", "retry", "retry_after",
     "original_error"}
)  # fmt: skip
CATEGORIES = frozenset(
    {"validation", "access", "not_found", "constraint", "state", "wizard", "connection",
     "rate_limit", "configuration", "unknown"}
)  # fmt: skip


@then("the error response has the SPEC-10 structure")
def _structure(world: World) -> None:
    outcome = world.last()
    assert outcome.is_error, f"expected an error result: {outcome.text[:300]}"
    data = json.loads(outcome.text)  # the text content itself is the JSON object
    assert isinstance(data, dict), data
    missing = {"error", "category", "code", "message", "suggestion", "retry"} - set(data)
    assert not missing, f"the error lacks {sorted(missing)}"
    assert data["error"] is True and isinstance(data["retry"], bool)
    assert data["category"] in CATEGORIES, data["category"]
    assert isinstance(data["code"], str) and data["code"].isupper(), data["code"]
    assert isinstance(data["message"], str) and data["message"].strip()
    assert isinstance(data["suggestion"], str) and data["suggestion"].strip()
    assert set(data) <= ERROR_KEYS, f"unexpected keys {sorted(set(data) - ERROR_KEYS)}"
    if "details" in data and data["details"] is not None:
        assert isinstance(data["details"], dict)
    if "original_error" in data and data["original_error"] is not None:
        assert isinstance(data["original_error"], str)


@then("the error carries no traceback")
def _no_traceback(world: World) -> None:
    outcome = world.last()
    text = outcome.text if outcome.error is None else outcome.error.message
    for marker in ("Traceback (most recent call last)", 'File "', "line ", "\n  "):
        assert marker not in text, f"{marker!r} in the response: {text[:600]}"


@then(parsers.parse('the server log has a {level} line with "{first}" and "{second}"'))
def _log_line(world: World, level: str, first: str, second: str) -> None:
    driver = world.server()
    deadline = time.monotonic() + 3.0
    while True:
        lines = [
            line
            for line in driver.stderr().splitlines()
            if level.upper() in line and first in line and second in line
        ]
        if lines or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert lines, f"no {level} line with {first!r} and {second!r} in:\n{driver.stderr()[-2000:]}"


@then(parsers.parse('the server log does not contain "{text}"'))
def _log_lacks(world: World, text: str) -> None:
    time.sleep(0.2)  # let the child flush
    log = world.server().stderr()
    assert text not in log, f"{text!r} appears in the server log"
