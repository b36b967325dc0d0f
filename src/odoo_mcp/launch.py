"""REQ-01-07: the ``odoo-mcp`` console script and ``python -m odoo_mcp``.

This module imports nothing of the server: the CLI and everything it loads (the SDK, the
models, the tools) are imported with the collector paused (issue 41,
``odoo_mcp.adapter.gc_tuning``), then ``odoo_mcp.cli.console`` runs as before. Importing
``odoo_mcp.cli`` (the tests, the kit's fork server) leaves the collector alone.
"""

from __future__ import annotations

from typing import NoReturn

from odoo_mcp.adapter.gc_tuning import collector_paused

__all__ = ["console"]


def console() -> NoReturn:
    """REQ-01-07: load the CLI with the collector paused, then run it."""
    with collector_paused():
        from odoo_mcp.cli import console as run_cli
    run_cli()
