"""Steps specific to the read features (generic ones live in ``common``)."""

from __future__ import annotations

import json
import re

from pytest_bdd import given, parsers, when

from odoo_mcp_conformance.checks import check, shown
from odoo_mcp_conformance.jsonpath import MISSING, lookup
from odoo_mcp_conformance.steps.common import _tool, result_data
from odoo_mcp_conformance.world import World, not_applicable


@given(parsers.parse("Odoo is version {major:d} or later"))
def _version_at_least(world: World, major: int) -> None:
    """Version-specific behaviour (name_get is gone from 17): N/A on an older Odoo."""
    version = str(world.control.info()["version"])
    if int(version.split(".")[0].split("~")[-1]) < major:
        not_applicable(f"Odoo {version} has no behaviour of Odoo {major} and later")


@given(parsers.parse("Odoo is older than {major:d}"))
def _version_before(world: World, major: int) -> None:
    """Behaviour a later version removed (20's read_group signature, check_access_rights):
    N/A from that version on."""
    version = str(world.control.info()["version"])
    if int(version.split(".")[0].split("~")[-1]) >= major:
        not_applicable(f"Odoo {version} has no behaviour of the versions before {major}")


@given("the demo user may not post invoices")
def _demo_may_not_post(world: World) -> None:
    """The demo data's rights differ by version: 17's demo user is also Invoicing / Billing
    (batch 4's captures), 16's and 19's are not; where it may post, there is no refusal."""
    info = world.control.info()
    demo = info["credentials"]["demo"]["uid"]
    billing = world.control.call(
        "res.groups", "search_read", [["name", "=", "Billing"]], ["user_ids"]
    )
    if any(demo in group["user_ids"] for group in billing):
        not_applicable(
            f"Odoo {info['version']}'s demo user may post invoices (Invoicing / Billing)"
        )


@when(parsers.parse('the client calls "{tool}" on "{model}" with the ids {first:d} to {last:d}'))
def _call_id_range(world: World, tool: str, model: str, first: int, last: int) -> None:
    """Size limits on id lists (read: 100, name_get: 200) without 200 numbers in the file."""
    world.call(tool, {"model": model, "ids": list(range(first, last + 1))})


@check(parsers.parse('the result "{path}" has exactly the keys "{keys}"'))
def _path_exact_keys(world: World, path: str, keys: str) -> None:
    actual = lookup(result_data(world), path)
    expected = {key.strip() for key in keys.split(",") if key.strip()}
    assert isinstance(actual, dict), (
        f"{path} is not an object: {json.dumps(actual, default=repr)[:300]}"
    )
    assert set(actual) == expected, f"{path} has the keys {sorted(actual)}, expected {expected}"


@check(parsers.parse('the result "{count_path}" counts the items of "{path}"'))
def _count_of(world: World, count_path: str, path: str) -> None:
    data = result_data(world)
    count, items = lookup(data, count_path), lookup(data, path)
    assert count is not MISSING, f"the result has no {count_path!r}"
    assert isinstance(items, list | dict), f"{path} is not a list or object: {items!r}"
    assert count == len(items), f"{count_path} is {count!r}, but {path} has {len(items)} items"


@check(
    parsers.parse(
        "the search returns at most {most:d} records or is rejected with JSON-RPC error -32602"
    )
)
def _capped_or_refused(world: World, most: int) -> None:
    """REQ-04-02 'Enforce the maximum limit (500) even if the caller requests more': clamping
    the limit and refusing it as a schema violation (REQ-10-16's -32602) both enforce it."""
    outcome = world.last()
    if outcome.error is not None:
        assert outcome.error.code == -32602, f"JSON-RPC error {outcome.error.code}, not -32602"
        return
    assert not outcome.is_error, f"the tool reported an error: {outcome.text[:300]}"
    data = result_data(world)
    records, limit = data.get("records"), data.get("limit")
    assert isinstance(records, list), f"no records list in {json.dumps(data)[:300]}"
    assert len(records) <= most, f"{len(records)} records came back, more than {most}"
    assert not isinstance(limit, int) or limit <= most, f"the result says limit {limit}"


@check(parsers.parse('the result "{path}" takes one of the values {values}'))
def _one_of(world: World, path: str, values: str) -> None:
    actual, allowed = lookup(result_data(world), path), json.loads(values)
    assert actual in allowed, f"{path} is {actual!r}, expected one of {allowed}"


@check(parsers.parse('the tool "{name}" description matches the pattern "{pattern}"'))
def _description_pattern(world: World, name: str, pattern: str) -> None:
    """A description says something in words of its own choosing (re.search)."""
    tool = _tool(world, name)
    assert tool is not None, f"{name} is not listed"
    text = tool.description or ""
    assert re.search(pattern, text), f"{name} description does not match {pattern!r}"


def _plain(text: str) -> str:
    return " ".join(text.split())


@check(parsers.parse('the result "{path}" gives every field the help Odoo has for it on "{model}"'))
def _helps(world: World, path: str, model: str) -> None:
    """REQ-04-23: each field's summary includes its help, where Odoo has one (the seed's
    example shows ``help`` on name and partner_id). The text is Odoo's own, whole or cut
    short (a concise summary may end it with an ellipsis); whitespace does not count. Odoo's
    own fields_get, read through the fake's control API, says which fields have a help."""
    fields = lookup(result_data(world), path)
    assert isinstance(fields, dict), f"{path} is not an object: {shown(fields)}"
    truth = world.control.call(model, "fields_get", attributes=["help"])
    helped = {
        name: _plain(info["help"])
        for name, info in truth.items()
        if name in fields and isinstance(info.get("help"), str) and info["help"].strip()
    }
    assert helped, f"Odoo has no help text on the fields of {model} the result lists"
    wrong: list[str] = []
    for name, odoo_help in helped.items():
        summary = fields[name] if isinstance(fields[name], dict) else {}
        given = summary.get("help")
        if not isinstance(given, str) or not given.strip():
            wrong.append(f"{name} has no help (Odoo's: {odoo_help[:60]!r})")
            continue
        text = _plain(given).rstrip(".…").rstrip()
        if not (odoo_help.startswith(text) or odoo_help in _plain(given)):
            wrong.append(f"{name}'s help {given[:60]!r} is not Odoo's {odoo_help[:60]!r}")
    assert not wrong, f"{len(wrong)} of the {len(helped)} fields with a help in Odoo: " + "; ".join(
        wrong[:4]
    )
