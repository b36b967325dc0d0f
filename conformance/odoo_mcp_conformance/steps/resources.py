"""Steps of the SPEC-06 features: read resources, list templates, render prompts."""

from __future__ import annotations

import json
import time
from functools import partial
from importlib.resources import files
from typing import Any, Final

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from mcp import MCPError
from mcp.types import CallToolResult, ResourceUpdatedNotification, TextContent
from pytest_bdd import parsers, when

from odoo_mcp_conformance.checks import check
from odoo_mcp_conformance.driver import RpcError, ToolOutcome
from odoo_mcp_conformance.jsonpath import lookup, matches
from odoo_mcp_conformance.steps.common import result_data
from odoo_mcp_conformance.world import World


def _store(world: World, data: Any, error: RpcError | None) -> None:
    """Resource answers go where tool answers go, so the generic result steps apply."""
    if error is not None:
        world.outcome = ToolOutcome(None, error)
    else:
        text = json.dumps(data) if not isinstance(data, str) else data
        result = CallToolResult(content=[TextContent(type="text", text=text)])
        world.outcome = ToolOutcome(result, None)


@when(parsers.parse('the client reads the resource "{uri}"'))
def _read(world: World, uri: str) -> None:
    driver = world.server()
    world.control.clear_calls()
    try:
        answer = driver.request(lambda c: c.read_resource(uri))
    except MCPError as exc:
        _store(world, None, RpcError(exc.error.code, exc.error.message))
        world.remembered["error_data"] = exc.error.data
        return
    contents = answer.contents
    text = getattr(contents[0], "text", None) if contents else None
    if not isinstance(text, str):
        raise AssertionError(f"expected the resource {uri} as text contents, got {contents!r:.300}")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise AssertionError(f"expected JSON in the resource {uri}, got {text[:300]!r}") from exc
    # SPEC-06 shows mimeType on the resource descriptions; read contents need not repeat it
    world.remembered["mime_type"] = contents[0].mime_type
    _store(world, data, None)


@check(parsers.parse('the resource contents say they are "{mime}"'))
def _mime(world: World, mime: str) -> None:
    actual = world.remembered.get("mime_type")
    assert actual == mime, f"expected mimeType {mime!r} on the contents, got {actual!r}"


@when("the client lists the resources and templates")
def _list(world: World) -> None:
    driver = world.server()
    resources = driver.request(lambda c: c.list_resources()).resources
    templates = driver.request(lambda c: c.list_resource_templates()).resource_templates
    entries: dict[str, dict[str, Any]] = {}
    for r in resources:
        entries[str(r.uri)] = {"uri": str(r.uri), "name": r.name, "mimeType": r.mime_type,
                               "description": r.description}  # fmt: skip
    for t in templates:
        entries[t.uri_template] = {
            "uriTemplate": t.uri_template, "name": t.name, "mimeType": t.mime_type,
            "description": t.description,
        }  # fmt: skip
    world.remembered["listing"] = entries
    _store(
        world,
        {"resources": sorted(str(r.uri) for r in resources),
         "templates": sorted(t.uri_template for t in templates)},
        None,
    )  # fmt: skip


@check(parsers.parse('the listing entry "{uri}" is:'))
def _entry(world: World, uri: str, docstring: str) -> None:
    """SPEC-06 §3-4: a resource's or template's listing entry as the seed spells it (each key
    given must be there with that value; the entry may carry more)."""
    listing = world.remembered.get("listing") or {}
    entry = listing.get(uri)
    assert entry is not None, f"{uri} is not listed; the listing has {sorted(listing)}"
    expected = json.loads(docstring)
    wrong = {k: entry.get(k) for k, v in expected.items() if entry.get(k) != v}
    assert not wrong, f"{uri} is listed with {wrong}, expected {expected}"


def _schema(name: str) -> dict[str, Any]:
    path = files("odoo_mcp_conformance") / "schemas" / "spec06" / f"{name}.json"
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


@check(parsers.parse('the resource body matches the schema "{name}"'))
def _matches_schema(world: World, name: str) -> None:
    """SPEC-06 §3-4: the seed's example as a JSON Schema (its keys required, with its types;
    more keys allowed), from ``schemas/spec06/<name>.json``."""
    schema = _schema(name)
    validator = Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(result_data(world)), key=lambda e: list(e.path))
    assert not errors, f"the resource does not match {name}.json: " + "; ".join(
        f"{'/'.join(map(str, e.path)) or '(root)'}: {e.message}" for e in errors[:8]
    )


