"""Generic steps: configure the server, seed the fake, call tools, check answers.

Feature files should need little else. Values in docstrings are JSON; a JSON string
``"$name"`` is replaced by a value remembered earlier in the scenario (``... as "name"``).
Paths use :mod:`odoo_mcp_conformance.jsonpath`.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from mcp.types import CallToolResult
from pytest_bdd import given, parsers, when

from odoo_mcp_conformance.checks import SourcedParser, check, shown
from odoo_mcp_conformance.control import OdooCall
from odoo_mcp_conformance.driver import ToolOutcome
from odoo_mcp_conformance.jsonpath import MISSING, lookup, matches
from odoo_mcp_conformance.proxy import TcpProxy
from odoo_mcp_conformance.settings import SPEC_SETTINGS
from odoo_mcp_conformance.sources import REFERENCE, SEED_CODES, code_category
from odoo_mcp_conformance.world import World, not_applicable


def substitute(value: Any, world: World) -> Any:
    """Replace ``"$name"`` strings by remembered values, recursively."""
    if isinstance(value, str) and value.startswith("$") and value[1:] in world.remembered:
        return world.remembered[value[1:]]
    if isinstance(value, list):
        return [substitute(item, world) for item in value]
    if isinstance(value, dict):
        return {key: substitute(item, world) for key, item in value.items()}
    return value


def parse_json(text: str, world: World) -> Any:
    try:
        return substitute(json.loads(text), world)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"feature file bug: invalid JSON {text!r}: {exc}") from exc


def setting_value(name: str, raw: str) -> Any:
    """A feature file's text for a setting, as the value its kind (``SPEC_SETTINGS``) takes."""
    fact = SPEC_SETTINGS.get(name)
    kind = fact.kind if fact is not None else "text"
    if kind in ("list", "int list"):
        parts = [part.strip() for part in raw.split(",") if part.strip()]
        return [int(part) for part in parts] if kind == "int list" else parts
    if kind == "bool":
        return raw.lower() in ("1", "true", "yes", "on")
    if kind == "int":
        return int(raw)
    if kind == "number":
        float(raw)  # a feature file bug fails here, not in the server under test
    return raw


def result_data(world: World) -> Any:
    outcome = world.last()
    if outcome.error is not None:
        raise AssertionError(f"expected a tool result, got {outcome.error}")
    data = outcome.structured
    if data is None:
        raise AssertionError(f"the tool result has no JSON content: {outcome.text[:300]!r}")
    return data


# -- Given: the server's configuration ---------------------------------------------------------
@given("the Odoo demo database")
def _demo_database(world: World) -> None:
    """The fake was reset before the scenario if an earlier one changed data."""


@given(parsers.parse('the server runs in "{mode}" mode'))
def _mode(world: World, mode: str) -> None:
    world.configure("mode", mode)


@given(parsers.parse('the server setting "{name}" is "{value}"'))
def _setting(world: World, name: str, value: str) -> None:
    world.configure(name, setting_value(name, value))


@given(parsers.parse('the server environment variable "{name}" is "{value}"'))
def _raw_env(world: World, name: str, value: str) -> None:
    """REQ-11-25/30/31 are about the spec's own names and value syntax: no target mapping."""
    world.configure_env(name, value)


@given(parsers.parse('the server talks to Odoo over "{protocol}"'))
def _protocol(world: World, protocol: str) -> None:
    world.configure("odoo_protocol", protocol)


@given("the server connects to Odoo as the demo user")
def _demo_user(world: World) -> None:
    if world.driver is not None:
        raise AssertionError("choose the user before the server starts")
    world.user = "demo"


@given("a fresh server")
def _fresh(world: World) -> None:
    world.fresh = True


@given("the audit log is enabled")
def _audit(world: World) -> None:
    world.fresh = True
    world.configure("audit_enabled", True)
    world.configure("audit_log_file", str(world.tmp / "audit.jsonl"))


