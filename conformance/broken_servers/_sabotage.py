"""Tools to break the reference server in one place, for the kit's broken-server tests.

Patches go through public seams (module attributes, tool handlers) and are applied before
``build_server`` runs, so each variant differs from the reference by exactly one defect.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel


def patch_everywhere(original: Any, replacement: Any) -> int:
    """Replace ``original`` by ``replacement`` in every loaded odoo_mcp module namespace."""
    import odoo_mcp.adapter.server  # noqa: F401  (loads every module the server uses)

    count = 0
    for name, module in list(sys.modules.items()):
        if not (name == "odoo_mcp" or name.startswith("odoo_mcp.")) or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if value is original:
                setattr(module, attr, replacement)
                count += 1
    if count == 0:
        raise SystemExit(f"sabotage found nothing to patch for {original!r}")
    return count


def wrap_tool(name: str, post: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Post-process the result of one tool (as its JSON-ready dict)."""
    from odoo_mcp.toolsets import all_tools

    spec = next(spec for spec in all_tools() if spec.name == name)
    handler = spec.handler
    result_model: type[BaseModel] = spec.result_model

    async def broken(ctx: Any, params: Any) -> Any:
        result = await handler(ctx, params)
        data = post(result.model_dump(mode="json"))
        return result_model.model_construct(**data)

    object.__setattr__(spec, "handler", broken)


def post_resource(
    matches: Callable[[str], bool], post: Callable[[dict[str, Any]], dict[str, Any]]
) -> None:
    """Post-process the answer of the resources whose URI ``matches``."""
    from odoo_mcp.resources import reader

    original = reader.read_resource

    async def broken(rc: Any, uri: str) -> dict[str, Any]:
        data = await original(rc, uri)
        return post(data) if matches(uri) else data

    reader.read_resource = broken  # the adapter imports it from reader at each read


def as_odoo_pair(value: Any) -> Any:
    """A normalized many2one ``{"id", "name"}`` back as Odoo's raw ``[id, name]`` pair."""
    if isinstance(value, dict) and set(value) == {"id", "name"}:
        return [value["id"], value["name"]]
    return value


def serve() -> None:
    """The sabotaged server as the console script runs the reference (``console``): its own
    process's garbage-collector set-up, and ``exit_now`` at the end. A plain ``sys.exit``
    tore the interpreter down, module by module, 0.4 s after stdin closed that the kit waited
    for at every server's close (the reference: 0.02 s), over two hundred times a suite."""
    from odoo_mcp.cli import exit_now, main

    exit_now(main(["serve", *sys.argv[1:]], own_process=True))  # the target's [command_line] flags


Handler = Callable[[Any, Any], Awaitable[Any]]