#: REQ-03-19: what odoo_core_list_toolsets answers; the resource must carry each of them
TOOLSETS_KEYS: Final = ("toolsets", "total_tools", "odoo_version", "connection")


@check(parsers.parse("the resource body equals the result of odoo_core_list_toolsets"))
def _mirrors_toolsets(world: World) -> None:
    """REQ-06-04: every field of the resource is the tool's, toolset by toolset.

    The keys REQ-03-19 names must be in both and equal; any other key both carry must be
    equal too; a key only one side carries is the server's own (a tool result's extra
    metadata, say) and is left alone."""
    resource = result_data(world)
    outcome = world.outcome
    try:
        tool = world.server().call_tool("odoo_core_list_toolsets", {})
    finally:
        world.outcome = outcome
    assert tool.error is None and not tool.is_error, (
        f"odoo_core_list_toolsets failed: {tool.text:.300}"
    )
    answer = tool.structured
    assert isinstance(answer, dict), f"odoo_core_list_toolsets gave no JSON: {tool.text:.300}"
    assert isinstance(resource, dict), f"the resource is not a JSON object: {resource!r:.300}"
    missing = [k for k in TOOLSETS_KEYS if k not in resource or k not in answer]
    shared = [k for k in resource if k in answer]
    differ = {k: (resource[k], answer[k]) for k in shared if resource[k] != answer[k]}
    assert not missing, f"missing from the resource or the tool: {missing}"
    assert not differ, (
        "the resource and the tool differ (resource, tool): "
        + json.dumps(differ, default=str)[:1500]
    )


@when(parsers.parse('the client gets the prompt "{name}" with:'))
def _prompt(world: World, name: str, docstring: str) -> None:
    driver = world.server()
    args = json.loads(docstring)
    try:
        answer = driver.request(lambda c: c.get_prompt(name, args))
    except MCPError as exc:
        _store(world, None, RpcError(exc.error.code, exc.error.message))
        world.remembered["error_data"] = exc.error.data
        return
    text = "\n".join(m.content.text for m in answer.messages if m.content.type == "text")
    _store(world, text, None)


@when("the client lists the prompts")
def _prompts(world: World) -> None:
    prompts = world.server().request(lambda c: c.list_prompts()).prompts
    world.remembered["prompt_arguments"] = {
        p.name: {a.name: a.required for a in p.arguments or []} for p in prompts
    }
    _store(world, {"prompts": {p.name: sorted(a.name for a in p.arguments or []) for p in prompts}},
           None)  # fmt: skip


@check(parsers.parse("the request is refused with a JSON-RPC error"))
def _refused_at_all(world: World) -> None:
    """REQ-06-23 (seed): Odoo's refusal is "an appropriate error, never an empty response";
    which code it carries is decision 27's (the step below)."""
    outcome = world.last()
    assert outcome.error is not None, f"expected an error, got {outcome.text[:300]}"


@check(
    parsers.parse("the request is refused with JSON-RPC error {code:d} carrying a SPEC-10 error")
)
def _refused(world: World, code: int) -> None:
    outcome = world.last()
    assert outcome.error is not None, f"expected an error, got {outcome.text[:300]}"
    assert outcome.error.code == code, f"JSON-RPC error {outcome.error.code}, expected {code}"
    data = world.remembered.get("error_data")
    assert isinstance(data, dict) and data.get("error") is True and "category" in data, data


@check(parsers.parse('the prompt text mentions "{text}"'))
def _mentions(world: World, text: str) -> None:
    body = world.last().text
    assert text in body, f"{text!r} not in the prompt:\n{body[:1500]}"


@check(parsers.parse('the prompt text does not mention "{text}"'))
def _lacks(world: World, text: str) -> None:
    body = world.last().text
    assert text not in body, f"{text!r} is in the prompt"


def _updates(world: World, uri: str) -> int:
    notes = world.server().notifications
    return sum(
        1 for n in notes if isinstance(n, ResourceUpdatedNotification) and str(n.params.uri) == uri
    )


@when(parsers.parse('the client subscribes to "{uri}"'))
def _subscribe(world: World, uri: str) -> None:
    driver = world.server()
    try:
        driver.request(lambda c: c.subscribe_resource(uri))
    except MCPError as exc:
        _store(world, None, RpcError(exc.error.code, exc.error.message))
        world.remembered["error_data"] = exc.error.data
        return
    world.subscribed = True
    world.remembered.setdefault("baseline", {})[uri] = _updates(world, uri)
    _store(world, {"subscribed": uri}, None)