# -- Given: the fake Odoo, through its control API ------------------------------------------------
@given(parsers.parse('a "{model}" record created outside the server as "{name}" with:'))
def _created(world: World, model: str, name: str, docstring: str) -> None:
    world.remembered[name] = world.control.create(model, parse_json(docstring, world))


@given(parsers.parse('the "{model}" record "{name}" is edited outside the server with:'))
def _edited(world: World, model: str, name: str, docstring: str) -> None:
    world.control.edit(model, int(world.remembered[name]), parse_json(docstring, world))


@given(parsers.parse("Odoo has the fault:"))
def _fault(world: World, docstring: str) -> None:
    """The server starts (and connects) first: the fault hits the calls that follow."""
    world.server()
    world.faulted = True
    world.control.inject_fault(**parse_json(docstring, world))


@given("the server reaches Odoo through a forwarder")
def _through_proxy(world: World) -> None:
    """The server's Odoo URL is a loopback forwarder to the fake (see ``proxy``)."""
    if world.driver is not None:
        raise AssertionError("the forwarder must be set before the server starts")
    url = urlsplit(world.control.url)
    world.proxy = TcpProxy(url.hostname or "127.0.0.1", url.port or 80)


@given("Odoo stops accepting connections")
def _refuse(world: World) -> None:
    """The server starts (and connects) first; then nothing listens at its Odoo URL."""
    if world.proxy is None:
        raise AssertionError("needs 'the server reaches Odoo through a forwarder' first")
    world.server()
    world.proxy.refuse()
    world.faulted = True


@given("Odoo's sessions expire")
def _expire(world: World) -> None:
    world.server()
    world.faulted = True
    world.control.expire_sessions()


@given(parsers.parse('the id of the "{model}" record matching {domain} is "{name}"'))
def _find(world: World, model: str, domain: str, name: str) -> None:
    ids = world.control.call(model, "search", json.loads(domain), limit=1)
    if not ids:
        raise AssertionError(f"the demo data has no {model} matching {domain}")
    world.remembered[name] = ids[0]


@given(parsers.parse('the server has already read from "{model}"'))
def _warm(world: World, model: str) -> None:
    """Field metadata is cached per model: later round-trip counts exclude ``fields_get``.

    The read happens when the server starts (after every setting is known)."""
    if world.driver is not None:
        raise AssertionError("warm models before the server starts")
    world.warm_models.append(model)


# -- When ----------------------------------------------------------------------------------------
@when("the client lists the tools")
def _list_tools(world: World) -> None:
    world.tools = world.server().list_tools()


@when(parsers.parse('the client calls "{tool}" with:'))
def _call_with(world: World, tool: str, docstring: str) -> None:
    world.call(tool, parse_json(docstring, world))


@when(parsers.parse('the client calls "{tool}" without arguments'))
def _call_bare(world: World, tool: str) -> None:
    world.call(tool, {})


@when(parsers.parse('the client calls "{tool}" {count:d} times with:'))
def _call_times(world: World, tool: str, count: int, docstring: str) -> None:
    arguments = parse_json(docstring, world)
    for _ in range(count):
        world.call(tool, arguments)


@when(SourcedParser(parsers.parse('the client remembers the result "{path}" as "{name}"')))
def _remember(world: World, path: str, name: str) -> None:
    """``When [needs REQ-04-10] the client remembers ...``: an answer without the value is
    the defect of the requirement named, which blocks the scenario's others (issue 36)."""
    value = lookup(result_data(world), path)
    assert value is not MISSING and value is not None, (
        f"the result has no {path!r}: {shown(result_data(world))}"
    )
    world.remembered[name] = value


# -- Then: outcome -------------------------------------------------------------------------------
@check(parsers.parse("the call succeeds"))
def _succeeds(world: World) -> None:
    outcome = world.last()
    assert outcome.error is None, f"JSON-RPC error instead of a result: {outcome.error}"
    assert not outcome.is_error, f"the tool reported an error: {outcome.text[:500]}"


def spec10_object(value: Any) -> dict[str, Any] | None:
    """``value`` when it is a SPEC-10 error object (``error: true`` and a category)."""
    is_object = isinstance(value, dict) and value.get("error") is True and "category" in value
    return value if is_object else None


