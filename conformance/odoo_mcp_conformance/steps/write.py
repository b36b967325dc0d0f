"""Steps specific to the write and execute features (generic ones live in ``common``).

What a write did is checked in the fake Odoo itself, through the control API (a superuser
read that the server under test does not see), never through the server's own read tools.
Record references are remembered names (``"doomed"``) or literal ids (``"9"``).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from pytest_bdd import parsers

from odoo_mcp_conformance.checks import check, shown
from odoo_mcp_conformance.jsonpath import MISSING, lookup, matches
from odoo_mcp_conformance.steps.common import parse_json, result_data
from odoo_mcp_conformance.world import World

#: Archived records count too: a write or a delete is judged on every record.
ALL_RECORDS = {"active_test": False}


def _record_id(world: World, ref: str) -> int:
    name = ref.removeprefix("$")
    if name in world.remembered:
        value = world.remembered[name]
        # a server answering a list (or anything) where a record id is due fails a check
        assert isinstance(value, int) and not isinstance(value, bool), (
            f"the result remembered as {name!r} is {shown(value)}, not a record id"
        )
        return value
    if ref.isdigit():
        return int(ref)
    raise AssertionError(f"feature file bug: {ref!r} is neither a remembered name nor an id")


def _template(world: World, text: str) -> str:
    """``{name}`` in a feature-file text stands for a value remembered earlier."""
    try:
        return text.format(**world.remembered)
    except KeyError as exc:
        raise AssertionError(f"feature file bug: nothing remembered as {exc}") from exc


def _exists(world: World, model: str, record_id: int) -> bool:
    found = world.control.call(model, "search", [["id", "=", record_id]], context=ALL_RECORDS)
    return bool(found)


def _same(actual: Any, expected: Any) -> bool:
    """Odoo's raw read values against the feature's: a many2one matches its id, id lists match
    in any order (Odoo orders x2many values by the related model's order)."""
    is_id = isinstance(expected, int) and not isinstance(expected, bool)
    if is_id and isinstance(actual, list) and len(actual) == 2 and isinstance(actual[0], int):
        return bool(actual[0] == expected)
    if isinstance(expected, list) and all(isinstance(i, int) for i in expected):
        return isinstance(actual, list) and sorted(actual) == sorted(expected)
    return matches(actual, expected)


@check(parsers.parse("the call fails with a tool error"))
def _fails(world: World) -> None:
    """A refusal as an ``isError`` result with a SPEC-10 object, whatever its code."""
    outcome = world.last()
    assert outcome.error is None, f"expected a tool error result, got {outcome.error}"
    assert outcome.is_error, f"expected isError true, got a result: {outcome.text[:300]}"
    assert isinstance(outcome.structured, dict), f"not structured: {outcome.text[:300]!r}"


@check(parsers.parse("the call is refused"))
def _refused(world: World) -> None:
    """Refused either way MCP allows: a JSON-RPC error or an ``isError`` result."""
    outcome = world.last()
    assert outcome.error is not None or outcome.is_error, f"accepted: {outcome.text[:300]}"


@check(parsers.parse('a tool error refusing it says "{text}"'))
def _refusal_says(world: World, text: str) -> None:
    """REQ-04-09's readonly message, for a server that lists the tool and refuses the call
    (one that hides the tool answers a JSON-RPC error: unknown tool, REQ-11-05)."""
    outcome = world.last()
    if outcome.error is not None:
        return
    assert outcome.is_error, f"accepted: {outcome.text[:300]}"
    assert text.lower() in outcome.text.lower(), f"the refusal lacks {text!r}: {outcome.text[:300]}"


@check(parsers.parse('the tool "{name}" input schema requires exactly "{fields}"'))
def _requires(world: World, name: str, fields: str) -> None:
    tools = world.tools if world.tools is not None else world.server().list_tools()
    world.tools = tools
    tool = next((tool for tool in tools if tool.name == name), None)
    assert tool is not None, f"{name} is not listed"
    required = set(tool.input_schema.get("required") or [])
    expected = {field.strip() for field in fields.split(",")}
    assert required == expected, f"{name} requires {sorted(required)}, expected {sorted(expected)}"


@check(parsers.parse('the "{model}" record "{ref}" in Odoo has:'))
def _record_has(world: World, model: str, ref: str, docstring: str) -> None:
    record_id, expected = _record_id(world, ref), parse_json(docstring, world)
    assert isinstance(expected, dict), "feature file bug: expected field values as an object"
    rows = world.control.call(model, "read", [record_id], list(expected), context=ALL_RECORDS)
    assert rows, f"{model} record {record_id} does not exist in Odoo"
    wrong = {
        name: rows[0].get(name) for name, value in expected.items()
        if not _same(rows[0].get(name), value)
    }  # fmt: skip
    assert not wrong, f"{model} record {record_id} in Odoo has {wrong}, expected {expected}"


@check(parsers.parse('the "{model}" record "{ref}" no longer exists in Odoo'))
def _record_gone(world: World, model: str, ref: str) -> None:
    record_id = _record_id(world, ref)
    assert not _exists(world, model, record_id), f"{model} record {record_id} still exists"


@check(parsers.parse('the "{model}" record "{ref}" still exists in Odoo'))
def _record_kept(world: World, model: str, ref: str) -> None:
    record_id = _record_id(world, ref)
    assert _exists(world, model, record_id), f"{model} record {record_id} was deleted"


@check(parsers.parse('Odoo has {count:d} "{model}" record matching {domain}'))
@check(parsers.parse('Odoo has {count:d} "{model}" records matching {domain}'))
def _count_matching(world: World, count: int, model: str, domain: str) -> None:
    condition = parse_json(domain, world)
    found = world.control.call(model, "search_count", condition, context=ALL_RECORDS)
    assert found == count, f"Odoo has {found} {model} record(s) matching {domain}, expected {count}"


@check(parsers.parse('the result "{path}" mentions "{text}"'))
def _path_mentions(world: World, path: str, text: str) -> None:
    actual, expected = lookup(result_data(world), path), _template(world, text)
    assert actual is not MISSING, f"the result has no {path!r}"
    assert isinstance(actual, str) and expected in actual, f"{path}: {actual!r} lacks {expected!r}"


@check(parsers.parse("the suggestion shows the x2many command table"))
def _command_table(world: World) -> None:
    """REQ-04a-11: the seven commands, each as its triple (list or tuple notation)."""
    text = result_data(world).get("suggestion")
    assert isinstance(text, str), f"no suggestion in {result_data(world)!r}"
    forms = {
        0: r"0,\s*0,\s*\{", 1: r"1,\s*\w+,\s*\{", 2: r"2,\s*\w+,\s*0", 3: r"3,\s*\w+,\s*0",
        4: r"4,\s*\w+,\s*0", 5: r"5,\s*0,\s*0", 6: r"6,\s*0,\s*[\[(]",
    }  # fmt: skip
    missing = [code for code, form in forms.items() if not re.search(r"[\[(]\s*" + form, text)]
    assert not missing, f"the suggestion lacks the command(s) {missing}: {text!r}"


@check(parsers.parse('the audit record of "{tool}" names the record "{ref}"'))
def _audit_names(world: World, tool: str, ref: str) -> None:
    """REQ-04-17: the audit line of a deletion says which record went (its id, anywhere)."""
    record_id, path = _record_id(world, ref), world.settings.get("audit_log_file")
    assert path, "the scenario did not enable the audit log"
    deadline, lines = time.monotonic() + 3.0, list[dict[str, Any]]()
    while not lines and time.monotonic() < deadline:
        text = Path(path).read_text(encoding="utf-8") if Path(path).exists() else ""
        text = text[: text.rfind("\n") + 1]  # a line being written is not read yet
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
        lines = [line for line in lines if line.get("tool") == tool]
        time.sleep(0 if lines else 0.05)
    assert lines, f"no audit record for {tool}"
    pattern = re.compile(rf"(?<![\d.]){record_id}(?![\d.])")
    assert any(pattern.search(json.dumps(line.get("values"))) for line in lines), (
        f"no audit record of {tool} names {record_id} in its values: {lines}"
    )


def _texts(value: Any) -> list[str]:
    """Every string inside a JSON value, keys' values at any depth."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _texts(item)]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    return []


@check(parsers.parse('the error names the {kind} "{name}"'))
def _error_names_as(world: World, kind: str, name: str) -> None:
    """As below, and where the server does give ``details.<kind>`` (model, field), it is
    that one: a details object naming another model misleads the client."""
    from odoo_mcp_conformance.steps.errors import error_data

    _error_names(world, name)
    details = error_data(world).get("details")
    if isinstance(details, dict) and kind in details:
        assert details[kind] == name, (
            f"details.{kind} is {shown(details[kind])}, but Odoo's error names {name!r}"
        )


@check(parsers.parse('the error names "{name}"'))
def _error_names(world: World, name: str) -> None:
    """SPEC-10 REQ-10-06 (the classifier extracts the field and model the message names) and
    SPEC-04 REQ-04-11 (the error says which field is wrong): the name appears in the error
    object the model reads. Where is the server's to choose: ``details`` is optional
    (REQ-10-04), a message or a suggestion naming it says the same; ``original_error``, the
    raw text kept "not for LLM consumption", does not count."""
    from odoo_mcp_conformance.steps.errors import error_data

    data = {k: v for k, v in error_data(world).items() if k != "original_error"}
    word = re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w])")
    assert any(word.search(text) for text in _texts(data)), (
        f"{name!r} is named nowhere in the error (original_error aside): {shown(data)}"
    )


@check(parsers.parse("the action's summary names its model and its record"))
def _action_summary(world: World) -> None:
    """REQ-04-27: the summary says what the action opens, as the seed's "Opens stock.picking
    form view for record 42" does: a non-empty text naming the action's ``res_model`` and,
    when the action has one, its ``res_id`` (as a number of its own, not inside another),
    in whatever words."""
    action = result_data(world).get("action")
    assert isinstance(action, dict), f"no action object in the result: {shown(action)}"
    summary, model, record = action.get("summary"), action.get("res_model"), action.get("res_id")
    assert isinstance(summary, str) and summary.strip(), f"the summary is {shown(summary)}"
    if isinstance(model, str) and model:
        assert re.search(rf"(?<![\w.]){re.escape(model)}(?![\w]|\.\w)", summary), (
            f"the summary {summary!r} does not name the action's model {model!r}"
        )
    if isinstance(record, int) and not isinstance(record, bool) and record:
        assert re.search(rf"(?<![\w.]){record}(?![\w.])", summary), (
            f"the summary {summary!r} does not name the action's record {record}"
        )


# -- REQ-04-26: what the server sent Odoo ---------------------------------------------------
@check(
    parsers.parse('Odoo received "{method}" on "{model}" without the keyword arguments {kwargs}')
)
def _no_kwargs_sent(world: World, method: str, model: str, kwargs: str) -> None:
    """REQ-04-26 (4): a NO_KWARGS_METHODS name has its keyword arguments stripped. Judged on
    what the server sent Odoo (the fake's call log keeps an XML-RPC or JSON-RPC call's keyword
    arguments), not on what Odoo answered: no call of ``method`` carries one of the client's
    keyword arguments (``context`` is the call's context, not an argument). A value carried
    over as a positional argument is no keyword argument."""
    given = {k: v for k, v in parse_json(kwargs, world).items() if k != "context"}
    calls = [
        c for c in world.caused_calls() if c.get("method") == method and c.get("model") == model
    ]
    assert calls, (
        f"Odoo never received {model}.{method}: the stripping of its keyword arguments "
        "cannot be seen"
    )
    logged = [c.get("kwargs") for c in calls]
    assert all(isinstance(sent, dict) for sent in logged), (
        "the server spoke JSON-2, which names every argument: the scenario needs XML-RPC"
    )
    carried = [
        {k: v for k, v in sent.items() if k in given and v == given[k]}
        for sent in logged
        if isinstance(sent, dict)
    ]
    carried = [found for found in carried if found]
    assert not carried, (
        f"the client's keyword arguments reached Odoo's {model}.{method}: {shown(carried[0])}"
    )
