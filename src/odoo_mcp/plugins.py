"""Subcommands other packages add to ``odoo-mcp``, found through installed entry points.

The server package imports none of the packages built on it: ``odoo-mcp demo`` comes from
the package that joins the server to the fake Odoo, which declares it in its
``pyproject.toml`` under the entry point group ``odoo_mcp.commands``
(``demo = "<module>:COMMAND"``).  The command's module is imported only when it runs (or
when ``--help`` describes it), so ``serve`` never loads the fake.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Final

__all__ = ["GROUP", "PluginCommand", "discover", "load"]

#: the entry point group a package declares its ``odoo-mcp`` subcommands in
GROUP: Final = "odoo_mcp.commands"


@dataclass(frozen=True)
class PluginCommand:
    """What an ``odoo_mcp.commands`` entry point names: its ``--help`` line and its runner.

    The runner gets the parsed arguments (the command takes every flag of ``serve``) and the
    environment, and returns the exit status.
    """

    help: str
    run: Callable[[argparse.Namespace, Mapping[str, str]], int]


def discover() -> dict[str, EntryPoint]:
    """The installed plugin commands by name (not loaded)."""
    return {point.name: point for point in entry_points(group=GROUP)}


def load(point: EntryPoint) -> PluginCommand:
    """Import the command an entry point names; refuses anything but a PluginCommand."""
    command = point.load()
    if not isinstance(command, PluginCommand):
        raise TypeError(f"entry point {point.value!r} of {GROUP} is not a PluginCommand")
    return command