def tool_error_body(world: World) -> dict[str, Any] | None:
    """The SPEC-10 body of the last call's tool error; records a failed check if none.

    Issue 36: how the error travels is REQ-10-17's alone. A SPEC-10 object sent as a
    JSON-RPC error's ``data``, or as a result without ``isError``, fails REQ-10-17 (the
    invariants judge the second on every answer) and is still read here, so the scenario's
    own requirements are judged on what the error says, never failed by the flag.
    """
    outcome = world.last()
    tool_call = bool(world.outcomes) and world.outcomes[-1] is outcome
    if outcome.error is not None:
        data = spec10_object(outcome.error.data)
        if data is not None and tool_call:
            world.checks.expect(
                False,
                f"the error came as JSON-RPC error {outcome.error.code}, not as a tool result "
                "with isError true",
                requirements=("REQ-10-17",),
                anywhere=True,
                label="isError",
            )
            return data
        problem = f"expected a tool result with isError true, got {outcome.error}"
    elif not outcome.is_error:
        if (data := spec10_object(outcome.structured)) is not None:
            return data
        problem = f"expected isError true, got a successful result: {outcome.text[:300]!r}"
    elif not isinstance(data := outcome.structured, dict):
        problem = f"the error is not a SPEC-10 JSON object: {outcome.text[:300]!r}"
    else:
        return data
    world.checks.expect(False, problem)
    return None


def judge_error_codes(world: World, allowed: list[str]) -> None:
    """An error code expectation, split by where it comes from.

    A code the seeds define (``SEED_CODES``) is required as such. A code only the reference
    server uses is judged twice: on the seed side by its category (any code of the category
    with the SPEC-10 body passes: the seeds give safety refusals a category, not a code), and
    as a reference expectation for the code itself.
    """
    data = tool_error_body(world)
    if data is None:
        return
    code, category = data.get("code"), data.get("category")
    seed_codes = [c for c in allowed if c in SEED_CODES]
    ours = [c for c in allowed if c not in SEED_CODES]
    wanted = " or ".join(allowed)
    if not ours:
        world.checks.expect(code in seed_codes, f"error code {code!r}, expected {wanted}")
        return
    categories = sorted({c for c in map(code_category, ours) if c is not None})
    seed_side = code in seed_codes or (category in categories and isinstance(code, str) and code)
    expected = " or ".join([*seed_codes, *(f"any code of category {c!r}" for c in categories)])
    world.checks.expect(
        bool(seed_side),
        f"error category {category!r} with code {code!r}, expected {expected or 'a tool error'}",
        label="category",
    )
    own = world.checks.source
    world.checks.expect(
        code in allowed,
        f"error code {code!r}, the reference server answers {wanted}",
        source=REFERENCE if own.kind == "seed" else own,
        label=f"code {wanted}",
    )


@check(parsers.parse('the call fails with error code "{code}"'))
def _fails_code(world: World, code: str) -> None:
    judge_error_codes(world, [code])


@check(parsers.parse('the call fails with one of the error codes "{codes}"'))
def _fails_one_of(world: World, codes: str) -> None:
    judge_error_codes(world, [code.strip() for code in codes.split(",")])


@check(parsers.parse('the error category is "{category}"'))
def _category(world: World, category: str) -> None:
    data = world.last().structured
    assert isinstance(data, dict) and data.get("category") == category, (
        f"error category {data.get('category') if isinstance(data, dict) else data!r}, "
        f"expected {category!r}"
    )


@check(parsers.parse("the call is rejected with JSON-RPC error {code:d}"))
def _rpc_error(world: World, code: int) -> None:
    outcome = world.last()
    assert outcome.error is not None, (
        f"expected JSON-RPC error {code}, got a tool result (isError={outcome.is_error}): "
        f"{outcome.text[:300]}"
    )
    assert outcome.error.code == code, f"JSON-RPC error {outcome.error.code}, expected {code}"


