"""Benchmark: fake Odoo search_read of 80 records per second, in process and over loopback.

Run by hand (``python bench/fake_search_read.py``) or with ``tox -e bench``.  It prints one
line per protocol and mode; the numbers go into closing notes, never into timed tests.

In process, requests go through ``httpx2`` straight into the ASGI app (no socket); over
loopback, the fake is served by uvicorn on a free port and called with the same client.
Each protocol sends the request a real client would send for the same search_read.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import xmlrpc.client
from collections.abc import Awaitable, Callable
from typing import Any

import httpx2

from fake_odoo import FakeOdoo
from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.testing import in_process_client, quiet_deprecation_log, serve_fake_odoo

MODEL = "res.partner"
FIELDS = ["name", "email", "phone", "country_id", "parent_id", "write_date"]
LIMIT = 80
DB = "demo"


def _xmlrpc_body() -> bytes:
    params = (DB, 2, "admin", MODEL, "search_read", [[]], {"fields": FIELDS, "limit": LIMIT})
    return xmlrpc.client.dumps(params, "execute_kw").encode()


def _jsonrpc_body() -> dict[str, Any]:
    args = [DB, 2, "admin", MODEL, "search_read", [[]], {"fields": FIELDS, "limit": LIMIT}]
    params = {"service": "object", "method": "execute_kw", "args": args}
    return {"jsonrpc": "2.0", "method": "call", "params": params, "id": 1}


Call = Callable[[httpx2.AsyncClient], Awaitable[int]]


async def _xmlrpc(client: httpx2.AsyncClient) -> int:
    response = await client.post("/xmlrpc/2/object", content=_xmlrpc_body())
    (rows,), _ = xmlrpc.client.loads(response.content)
    return len(rows)


async def _jsonrpc(client: httpx2.AsyncClient) -> int:
    response = await client.post("/jsonrpc", json=_jsonrpc_body())
    return len(response.json()["result"])


async def _json2(client: httpx2.AsyncClient) -> int:
    headers = {"Authorization": f"bearer {ADMIN_API_KEY}", "X-Odoo-Database": DB}
    body = {"domain": [], "fields": FIELDS, "limit": LIMIT}
    response = await client.post(f"/json/2/{MODEL}/search_read", json=body, headers=headers)
    return len(response.json())


PROTOCOLS: dict[str, Call] = {"xmlrpc": _xmlrpc, "jsonrpc": _jsonrpc, "json2": _json2}


async def _measure(client: httpx2.AsyncClient, call: Call, seconds: float) -> tuple[float, float]:
    """Calls per second and median latency (ms) of sequential calls for ``seconds``."""
    rows = await call(client)  # warm-up, and proof that 80 rows come back
    if rows != LIMIT:
        raise SystemExit(f"expected {LIMIT} rows, got {rows}: raise --scale")
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        await call(client)
        latencies.append(time.perf_counter() - start)
    return len(latencies) / sum(latencies), statistics.median(latencies) * 1000


async def _run(seconds: float, scale: int) -> None:
    fake = FakeOdoo("19.0", scale=scale)
    async with in_process_client(fake) as client:
        for name, call in PROTOCOLS.items():
            rate, p50 = await _measure(client, call, seconds)
            print(f"in-process  {name:8} {rate:8.1f} search_read/s  p50 {p50:6.2f} ms")
    with serve_fake_odoo(fake=fake) as served:
        async with httpx2.AsyncClient(base_url=str(served.url)) as client:
            for name, call in PROTOCOLS.items():
                rate, p50 = await _measure(client, call, seconds)
                print(f"loopback    {name:8} {rate:8.1f} search_read/s  p50 {p50:6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--scale", type=int, default=5, help="demo data scale (>= 80 partners)")
    args = parser.parse_args()
    # Odoo 19 logs a deprecation warning per XML-RPC/JSON-RPC call: not what is measured here.
    quiet_deprecation_log()
    asyncio.run(_run(args.seconds, args.scale))


if __name__ == "__main__":
    main()
