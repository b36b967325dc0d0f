"""Issue 37, item 4: one tool call costs a bounded number of Odoo metadata calls.

A domain of hundreds of leaves on a model Odoo does not have cost one ``fields_get`` per leaf
(400 leaves: 401 calls), every time: the "no such model" answer was not cached, and each
identifier was looked up. Now a lasting refusal is cached per Odoo user with the field cache's
refreshes, an unknown model answers the call after one lookup, and a call needing more
models' fields than the limit is refused with a validation error. Calls are counted in the
in-process fake's call log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult

from fake_odoo.handle import FakeOdoo
from mcp_servers import error_body, fake_server
from odoo_mcp.connection import CallOutcome, OdooCalls, OdooRpcError, OdooVersion, parse_version
from odoo_mcp.registry import ModelRegistry
from odoo_mcp.registry.lookups import MAX_MODELS_PER_CALL, MAX_MODELS_PER_DOMAIN
from odoo_mcp.safety.blocklists import DEFAULT_MODEL_BLOCKLIST, EXTRA_DEFAULT_MODEL_BLOCKLIST

pytestmark = pytest.mark.anyio

MISSING = "no.such.model"


def _leaves(count: int) -> list[list[Any]]:
    return [[f"field_{i}", "=", i] for i in range(count)]


def _fields_gets(fake: FakeOdoo) -> int:
    return fake.call_counts(method="fields_get")


def _paths_to_other_models(fake: FakeOdoo, model: str, *, many2one_only: bool) -> list[str]:
    """One path per model reachable from ``model`` through relations (breadth first, the
    default blocked models left out), each ending in ``id``: checking it needs that model's
    fields. Asked as superuser outside the log."""
    blocked = set(DEFAULT_MODEL_BLOCKLIST) | set(EXTRA_DEFAULT_MODEL_BLOCKLIST)
    seen: dict[str, tuple[str, ...]] = {model: ()}
    queue = [model]
    while queue:
        current = queue.pop(0)
        try:
            fields = fake.call(current, "fields_get", attributes=["type", "relation"])
        except Exception:  # a comodel the fake does not serve: a leaf, looked up all the same
            continue
        for name, spec in sorted(fields.items()):
            relation = spec.get("relation")
            if not relation or relation in seen or relation in blocked:
                continue
            if many2one_only and spec.get("type") != "many2one":
                continue
            seen[relation] = (*seen[current], name)
            queue.append(relation)
    return [".".join((*path, "id")) for path in seen.values() if path]


async def _execute(client: Client, model: str, domain: list[Any]) -> CallToolResult:
    arguments = {"model": model, "method": "search_count", "args": [domain]}
    return await client.call_tool("odoo_core_execute", arguments)


@pytest.mark.req("REQ-07-12")
@pytest.mark.parametrize(("mode", "leaves"), [("readonly", 100), ("full", 100), ("readonly", 400)])
async def test_execute_on_a_missing_model_costs_one_lookup_then_none(
    mode: str, leaves: int
) -> None:
    """(b) One fields_get answers the call (the model is not there: none of the leaves is
    looked up, the method is not sent); (a) the same call again costs no Odoo call. It was
    leaves + 1 calls, each time."""
    fake = FakeOdoo("19.0")
    async with Client(fake_server(fake, mode=mode), mode="legacy") as client:
        fake.reset_calls()
        first = await _execute(client, MISSING, _leaves(leaves))
        assert (_fields_gets(fake), len(fake.calls)) == (1, 1), fake.calls[:3]
        fake.reset_calls()
        again = await _execute(client, MISSING, _leaves(leaves))
        assert fake.calls == []
    body = error_body(first)
    assert (body["code"], body["category"]) == ("MODEL_NOT_FOUND", "not_found")
    assert body["details"] == {"model": MISSING, "method": "search_count"}
    assert error_body(again) == body


@pytest.mark.req("REQ-07-12")
@pytest.mark.parametrize("tool", ["odoo_core_search_read", "odoo_core_count"])
async def test_the_search_tools_keep_the_missing_model_answer(tool: str) -> None:
    """(a) search_read and count already stopped at the first lookup; now the second call
    on the missing model asks Odoo nothing."""
    fake = FakeOdoo("19.0")
    async with Client(fake_server(fake), mode="legacy") as client:
        fake.reset_calls()
        first = await client.call_tool(tool, {"model": MISSING, "domain": _leaves(100)})
        assert _fields_gets(fake) == len(fake.calls) == 1
        fake.reset_calls()
        again = await client.call_tool(tool, {"model": MISSING, "domain": _leaves(100)})
        assert fake.calls == []
    assert error_body(first)["code"] == error_body(again)["code"] == "MODEL_NOT_FOUND"


@pytest.mark.req("REQ-07-11")
async def test_a_domain_over_more_models_than_the_limit_is_refused() -> None:
    """(c) search_read's domain through sale.order's many2one fields names 18 models: the
    17th is not looked up, the domain is refused (no partial check, no search sent)."""
    fake = FakeOdoo("19.0")
    paths = _paths_to_other_models(fake, "sale.order", many2one_only=True)
    assert len(paths) + 1 > MAX_MODELS_PER_DOMAIN  # the model itself is one of them
    domain = [[path, "!=", False] for path in paths]
    async with Client(fake_server(fake), mode="legacy") as client:
        fake.reset_calls()
        result = await client.call_tool(
            "odoo_core_search_read", {"model": "sale.order", "domain": domain}
        )
        assert _fields_gets(fake) == len(fake.calls) == MAX_MODELS_PER_DOMAIN
        # a domain under the limit passes
        fake.reset_calls()
        fine = await client.call_tool(
            "odoo_core_count", {"model": "sale.order", "domain": domain[:8]}
        )
        assert not fine.is_error, fine
    body = error_body(result)
    assert (body["code"], body["category"]) == ("TOO_MANY_MODELS", "validation")
    assert str(MAX_MODELS_PER_DOMAIN) in body["message"]


@pytest.mark.req("REQ-07-11")
async def test_an_execute_call_over_more_models_than_the_limit_is_refused() -> None:
    """(c) execute's references through every relation of sale.order reach more models than
    the call's limit: exactly the limit's fields_get, then the validation error, and the
    method is not sent."""
    fake = FakeOdoo("19.0")
    paths = _paths_to_other_models(fake, "sale.order", many2one_only=False)
    assert len(paths) + 1 > MAX_MODELS_PER_CALL
    domain = [[path, "!=", False] for path in paths]
    async with Client(fake_server(fake), mode="legacy") as client:
        fake.reset_calls()
        result = await _execute(client, "sale.order", domain)
        assert _fields_gets(fake) == len(fake.calls) == MAX_MODELS_PER_CALL
    body = error_body(result)
    assert (body["code"], body["category"]) == ("TOO_MANY_MODELS", "validation")
    assert body["details"]["limit"] == MAX_MODELS_PER_CALL


@pytest.mark.req("REQ-07-12")
async def test_a_model_installed_later_is_found_after_the_listing_shows_it() -> None:
    """The missing answer is kept (no call) until Odoo disagrees: once the model listing
    shows the model, the registry forgets it was missing and the model is found."""
    fake = FakeOdoo("19.0", without=("stock",))
    async with Client(fake_server(fake), mode="legacy") as client:
        missing = await _execute(client, "stock.picking", _leaves(5))
        assert error_body(missing)["code"] == "MODEL_NOT_FOUND"
        fake.reset(without=())  # the stock module is installed
        fake.reset_calls()
        assert error_body(await _execute(client, "stock.picking", _leaves(5)))["code"] == (
            "MODEL_NOT_FOUND"
        )
        assert fake.calls == []  # from memory
        listed = await client.call_tool("odoo_core_list_models", {"filter": "stock.picking"})
        entries = {entry["model"]: entry for entry in listed.structured_content["models"]}  # type: ignore[index]
        assert isinstance(entries["stock.picking"]["field_count"], int)
        found = await _execute(client, "stock.picking", [["state", "=", "done"]])
    assert not found.is_error, found


class TwoUsers(OdooCalls):
    """An Odoo where uid 7 may not describe ``x.thing`` and has no ``x.gone``, while uid 8
    sees both; ``uid`` says who is calling (as the HTTP caller router does)."""

    def __init__(self) -> None:
        self.uid = 7
        self.calls: list[tuple[int, str]] = []
        self.installed: set[str] = set()  # models uid 7 sees from now on

    @property
    def odoo_version(self) -> OdooVersion | None:
        return parse_version("19.0")

    async def call(
        self,
        model: str,
        method: str,
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> CallOutcome:
        self.calls.append((self.uid, model))
        if self.uid == 7 and model == "x.thing":
            message = "You are not allowed to access 'Thing' (x.thing) records."
            raise OdooRpcError(message, "odoo.exceptions.AccessError", model=model)
        if self.uid == 7 and model == "x.gone" and model not in self.installed:
            raise OdooRpcError(f"Object {model} doesn't exist", "odoo.exceptions.UserError")
        return CallOutcome({"name": {"type": "char", "string": "Name"}}, "json2")


@pytest.mark.req("REQ-07-12")
async def test_refusals_are_kept_per_user_and_dropped_with_the_fields() -> None:
    """(a) A refusal is kept for the user Odoo gave it (no second call), never answers for
    another user, and goes with ``invalidate`` and ``clear`` like the fields."""
    odoo = TwoUsers()
    registry = ModelRegistry(odoo)
    for model in ("x.thing", "x.gone"):
        for _ in range(2):
            with pytest.raises(OdooRpcError):
                await registry.get_fields(model)
    assert odoo.calls == [(7, "x.thing"), (7, "x.gone")]
    assert registry.known_missing("x.gone") and not registry.known_missing("x.thing")
    assert await registry.model_exists("x.thing") and not await registry.model_exists("x.gone")
    assert len(odoo.calls) == 2  # both answered by the refusals

    odoo.uid = 8
    assert not registry.known_missing("x.gone")
    assert "name" in await registry.get_fields("x.thing")
    assert "name" in await registry.get_fields("x.gone")
    odoo.uid = 7
    with pytest.raises(OdooRpcError):
        await registry.get_fields("x.gone")
    assert len(odoo.calls) == 4  # uid 8's two lookups only

    odoo.calls.clear()
    odoo.installed.add("x.gone")  # installed in Odoo: the registry keeps its answer ...
    with pytest.raises(OdooRpcError):
        await registry.get_fields("x.gone")
    assert odoo.calls == []
    registry.invalidate("x.gone")  # ... until refreshed (for every user)
    assert "name" in await registry.get_fields("x.gone")
    registry.clear()
    with pytest.raises(OdooRpcError):
        await registry.get_fields("x.thing")
    assert odoo.calls == [(7, "x.gone"), (7, "x.thing")]
