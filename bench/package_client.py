"""An MCP client application's view of an installed ``odoo-mcp demo`` (run by
``package_check.py`` with the clean environment's Python, from outside the checkout).

Initializes over stdio, lists the tools, reads two partners and checks that the server
process imports ``odoo_mcp`` from the installed package, not from a source tree.
"""

from __future__ import annotations

import os
import sys

import anyio
from mcp import Client, StdioServerParameters

import odoo_mcp


async def check(command: str) -> None:
    env = {"PATH": os.environ.get("PATH", ""), "ODOO_MCP_LOG_LEVEL": "warning"}
    params = StdioServerParameters(command=command, args=["demo"], env=env)
    async with Client(params, mode="legacy") as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert "odoo_core_search_read" in names, sorted(names)
        call = {"model": "res.partner", "fields": ["name"], "limit": 2, "order": "id"}
        result = await client.call_tool("odoo_core_search_read", call)
        assert not result.is_error, result
        assert result.structured_content is not None
        records = result.structured_content["records"]
        assert len(records) == 2 and all(r.get("name") for r in records), records
        print(f"initialize, tools/list ({len(names)} tools), search_read: {records}")


def main() -> int:
    where = os.path.dirname(odoo_mcp.__file__)
    assert "site-packages" in where, f"odoo_mcp imported from {where}, not the installed wheel"
    anyio.run(check, sys.argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
