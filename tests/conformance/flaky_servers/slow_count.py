"""The reference server whose ``odoo_core_count`` hangs past the target's call timeout: once
(the first process to call it, a marker file remembers) or always (``FLAKE=always``); or,
with ``FLAKE=exit``, whose process ends on its first count.

A hang is what a starved machine looks like from the kit: issue 38's runs failed scenarios
on a loaded runner because an answer came too late. The kit must call such a scenario
inconclusive, run it once more, and take the retry's verdict. A process that ends under a
call is the server's own doing, never the machine's: a failure, and no later scenario pays.
"""

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "conformance" / "broken_servers"))

from _sabotage import serve

from odoo_mcp.toolsets import all_tools

spec = next(spec for spec in all_tools() if spec.name == "odoo_core_count")
handler = spec.handler
marker = Path(os.environ["FLAKE_MARKER"])


async def slow(ctx: Any, params: Any) -> Any:
    if os.environ.get("FLAKE") == "exit" and not marker.exists():
        marker.touch()
        os._exit(3)
    if os.environ.get("FLAKE") == "always" or not marker.exists():
        marker.touch()
        await asyncio.sleep(60)  # far past the target's call_timeout
    return await handler(ctx, params)


object.__setattr__(spec, "handler", slow)
serve()