# -- Then: result contents -----------------------------------------------------------------------
@check(parsers.parse("the result contains:"))
def _contains(world: World, docstring: str) -> None:
    data, expected = result_data(world), parse_json(docstring, world)
    assert matches(data, expected), (
        f"expected the result to contain {json.dumps(expected)[:400]}, "
        f"got {json.dumps(data, default=repr)[:800]}"
    )


@check(parsers.parse('the result "{path}" is {value}'))
def _path_is(world: World, path: str, value: str) -> None:
    actual, expected = lookup(result_data(world), path), parse_json(value, world)
    assert actual is not MISSING, f"the result has no {path!r}"
    assert matches(actual, expected), (
        f"expected {path} to be {value}, got {json.dumps(actual, default=repr)[:500]}"
    )


@check(parsers.parse('the result "{path}" matches the pattern "{pattern}"'))
def _path_pattern(world: World, path: str, pattern: str) -> None:
    actual = lookup(result_data(world), path)
    values = actual if isinstance(actual, list) and "[*]" in path else [actual]
    assert values, f"{path} is empty"
    for value in values:
        assert isinstance(value, str) and re.fullmatch(pattern, value), (
            f"{path}: {value!r} does not match {pattern!r}"
        )


@check(parsers.parse('each of "{path}" is {value}'))
def _each_is(world: World, path: str, value: str) -> None:
    items, expected = lookup(result_data(world), path), parse_json(value, world)
    assert isinstance(items, list) and items, f"{path} is not a non-empty list: {items!r}"
    wrong = [item for item in items if not matches(item, expected)]
    assert not wrong, f"{len(wrong)} of {len(items)} in {path} are not {value}: {wrong[:3]}"


@check(parsers.parse('the result "{path}" has {count:d} items'))
def _path_len(world: World, path: str, count: int) -> None:
    actual = lookup(result_data(world), path)
    assert isinstance(actual, list), f"{path} is not a list: {actual!r}"
    assert len(actual) == count, f"{path} has {len(actual)} items, expected {count}"


@check(parsers.parse('the result has no "{path}"'))
def _path_absent(world: World, path: str) -> None:
    actual = lookup(result_data(world), path)
    missing = actual is MISSING or (isinstance(actual, list) and all(a is MISSING for a in actual))
    assert missing, f"{path} should be absent, is {json.dumps(actual, default=str)[:300]}"


@check(parsers.parse('the result has exactly the keys "{keys}"'))
def _exact_keys(world: World, keys: str) -> None:
    data = result_data(world)
    expected = {key.strip() for key in keys.split(",")}
    assert isinstance(data, dict), (
        f"expected an object with keys {sorted(expected)}, got {shown(data)}"
    )
    assert set(data) == expected, (
        f"expected exactly the keys {sorted(expected)}; missing {sorted(expected - set(data))}, "
        f"extra {sorted(set(data) - expected)}"
    )


@check(parsers.parse('every item of "{path}" has the key "{key}"'))
def _every_has(world: World, path: str, key: str) -> None:
    items = lookup(result_data(world), path)
    assert isinstance(items, list) and items, f"{path} is not a non-empty list: {items!r}"
    assert all(isinstance(i, dict) and key in i for i in items), f"an item of {path} lacks {key}"


@check(parsers.parse('no item of "{path}" has the key "{key}"'))
def _none_has(world: World, path: str, key: str) -> None:
    items = lookup(result_data(world), path)
    assert isinstance(items, list), f"{path} is not a list: {items!r}"
    leaked = [i for i in items if isinstance(i, dict) and key in i]
    assert not leaked, f"{len(leaked)} item(s) of {path} have {key}"


@check(parsers.parse('the answer does not show the field "{field}"'))
def _field_hidden(world: World, field: str) -> None:
    """REQ-11-14: a blocked field asked for is dropped or refused; either way it is not shown.

    An error answer shows nothing; a result must not carry the field in any record.
    """
    outcome = world.last()
    if outcome.error is not None or outcome.is_error:
        return
    data = outcome.structured
    if spec10_object(data) is not None:  # a refusal without isError: REQ-10-17's defect
        return
    records = data.get("records") if isinstance(data, dict) else None
    assert isinstance(records, list), f"expected records or an error, got {outcome.text[:300]!r}"
    shown = [r.get("id") for r in records if isinstance(r, dict) and field in r]
    assert not shown, f"expected no record to show {field!r}; records {shown} do"