@when(parsers.parse('the client unsubscribes from "{uri}"'))
def _unsubscribe(world: World, uri: str) -> None:
    world.server().request(lambda c: c.unsubscribe_resource(uri))
    world.remembered.setdefault("baseline", {})[uri] = _updates(world, uri)


@check(parsers.parse('an update of "{uri}" arrives within {seconds:g} seconds'))
def _arrives(world: World, uri: str, seconds: float) -> None:
    before = world.remembered.get("baseline", {}).get(uri, 0)
    arrived = world.server().wait_for(lambda: _updates(world, uri) > before, timeout=seconds)
    assert arrived, f"no notifications/resources/updated for {uri} within {seconds} s"
    world.remembered["baseline"][uri] = _updates(world, uri)


@check(parsers.parse('no update of "{uri}" arrives within {seconds:g} seconds'))
def _silent(world: World, uri: str, seconds: float) -> None:
    before = world.remembered.get("baseline", {}).get(uri, 0)
    arrived = world.server().wait_for(lambda: _updates(world, uri) > before, timeout=seconds)
    assert not arrived, f"an update of {uri} arrived though nothing changed"


@when(parsers.parse("{seconds:g} seconds pass"))
def _pass(world: World, seconds: float) -> None:
    time.sleep(seconds)


@when(
    parsers.parse(
        'the "{model}" record {record_id:d} is edited from outside with a new job position'
    )
)
def _edit_function(world: World, model: str, record_id: int) -> None:
    """An edit through the fake's control API: write_date moves, as any Odoo write."""
    world.control.edit(model, record_id, {"function": f"Position {time.time():.0f}"})


async def _subscribe_one(client: Any, *, uri: str) -> Any:
    return await client.subscribe_resource(uri)


@when(parsers.parse('the client subscribes to the first {count:d} records of "{model}"'))
def _subscribe_many(world: World, count: int, model: str) -> None:
    ids = world.control.call(model, "search", [], limit=count, order="id")
    assert len(ids) == count, f"the demo data has only {len(ids)} {model} records"
    driver = world.server()
    for record_id in ids:
        uri = f"odoo://record/{model}/{record_id}"
        driver.request(partial(_subscribe_one, uri=uri))


@when("Odoo refuses every connection")
def _odoo_down(world: World) -> None:
    """REQ-06-15: a connection state change the kit can cause: Odoo becomes unreachable."""
    world.server()
    world.faulted = True
    world.control.inject_fault(kind="refuse")


@when("Odoo accepts connections again")
def _odoo_up(world: World) -> None:
    world.control.clear_faults()


@check(parsers.parse('the result "{path}" includes {value}'))
def _includes(world: World, path: str, value: str) -> None:
    """A list holds an item matching ``value`` (a subset match, as ``the result ... is``)."""
    actual, expected = lookup(result_data(world), path), json.loads(value)
    assert isinstance(actual, list), (
        f"{path} is not a list: {json.dumps(actual, default=repr):.300}"
    )
    assert any(matches(item, expected) for item in actual), (
        f"no item of {path} is {value}: {json.dumps(actual, default=repr)[:800]}"
    )


#: SPEC-06 §2: the four categories of odoo://{category}/{path}
CATEGORIES: Final = ("model", "record", "system", "config")


@check(parsers.parse("every listed resource and template is an odoo:// URI of a seed category"))
def _odoo_scheme(world: World) -> None:
    """REQ-06-01: 'All Odoo resources MUST use the odoo:// URI scheme with this structure
    odoo://{category}/{path}', the categories being model/, record/, system/, config/."""
    listing = world.remembered.get("listing") or {}
    wrong = [
        uri
        for uri in listing
        if not uri.startswith("odoo://")
        or uri.removeprefix("odoo://").split("/", 1)[0] not in CATEGORIES
        or "/" not in uri.removeprefix("odoo://")
    ]
    assert not wrong, f"listed outside odoo://{{{'|'.join(CATEGORIES)}}}/...: {wrong}"


def _values_of(data: Any, key: str) -> list[Any]:
    """Every value ``key`` has anywhere in ``data`` (the seed fixes no place for them)."""
    if isinstance(data, dict):
        found = [data[key]] if key in data else []
        return found + [v for value in data.values() for v in _values_of(value, key)]
    if isinstance(data, list):
        return [v for item in data for v in _values_of(item, key)]
    return []


@check(parsers.parse('wherever the resource body gives "{key}", it is {value}'))
def _normalised(world: World, key: str, value: str) -> None:
    """REQ-06-10: 'the same normalization as tool responses (REQ-04-35)'. Which key fields
    a record resource carries, and where, is the server's: a field it leaves out passes."""
    expected = json.loads(value)
    wrong = [v for v in _values_of(result_data(world), key) if v != expected]
    assert not wrong, f"{key} is given as {json.dumps(wrong, default=repr)[:300]}, expected {value}"


