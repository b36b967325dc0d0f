"""Load test: concurrent MCP sessions of two Odoo users on one HTTP server (issue 6).

One fake Odoo 19.0 served on loopback; one ``odoo-mcp serve --transport http --http-auth on``
process. ``--sessions`` sessions (default 50) open at once, alternately as admin (a bare API
key) and as demo (``login:apikey``); each makes ``--calls`` tool calls (default 20) cycling
through search_read, count, read and fields_get. Every answer is checked against what its
user may see (admin counts 39 sale orders, demo 17; demo is refused account.payment), so a
call answered for the wrong user counts as an error.

Prints: sessions, calls, errors (wrong answers, exceptions), latency p50/p99/max per call, and
wall time. Run by hand (``python bench/http_load.py``) or ``tox -e bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from fake_odoo.demo import ADMIN_API_KEY, DEMO_API_KEY
from fake_odoo.testing import serve_fake_odoo
from odoo_mcp_demo.http_process import http_server_process

#: (tool, arguments, check of the structured answer) per user; the cycle of one session
CALLS: dict[str, list[tuple[str, dict[str, Any], Any]]] = {
    "admin": [
        ("odoo_core_count", {"model": "sale.order"}, lambda r, e: not e and r["count"] == 39),
        ("odoo_core_search_read", {"model": "res.partner", "limit": 5},
         lambda r, e: not e and len(r["records"]) == 5),
        ("odoo_core_search_read", {"model": "account.payment", "fields": ["name"]},
         lambda r, e: not e),
        ("odoo_core_read", {"model": "res.partner", "ids": [1]},
         lambda r, e: not e and r["records"][0]["id"] == 1),
        ("odoo_core_fields_get", {"model": "sale.order"}, lambda r, e: not e),
    ],
    "demo": [
        ("odoo_core_count", {"model": "sale.order"}, lambda r, e: not e and r["count"] == 17),
        ("odoo_core_search_read", {"model": "res.partner", "limit": 5},
         lambda r, e: not e and len(r["records"]) == 5),
        ("odoo_core_search_read", {"model": "account.payment", "fields": ["name"]},
         lambda r, e: e and r["category"] == "access"),
        ("odoo_core_read", {"model": "res.partner", "ids": [1]},
         lambda r, e: not e and r["records"][0]["id"] == 1),
        ("odoo_core_fields_get", {"model": "sale.order"}, lambda r, e: not e),
    ],
}  # fmt: skip
TOKENS = {"admin": ADMIN_API_KEY, "demo": f"demo:{DEMO_API_KEY}"}


async def _session(
    url: str, user: str, calls: int, latencies: list[float], errors: list[str]
) -> None:
    try:
        async with (
            httpx2.AsyncClient(
                headers={"Authorization": f"Bearer {TOKENS[user]}"}, timeout=60
            ) as http,
            Client(streamable_http_client(url, http_client=http), mode="legacy") as c,
        ):
            for index in range(calls):
                tool, arguments, check = CALLS[user][index % len(CALLS[user])]
                started = time.perf_counter()
                result = await c.call_tool(tool, arguments)
                latencies.append(time.perf_counter() - started)
                answer = json.loads(result.content[0].text)  # type: ignore[union-attr]
                if not check(answer, bool(result.is_error)):
                    errors.append(f"{user} {tool}: {str(answer)[:200]}")
    except Exception as exc:  # a failed session is an error, and the run goes on
        errors.append(f"{user} session: {type(exc).__name__}: {exc}")


async def run(url: str, sessions: int, calls: int) -> tuple[list[float], list[str], float]:
    latencies: list[float] = []
    errors: list[str] = []
    started = time.perf_counter()
    await asyncio.gather(
        *(
            _session(url, ("admin", "demo")[i % 2], calls, latencies, errors)
            for i in range(sessions)
        )
    )
    return latencies, errors, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--calls", type=int, default=20)
    args = parser.parse_args()
    # the server logs each refused demo call (REQ-10-18) at warning: not what this measures
    print("phase: starting the fake Odoo and odoo-mcp over HTTP", flush=True)
    with (
        serve_fake_odoo("19.0") as fake,
        http_server_process(str(fake.url), "--http-auth", "on", ODOO_MCP_LOG_LEVEL="error") as base,
    ):
        print(f"phase: {args.sessions} sessions x {args.calls} calls", flush=True)
        latencies, errors, wall = asyncio.run(run(f"{base}/mcp", args.sessions, args.calls))
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else float("nan")
    print(f"sessions {args.sessions} (admin and demo alternately), calls {len(ms)} "
          f"of {args.sessions * args.calls}, errors {len(errors)}")  # fmt: skip
    if ms:
        print(f"latency ms per call: p50 {statistics.median(ms):.1f}, p99 {p99:.1f}, "
              f"max {ms[-1]:.1f}; wall {wall:.1f} s, {len(ms) / wall:.0f} calls/s")  # fmt: skip
    for error in errors[:10]:
        print("  error:", error)
    raise SystemExit(1 if errors else 0)


if __name__ == "__main__":
    main()
