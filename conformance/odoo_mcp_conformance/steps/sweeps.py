"""Sweeps (issue 36): the same records through every path that returns records.

A rule checked in one place lets a server break it anywhere else. A sweep reads one model's
records through each tool and resource that returns them (search_read on a first and a later
page, read, execute's read and search_read with and without a field list, default_get, the
record resource and a listing), so that the invariants (``invariants/``), which judge every
answer, see each path. The sweep's own checks only say that each path answered with records
(each judging the requirement of its path): what the records must look like is the
invariants' verdict.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from mcp import MCPError
from pytest_bdd import parsers, when

from odoo_mcp_conformance.checks import check, shown
from odoo_mcp_conformance.world import World

__all__: list[str] = []

_PAGE = 3
_SWEEP = "sweep"
#: the requirement each path's answer belongs to (its own check judges only that one)
_OWNER = {
    "search_read page 1": "REQ-04-01", "search_read page 2": "REQ-04-01",
    "read": "REQ-04-06", "execute read": "REQ-04-25", "execute search_read": "REQ-04-25",
    "execute search_read with fields": "REQ-04-25", "default_get": "REQ-04-30",
    "record resource": "REQ-06-09", "listing": "REQ-06-11",
}  # fmt: skip


def _records(body: Any, key: str) -> list[dict[str, Any]]:
    value = body.get(key) if isinstance(body, dict) else None
    return [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def _resource(world: World, uri: str) -> Any:
    """A resource's parsed contents, or None when it was refused or is not JSON."""
    try:
        answer = world.server().request(lambda c: c.read_resource(uri))
    except MCPError:
        return None
    text = getattr(answer.contents[0], "text", "") if answer.contents else ""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


@when(parsers.parse('the client reads "{model}" records through every path'))
def _sweep(world: World, model: str) -> None:
    """Every path that returns records, each on the same model; what each gave is kept for
    the check below (how many records, or why none)."""
    seen: dict[str, int | str] = {}

    def tool(path: str, name: str, arguments: dict[str, Any], key: str = "records") -> Any:
        outcome = world.call(name, arguments)
        body = outcome.structured
        if outcome.error is not None or outcome.is_error:
            seen[path] = f"refused: {outcome.error or shown(body)}"
            return None
        seen[path] = len(_records(body, key)) if key else 1
        return body

    first = tool("search_read page 1", "odoo_core_search_read",
                 {"model": model, "fields": ["*"], "limit": _PAGE})  # fmt: skip
    tool("search_read page 2", "odoo_core_search_read",
         {"model": model, "fields": ["*"], "limit": _PAGE, "offset": _PAGE})  # fmt: skip
    ids = [r["id"] for r in _records(first, "records") if isinstance(r.get("id"), int)]
    tool("read", "odoo_core_read", {"model": model, "ids": ids or [1]})
    execute: dict[str, Any] = {"model": model, "method": "read", "args": [ids or [1]]}
    tool("execute read", "odoo_core_execute", execute, key="result")
    execute = {"model": model, "method": "search_read", "args": [[]], "kwargs": {"limit": _PAGE}}
    tool("execute search_read", "odoo_core_execute", execute, key="result")
    execute = {"model": model, "method": "search_read", "args": [[]],
               "kwargs": {"fields": ["display_name", "create_date"], "limit": _PAGE}}  # fmt: skip
    tool("execute search_read with fields", "odoo_core_execute", execute, key="result")
    tool("default_get", "odoo_core_default_get", {"model": model}, key="")
    if "resources" not in world.target.capabilities.features:
        world.remembered[_SWEEP] = seen  # SPEC-06 resources are a capability a target claims
        return
    for record_id in ids[:2]:
        body = _resource(world, f"odoo://record/{model}/{record_id}")
        seen["record resource"] = 1 if isinstance(body, dict) else "refused or not JSON"
    domain = quote(json.dumps([["id", "in", ids]])) if ids else quote("[]")
    listing = _resource(world, f"odoo://record/{model}?domain={domain}&limit={_PAGE}")
    seen["listing"] = 1 if listing is not None else "refused or not JSON"
    world.remembered[_SWEEP] = seen


@check(parsers.parse("every path answered with records"))
def _every_path(world: World) -> None:
    """Each path answered (else the invariants had nothing of it to judge): a check of the
    path's own requirement, never of the scenario's others."""
    seen: dict[str, int | str] = world.remembered.get(_SWEEP, {})
    assert seen, "no sweep ran in this scenario"
    for path, got in seen.items():
        owner = _OWNER.get(path)
        # a later page may be empty (a model with few records): it only must not be refused
        good = isinstance(got, int) and (got > 0 or path.endswith("page 2"))
        world.checks.expect(
            good,
            f"{path} gave {got if not isinstance(got, int) else 'no record'}",
            label=path,
            requirements=(owner,) if owner else (),
            anywhere=owner is not None,  # the path's own requirement, whatever the tags
        )


@when(parsers.parse('the client tries "{model}" through every path'))
def _try_blocked(world: World, model: str) -> None:
    """A model the safety configuration blocks, asked for through every tool and resource
    that names a model; the invariant "blocked models never reachable" judges each answer on
    the requirement of its path and of the list that blocks the model."""
    calls: list[tuple[str, dict[str, Any]]] = [
        ("odoo_core_search_read", {"model": model, "limit": 1}),
        ("odoo_core_read", {"model": model, "ids": [1]}),
        ("odoo_core_count", {"model": model}),
        ("odoo_core_fields_get", {"model": model}),
        ("odoo_core_name_get", {"model": model, "ids": [1]}),
        ("odoo_core_default_get", {"model": model}),
        ("odoo_core_execute", {"model": model, "method": "read", "args": [[1]]}),
        ("odoo_core_execute", {"model": model, "method": "search_read", "args": [[]]}),
    ]
    for name, arguments in calls:
        world.call(name, arguments)
    if "resources" in world.target.capabilities.features:
        for uri in (f"odoo://record/{model}/1", f"odoo://record/{model}?limit=1",
                    f"odoo://model/{model}/fields"):  # fmt: skip
            _resource(world, uri)