@check(parsers.parse('the response text does not contain "{text}"'))
def _text_lacks(world: World, text: str) -> None:
    outcome = world.last()
    body = outcome.text if outcome.error is None else outcome.error.message
    assert text not in body, f"{text!r} appears in the response: {body[:500]}"


@check(parsers.parse('the response text contains "{text}"'))
def _text_has(world: World, text: str) -> None:
    outcome = world.last()
    body = outcome.text if outcome.error is None else outcome.error.message
    assert text in body, f"{text!r} is not in the response: {body[:500]}"


# -- Then: what Odoo received (the fake's call log) ----------------------------------------------
def calls_in_words(calls: list[OdooCall]) -> str:
    """Logged calls as ``model.method (protocol)``, never the log's raw records."""
    return ", ".join(f"{c.get('model')}.{c.get('method')} ({c.get('protocol')})" for c in calls)


@check(parsers.parse("Odoo received no call"))
def _no_call(world: World) -> None:
    calls = world.caused_calls()
    assert not calls, f"Odoo received {len(calls)} call(s): {calls_in_words(calls)}"


@check(parsers.parse("Odoo received {count:d} call"))
@check(parsers.parse("Odoo received {count:d} calls"))
def _calls(world: World, count: int) -> None:
    calls = world.caused_calls()
    assert len(calls) == count, (
        f"Odoo received {len(calls)} call(s), expected {count}: {calls_in_words(calls)}"
    )


@check(parsers.parse('Odoo received {count:d} "{method}" call'))
@check(parsers.parse('Odoo received {count:d} "{method}" calls'))
def _method_calls(world: World, count: int, method: str) -> None:
    calls = [c for c in world.caused_calls() if c.get("method") == method]
    assert len(calls) == count, f"Odoo received {len(calls)} {method} call(s), expected {count}"


@check(parsers.parse('Odoo received no call on "{model}"'))
def _no_model_call(world: World, model: str) -> None:
    calls = [c for c in world.caused_calls() if c.get("model") == model]
    assert not calls, f"Odoo ran methods of {model}: {calls_in_words(calls)}"


@check(parsers.parse("Odoo received at most {count:d} calls"))
def _at_most(world: World, count: int) -> None:
    calls = world.caused_calls()
    assert len(calls) <= count, f"Odoo received {len(calls)} calls, at most {count} allowed"


@check(parsers.parse('Odoo received no "{method}" call'))
def _no_method(world: World, method: str) -> None:
    calls = [c for c in world.caused_calls() if c.get("method") == method]
    assert not calls, f"Odoo received {method}: {calls_in_words(calls)}"


# -- Then: tools/list ----------------------------------------------------------------------------
def _tool(world: World, name: str) -> Any:
    tools = world.tools if world.tools is not None else world.server().list_tools()
    world.tools = tools
    for tool in tools:
        if tool.name == name:
            return tool
    return None


@check(parsers.parse('the tool list includes "{name}"'))
def _lists(world: World, name: str) -> None:
    assert _tool(world, name) is not None, f"{name} is not listed"


@check(parsers.parse('the tool list does not include "{name}"'))
def _hides(world: World, name: str) -> None:
    assert _tool(world, name) is None, f"{name} is listed"


@check(parsers.parse('the tool "{name}" has the annotations:'))
def _annotations(world: World, name: str, docstring: str) -> None:
    tool = _tool(world, name)
    if tool is None:
        pytest.fail(f"{name} is not listed")
    hints = tool.annotations
    actual = hints.model_dump(by_alias=True, exclude_none=True) if hints else {}
    expected = parse_json(docstring, world)
    assert matches(actual, expected), f"{name} annotations {actual}, expected {expected}"


