"""Steps of the error features (SPEC-10, L2/10a): the error object, retry guidance, the
server's log lines, and credentials Odoo stops accepting."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from pytest_bdd import given, parsers

from odoo_mcp_conformance.checks import check, shown
from odoo_mcp_conformance.steps.common import spec10_object, tool_error_body
from odoo_mcp_conformance.world import World

#: REQ-10-03: the keys every error response carries
REQUIRED_KEYS = frozenset({"error", "category", "code", "message", "suggestion", "retry"})
#: REQ-10-01: the ten categories
CATEGORIES = frozenset(
    {"validation", "access", "not_found", "constraint", "state", "wizard", "connection",
     "rate_limit", "configuration", "unknown"}
)  # fmt: skip
#: REQ-10-14: what a Python traceback leaves in text (header, frame lines, caret lines)
TRACEBACK_MARKS = (
    re.compile(r"Traceback \(most recent call last\)"),
    re.compile(r'File "[^"\n]+", line \d+'),
    re.compile(r"^\s+\^{3,}\s*$", re.MULTILINE),
    re.compile(r"During handling of the above exception"),
)


def error_data(world: World) -> dict[str, Any]:
    """The JSON object of the last answer, which must be an ``isError`` tool result.

    Issue 36: a SPEC-10 object that came without the flag (as a JSON-RPC error's data, or a
    result without ``isError``) fails REQ-10-17 alone (``tool_error_body``) and is read all
    the same: what it says is judged on the scenario's own requirements.
    """
    outcome = world.last()
    carried = outcome.error.data if outcome.error is not None else outcome.structured
    if not outcome.is_error and spec10_object(carried) is not None:
        data = tool_error_body(world)
        if data is not None:
            return data
    assert outcome.error is None, (
        f"expected a tool result with isError true, got JSON-RPC error {outcome.error}"
    )
    assert outcome.is_error, f"expected isError true, got a result: {outcome.text[:300]}"
    try:
        data = json.loads(outcome.text)  # REQ-10-17: the text content is the JSON object
    except ValueError as exc:
        raise AssertionError(f"the error text is not JSON: {outcome.text[:300]!r}") from exc
    assert isinstance(data, dict), f"the error is not a JSON object: {data!r}"
    return data


@check(parsers.parse("the error response has the SPEC-10 structure"))
def _structure(world: World) -> None:
    """REQ-10-02/03/04 (REQ-10-01: the category is one of the ten; REQ-10-17: a tool result)."""
    data = error_data(world)
    missing = REQUIRED_KEYS - set(data)
    assert not missing, f"the error lacks {sorted(missing)}: {data}"
    assert data["error"] is True, f"error is {data['error']!r}, not true"
    assert isinstance(data["retry"], bool), f"retry is {data['retry']!r}, not a boolean"
    assert data["category"] in CATEGORIES, f"category {data['category']!r} is not one of ten"
    code = data["code"]
    assert isinstance(code, str) and re.fullmatch(r"[A-Z][A-Z0-9_]*", code), f"code {code!r}"
    for key in ("message", "suggestion"):
        assert isinstance(data[key], str) and data[key].strip(), f"{key} is empty: {data}"
    structured = world.last().structured
    assert structured == data, "the structured content differs from the JSON text"


#: REQ-10-02: the keys of the seed's example error object


@check(parsers.parse("the error response has every key of the seed's example"))
def _example_shape(world: World) -> None:
    """REQ-10-02: one JSON object shaped like the seed's example: every key REQ-10-03
    requires, ``retry`` a boolean, and ``details`` (an object) and ``original_error`` (a
    string) where given: REQ-10-04 makes those two optional, so their absence passes
    (issue 27: a server leaving ``details`` out failed REQ-10-02/03/04). It forbids no extra
    key (REQ-04-11's own example adds a top-level "field")."""
    data = error_data(world)
    missing = REQUIRED_KEYS - set(data)
    assert not missing, f"the error lacks {sorted(missing)} of the seed's example: {shown(data)}"
    assert isinstance(data["retry"], bool), f"retry is {shown(data['retry'])}, not a boolean"
    if data.get("details") is not None:
        assert isinstance(data["details"], dict), (
            f"details is {shown(data['details'])}, not an object as in the seed's example"
        )
    if data.get("original_error") is not None:
        assert isinstance(data["original_error"], str), (
            f"original_error is {shown(data['original_error'])}, not a string"
        )


@check(parsers.parse("the error's details and original_error are what the seed says"))
def _optional_fields(world: World) -> None:
    """REQ-10-04: details, when given, is an object; original_error, when given, a string."""
    data = error_data(world)
    if data.get("details") is not None:
        assert isinstance(data["details"], dict), f"details is not an object: {data['details']!r}"
    if data.get("original_error") is not None:
        original = data["original_error"]
        assert isinstance(original, str), f"original_error is not a string: {original!r}"


@check(parsers.parse('the error\'s original_error, when given, names "{text}"'))
def _original_names(world: World, text: str) -> None:
    """REQ-10-04: original_error is "the raw Odoo error string": it carries Odoo's words."""
    original = error_data(world).get("original_error")
    if original is not None:
        assert isinstance(original, str) and text in original, (
            f"original_error {original!r} is not Odoo's error (it does not name {text!r})"
        )


@check(parsers.parse('the suggestion names every value of the "{field}" selection of "{model}"'))
def _suggestion_values(world: World, field: str, model: str) -> None:
    """REQ-10-09: "Invalid value for selection field X": "Valid values for 'X' are:
    {selection_values}"."""
    suggestion = error_data(world).get("suggestion")
    assert isinstance(suggestion, str), f"suggestion is {suggestion!r}"
    found = world.control.call(model, "fields_get", [field], attributes=["selection"])
    assert isinstance(found, dict) and found.get(field, {}).get("selection"), (
        f"{model}.{field} is not a selection: {found!r:.200}"
    )
    values = [str(value) for value, _label in found[field]["selection"]]
    missing = [v for v in values if not re.search(rf"(?<![\w.]){re.escape(v)}(?!\w)", suggestion)]
    assert not missing, f"the suggestion {suggestion!r} does not name the valid values {missing}"


@check(parsers.parse("the error carries no traceback"))
def _no_traceback(world: World) -> None:
    """REQ-10-14: no traceback in the text, the structured content or a JSON-RPC error."""
    outcome = world.last()
    texts = [outcome.text] if outcome.error is None else [outcome.error.message]
    if outcome.result is not None and outcome.result.structured_content is not None:
        texts.append(json.dumps(outcome.result.structured_content))
    for text in texts:
        for mark in TRACEBACK_MARKS:
            found = mark.search(text)
            assert found is None, f"traceback text {found[0]!r} in the response: {text[:600]}"


@check(parsers.parse("the error says to retry after waiting"))
def _retry_later(world: World) -> None:
    """REQ-10-15: connection and rate-limit errors give retry true and retry_after > 0."""
    data = error_data(world)
    assert data.get("retry") is True, f"retry is {data.get('retry')!r}, expected true"
    wait = data.get("retry_after")
    assert isinstance(wait, int | float) and not isinstance(wait, bool) and wait > 0, (
        f"retry_after is {wait!r}, expected a positive number of seconds"
    )


@check(parsers.parse("the error says not to retry"))
def _no_retry(world: World) -> None:
    """REQ-10-15: access, configuration and unknown errors give retry false."""
    data = error_data(world)
    assert data.get("retry") is False, f"retry is {data.get('retry')!r}, expected false"


# -- Given: Odoo refuses the server's credentials -----------------------------------------------
@given("Odoo no longer accepts the server's credentials")
def _credentials_refused(world: World) -> None:
    """The server connects first; then its Odoo user is archived, which makes Odoo refuse its
    password and its API keys alike (the demo data is reset after the scenario)."""
    world.server()
    uid = world.control.info()["credentials"][world.user]["uid"]
    world.control.call("res.users", "write", [uid], {"active": False})


@given(
    parsers.re(
        r'Odoo raises "(?P<exception>[\w.]+)" with message "(?P<message>.*)"'
        r" on (?P<model>[\w.]+) (?P<method>\w+)"
    )
)
def _odoo_raises(world: World, exception: str, message: str, model: str, method: str) -> None:
    """Every later ``method`` call on ``model`` fails as Odoo fails with that class, on
    whichever protocol the server speaks (cleared after the scenario with the other faults)."""
    world.control.raise_odoo_error(exception, message, model=model, method=method)


# -- Then: the server's log (REQ-10-18/19; targets claiming error_logs log to stderr) -----------
def _level_re(level: str) -> re.Pattern[str]:
    """A level name as a word (``WARNING``), or ``level=warning`` / ``"level": "warning"``;
    never a code such as ``UNKNOWN_ERROR``."""
    name = re.escape(level.upper())
    return re.compile(rf"(?<![\w-]){name}(?![\w-])|(?i:level\"?\s*[=:]\s*\"?{name}\b)")


def _log(world: World, settle: float = 0.0) -> str:
    if settle:
        time.sleep(settle)  # let the child flush
    return world.server().stderr()


@check(parsers.re(r'the server log has an? (?:(?P<level>[A-Z]+) )?line with (?P<items>".*")'))
def _log_line(world: World, level: str | None, items: str) -> None:
    """One log line holding the level name (when given) and every quoted text (model,
    method, code, a marker from the arguments)."""
    wanted = re.findall(r'"([^"]*)"', items)
    level_re = _level_re(level) if level else re.compile("")
    deadline = time.monotonic() + 3.0
    while True:
        log = _log(world)
        lines = [
            line
            for line in log.splitlines()
            if level_re.search(line) and all(text in line for text in wanted)
        ]
        if lines or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert lines, (
        f"no {level or 'log'} line with {wanted} in the server log; it ends with:\n{log[-2500:]}"
    )


@check(parsers.parse('the server log does not contain "{text}"'))
def _log_lacks(world: World, text: str) -> None:
    log = _log(world, settle=0.2)
    assert text not in log, f"{text!r} appears in the server log"


@check(parsers.parse('the server log contains "{text}"'))
def _log_has(world: World, text: str) -> None:
    deadline = time.monotonic() + 3.0
    while text not in (log := _log(world)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert text in log, f"{text!r} is not in the server log; it ends with:\n{log[-2500:]}"


@check(parsers.parse("the server log does not contain the Odoo API key or password"))
def _log_no_secret(world: World) -> None:
    """REQ-10-19: arguments are logged with secrets removed; the credentials never appear.

    The password is checked only when it is not also the login (the demo users' are); a
    secret the run was not given (a real Odoo's user with a key only) is not looked for: the
    empty text is in every log."""
    log = _log(world, settle=0.2)
    odoo = world.control.coordinates(world.user)
    if odoo.api_key:
        assert odoo.api_key not in log, "the Odoo API key appears in the server log"
    if odoo.password and odoo.password != odoo.login:
        assert odoo.password not in log, "the Odoo password appears in the server log"


@check(parsers.re(r"the error message names (?P<items>\".*\")"))
def _message_names(world: World, items: str) -> None:
    """REQ-10a-02: the message template is filled from what the pattern extracted."""
    message = error_data(world).get("message")
    assert isinstance(message, str), f"message is {message!r}"
    missing = [text for text in re.findall(r'"([^"]*)"', items) if text not in message]
    assert not missing, f"the message {message!r} does not name {missing}"


#: REQ-10-15 §8: the retry of each category, as the seed's table gives it
SEED_RETRY: dict[str, bool] = {
    "validation": True, "access": False, "not_found": True, "constraint": True, "state": True,
    "wizard": True, "connection": True, "rate_limit": True, "configuration": False,
    "unknown": False,
}  # fmt: skip


@check(parsers.parse("the error's retry is the one the seed's table gives its category"))
def _retry_of_category(world: World) -> None:
    """REQ-10-15: ``retry`` follows §8's table for every error object, the server's own
    refusals included (a readonly field refused before Odoo is called is ``validation``:
    retry true). A JSON-RPC error carries no tool result to judge: it passes here."""
    outcome = world.last()
    if outcome.error is not None:
        return
    data = error_data(world)
    category = data.get("category")
    assert category in SEED_RETRY, f"category {category!r} is not one of the ten"
    assert data.get("retry") is SEED_RETRY[str(category)], (
        f"retry is {data.get('retry')!r} on a {category} error: SPEC-10 §8 says "
        f"{str(SEED_RETRY[str(category)]).lower()} ({shown(data)})"
    )


#: a Python exception class name as an error line starts with it (``UserError``,
#: ``odoo.exceptions.ValidationError``, ``builtins.ValueError``)
_CLASS_NAME = re.compile(r"(?<![\w.])(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Warning|Exception)\b")


@check(parsers.parse("the error's original_error, when given, names no exception class"))
def _original_without_class(world: World) -> None:
    """REQ-10-04: original_error is "the raw Odoo error string". Over XML-RPC an Odoo warning
    (fault 2) carries its message alone: a class in original_error is one the server made up
    (the fault does not say whether Odoo raised a UserError or a ValidationError)."""
    original = error_data(world).get("original_error")
    if original is None:
        return
    assert isinstance(original, str), f"original_error is {shown(original)}, not a string"
    found = _CLASS_NAME.search(original)
    assert found is None, (
        f"original_error {original!r} names {found[0]!r}, a class Odoo's fault did not carry"
    )