def _fields_map(world: World) -> dict[str, Any]:
    """The field definitions of a fields resource: under "fields" (as odoo_core_fields_get
    answers) or at the top (as Odoo's fields_get does); the seed shows neither."""
    data = result_data(world)
    assert isinstance(data, dict), f"expected a JSON object, got {json.dumps(data)[:300]}"
    inner = data.get("fields")
    return inner if isinstance(inner, dict) else data


@check(parsers.parse('the fields resource gives "{field}" the type "{kind}"'))
def _field_type(world: World, field: str, kind: str) -> None:
    """REQ-06-06: 'Field definitions for a specific model'."""
    definition = _fields_map(world).get(field)
    assert isinstance(definition, dict) and definition.get("type") == kind, (
        f"{field} is defined as {json.dumps(definition, default=repr)[:300]}, expected type {kind}"
    )


@check(parsers.parse('the fields resource has no field "{field}"'))
def _field_absent(world: World, field: str) -> None:
    """REQ-06-22: 'Field blocklists apply to resource responses'."""
    assert field not in _fields_map(world), f"the blocked field {field} is defined"


@check(parsers.parse('the listed prompt "{name}" has the required arguments {names}'))
def _prompt_arguments(world: World, name: str, names: str) -> None:
    """REQ-06-17..21: the seed lists each prompt's arguments, each with "required": true."""
    listed: dict[str, dict[str, bool | None]] = world.remembered.get("prompt_arguments") or {}
    assert name in listed, f"the prompt {name} is not listed; the prompts are {sorted(listed)}"
    expected = json.loads(names)
    assert sorted(listed[name]) == sorted(expected), (
        f"{name} takes the arguments {sorted(listed[name])}, expected {expected}"
    )
    optional = [arg for arg, required in listed[name].items() if required is not True]
    assert not optional, f"{name} does not mark {optional} required"


def _record_lists(data: Any) -> list[list[Any]]:
    """Every list of JSON objects carrying an "id" in ``data``, however nested."""
    if isinstance(data, dict):
        return [found for value in data.values() for found in _record_lists(value)]
    if isinstance(data, list):
        own = [data] if data and all(isinstance(i, dict) and "id" in i for i in data) else []
        return own + [found for item in data for found in _record_lists(item)]
    return []


@check(parsers.parse("the resource lists {count:d} records"))
def _lists(world: World, count: int) -> None:
    """REQ-06-12: a listing's records, wherever the server puts them: its longest list of
    objects with an "id" (the seed gives the listing's URI, not its answer)."""
    longest = max(map(len, _record_lists(result_data(world))), default=0)
    assert longest == count, f"the resource lists {longest} records, expected {count}"


@check(parsers.parse("the resource read is refused, neither empty nor with the data"))
def _refused_not_empty(world: World) -> None:
    """REQ-06-23 (seed): a user without read access gets "an appropriate error, not an empty
    response". A JSON-RPC error of any code is one; so is a body that is the SPEC-10 error
    object of an access refusal (resources have no isError). Records, even none, are not."""
    outcome = world.last()
    if outcome.error is not None:
        return
    data = outcome.structured
    if isinstance(data, dict) and data.get("error") is True:
        assert data.get("category") == "access", (
            f"the refusal's category is {data.get('category')!r}, not access: {outcome.text[:300]}"
        )
        return
    raise AssertionError(f"the resource answered instead of refusing: {outcome.text[:300]}")


@check(parsers.parse('each "{key}" of "{path}" is the number of fields Odoo has for its "{name}"'))
def _field_numbers(world: World, key: str, path: str, name: str) -> None:
    """REQ-04-33 (seed): the example's ``field_count`` is an integer; it counts the model's
    fields, as Odoo's ``fields_get`` describes them (the truth read from the fake, whichever
    user and transport the server runs as). Used by features/tools_models.feature."""
    items = lookup(result_data(world), path)
    assert isinstance(items, list) and items, f"{path} is no list of models: {items!r:.300}"
    for item in items:
        model, count = item.get(name), item.get(key)
        assert isinstance(count, int) and not isinstance(count, bool), (
            f"{key} of {model!r} is {count!r}, not an integer"
        )
        expected = len(world.control.call(model, "fields_get", attributes=["type"]))
        assert count == expected, f"{key} of {model!r} is {count}, Odoo has {expected} fields"