@check(parsers.parse('the tool "{name}" input schema contains:'))
def _schema(world: World, name: str, docstring: str) -> None:
    tool = _tool(world, name)
    if tool is None:
        pytest.fail(f"{name} is not listed")
    expected = parse_json(docstring, world)
    assert matches(tool.input_schema, expected), (
        f"{name} input schema {json.dumps(tool.input_schema)[:800]} does not match {expected}"
    )


@check(parsers.parse('the tool "{name}" description contains "{text}"'))
def _description(world: World, name: str, text: str) -> None:
    tool = _tool(world, name)
    if tool is None:
        pytest.fail(f"{name} is not listed")
    assert text in (tool.description or ""), f"{name} description lacks {text!r}"


@check(parsers.parse('the tool "{name}" description names each of {tokens}'))
def _description_tokens(world: World, name: str, tokens: str) -> None:
    """Each token of a JSON list stands in the description on its own (``in`` inside
    ``not in`` or ``=`` inside ``>=`` does not count)."""
    tool = _tool(world, name)
    if tool is None:
        pytest.fail(f"{name} is not listed")
    text = tool.description or ""
    missing = [
        token
        for token in json.loads(tokens)
        if not re.search(rf"(?<![\w=!<>]){re.escape(token)}(?![\w=])", text)
        or (token == "in" and not re.search(r"(?<!not )(?<![\w=!<>])in(?!\w)", text))
    ]
    assert not missing, f"{name} description lacks {missing}"


@when("the client looks at how the server introduced itself")
def _introduction(world: World) -> None:
    """The initialize result: serverInfo and capabilities, as JSON (checked with the result
    steps)."""
    client = world.server().client
    info = client.server_info
    world.outcome = ToolOutcome(
        CallToolResult(
            content=[],
            structured_content={
                "serverInfo": info.model_dump(mode="json", exclude_none=True) if info else {},
                "capabilities": client.server_capabilities.model_dump(
                    mode="json", by_alias=True, exclude_none=True
                ),
            },
        ),
        None,
    )


@given(parsers.parse('the target claims the capability "{name}"'))
def _claims(world: World, name: str) -> None:
    if name not in world.target.capabilities.features:
        not_applicable(f"the target does not claim {name!r}")


# -- Then: every listed tool, not only the core names (REQ-11-04/05/17) ------------------------
_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def _listed(world: World) -> list[Any]:
    tools = world.tools if world.tools is not None else world.server().list_tools()
    world.tools = tools
    return list(tools)


@check(parsers.parse("every listed tool states all four annotation hints and a title"))
def _all_annotated(world: World) -> None:
    """REQ-11-17: the MCP defaults are unsafe, so each hint is sent explicitly, on every tool."""
    for tool in _listed(world):
        hints = tool.annotations.model_dump(by_alias=True) if tool.annotations else {}
        missing = [hint for hint in _HINTS if not isinstance(hints.get(hint), bool)]
        title = hints.get("title") or tool.title
        world.checks.expect(
            not missing and bool(title),
            f"{tool.name} does not state {', '.join(missing) or 'a title'}",
            label=tool.name,
        )


@check(parsers.parse('no listed tool changes data, except "{allowed}"'))
def _none_changes(world: World, allowed: str) -> None:
    """REQ-11-04/05 in readonly mode: every write tool is hidden, whatever its name."""
    changing = [
        tool.name
        for tool in _listed(world)
        if tool.name != allowed
        and not (tool.annotations is not None and tool.annotations.read_only_hint is True)
    ]
    assert not changing, f"listed although not read-only (readOnlyHint not true): {changing}"


@check(parsers.parse("no listed tool is destructive"))
def _none_destructive(world: World) -> None:
    """REQ-11-04/05 below full mode: deleting tools are hidden, whatever their name."""
    destructive = [
        tool.name
        for tool in _listed(world)
        if tool.annotations is not None
        and tool.annotations.read_only_hint is not True
        and tool.annotations.destructive_hint is not False
    ]
    assert not destructive, (
        f"listed although destructive (destructiveHint not false): {destructive}"
    )
