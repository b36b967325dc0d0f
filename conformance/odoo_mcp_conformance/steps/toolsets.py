"""Steps of SPEC-03 that need more than results: a change of the tools while a client is
connected (REQ-03-17/18)."""

from __future__ import annotations

from mcp.types import ToolListChangedNotification
from pytest_bdd import parsers, when

from odoo_mcp_conformance.checks import check
from odoo_mcp_conformance.world import World


@when(parsers.parse('Odoo loses its "{module}" module and drops the next connection'))
def _loses_module(world: World, module: str) -> None:
    """The same Odoo, now without ``module``; the server's next call is refused at the TCP
    level once, so that it reconnects and may find the change. The plugin restores every
    module when the scenario ends."""
    removed = world.control.uninstall([module])
    if module not in removed:
        raise AssertionError(f"the fake still has {module!r} installed: {removed}")
    world.control.inject_fault(kind="refuse", count=1)
    world.faulted = True


def _list_changes(world: World) -> int:
    notes = world.server().notifications
    return sum(1 for note in notes if isinstance(note, ToolListChangedNotification))


_LIST_CHANGED = "the client is sent notifications/tools/list_changed within {seconds:g} seconds"


@check(parsers.parse(_LIST_CHANGED))
def _list_changed(world: World, seconds: float) -> None:
    arrived = world.server().wait_for(lambda: _list_changes(world) > 0, timeout=seconds)
    assert arrived, f"no notifications/tools/list_changed within {seconds} s"
