"""Benchmark: odoo_core_search_read over stdio versus the same raw RPC, in one run.

For each protocol of Odoo 19 (xmlrpc, jsonrpc, json2) against one fake Odoo served on
loopback (``--scale`` demo data, so res.partner has more than 80 records):

* tool: ``odoo-mcp serve`` spawned over stdio with the SDK's client, N calls of
  ``odoo_core_search_read`` (80 records, default fields) after a warm-up;
* raw: the search_read the tool sends (same domain, fields and limit, read from the fake's
  call log), made N times with the server's own protocol client, no MCP in between.

Prints ms per call (mean and median) and the ratio tool / raw. Run by hand or ``tox -e bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

from mcp import Client, StdioServerParameters

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.testing import quiet_deprecation_log, serve_fake_odoo
from odoo_mcp.config import load_config
from odoo_mcp.connection import ConnectionManager

ARGS = {"model": "res.partner", "limit": 80}
FIELDS = ["id", "name", "display_name"]


async def _tool_times(url: str, protocol: str, calls: int) -> list[float]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "ODOO_URL": url,
        "ODOO_DB": "demo",
        "ODOO_USERNAME": "admin",
        "ODOO_API_KEY": ADMIN_API_KEY,
        "ODOO_PROTOCOL": protocol,
        "ODOO_MCP_LOG_LEVEL": "warning",
    }
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "odoo_mcp", "serve"], env=env
    )
    times: list[float] = []
    async with Client(params, mode="legacy") as client:
        for _ in range(10):  # warm-up: metadata cached, connections open
            result = await client.call_tool("odoo_core_search_read", ARGS)
            assert not result.is_error and result.structured_content["count"] == 80
        for _ in range(calls):
            start = time.perf_counter()
            await client.call_tool("odoo_core_search_read", ARGS)
            times.append(time.perf_counter() - start)
    return times


async def _raw_times(url: str, protocol: str, calls: int) -> list[float]:
    config = load_config(
        {"odoo_url": url, "odoo_db": "demo", "odoo_username": "admin",
         "odoo_api_key": ADMIN_API_KEY, "odoo_protocol": protocol},
        environ={},
    )  # fmt: skip
    connection = ConnectionManager(config.connection_settings())
    await connection.connect()
    times: list[float] = []
    try:
        for _ in range(10):
            rows = await connection.search_read("res.partner", [], FIELDS, limit=80)
            assert len(rows) == 80
        for _ in range(calls):
            start = time.perf_counter()
            await connection.search_read("res.partner", [], FIELDS, limit=80)
            times.append(time.perf_counter() - start)
    finally:
        await connection.close()
    return times


def _ms(values: list[float]) -> tuple[float, float]:
    return statistics.fmean(values) * 1000, statistics.median(values) * 1000


def main() -> None:
    quiet_deprecation_log()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--scale", type=int, default=5)
    options = parser.parse_args()
    print(f"phase: {options.calls} search_read calls per protocol, through the tool and raw",
          flush=True)  # fmt: skip
    print(f"{'protocol':9} {'tool ms (mean/p50)':>20} {'raw ms (mean/p50)':>20} {'ratio':>7}")
    with serve_fake_odoo("19.0", scale=options.scale) as fake:
        assert fake.url is not None
        for protocol in ("xmlrpc", "jsonrpc", "json2"):
            tool = _ms(asyncio.run(_tool_times(fake.url, protocol, options.calls)))
            raw = _ms(asyncio.run(_raw_times(fake.url, protocol, options.calls)))
            print(
                f"{protocol:9} {tool[0]:9.2f} /{tool[1]:7.2f}   {raw[0]:9.2f} /{raw[1]:7.2f} "
                f"{tool[0] / raw[0]:7.2f}"
            )


if __name__ == "__main__":
    main()
