"""Benchmark (issue 17): one tool call over stdio versus the same raw RPC, side by side.

The fake Odoo runs in its own process (as a real Odoo would: the driver's raw client does
not share its interpreter). For each answer size (``--sizes``, default 5, 80 and 500
res.partner records with many2one, datetime and html fields) and each tool
(``odoo_core_search_read``, ``odoo_core_read``), the rounds are interleaved: one call through
each server under test (``--source DIR``, repeatable: a checkout whose ``src`` the spawned
``python -m odoo_mcp serve`` imports; none: the installed package), then the raw call the tool
makes (same protocol, model, fields and limit, through the server's own connection layer).

Prints the median ms of each and the ratio to raw. ``--bare`` adds the last server driven by
a bare JSON-lines client (write the request, ``json.loads`` the answer, nothing validated):
the difference to the SDK's client is what the client side costs. ``--passthrough`` adds the
yardstick of issue 30 (``bench/passthrough_server.py``: the same JSON-2 call behind one tool on
the same SDK, rows unchanged) and prints ours / passthrough and passthrough / raw, through
the SDK's client and, with ``--bare``, a bare one (search_read over JSON-2 only). With
``--bare`` each case also prints the CPU (``/proc``, user + system) each bare-driven server
spent per measured call, ours and the passthrough's: the server's own cost, which other work
on the machine disturbs less than wall time (issue 41; 10 ms ticks, so 100+ calls).
``--all-fields`` asks every non-binary field of the model (107 on res.partner) instead of
``FIELDS``: wide records. Run by hand::

    python bench/percall.py --source ../before --source . --calls 100 [--bare] [--passthrough]
        [--all-fields]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from fake_odoo.demo import ADMIN_API_KEY
from odoo_mcp.config import load_config
from odoo_mcp.connection import ConnectionManager

MODEL = "res.partner"
READ_MAX_IDS = 100
#: many2one, datetime and html fields, as the issue asks, beside plain ones
FIELDS = ["id", "name", "email", "parent_id", "country_id", "write_date", "comment", "active"]


def start_fake(scale: int) -> tuple[subprocess.Popen[str], str]:
    """``fake-odoo serve`` on a free port, in its own process; returns it and its URL."""
    command = [sys.executable, "-u", "-c", "from fake_odoo.cli import main; main()", "serve"]
    command += ["--port", "0", "--scale", str(scale), "--log-level", "warning"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    for line in process.stdout:
        found = re.search(r"(http://127\.0\.0\.1:\d+)", line)
        if found:  # keep reading its output, so that a full pipe never blocks it
            threading.Thread(target=process.stdout.read, daemon=True).start()
            return process, found.group(1)
        if time.monotonic() > deadline:
            break
    process.kill()
    raise SystemExit("the fake Odoo did not say where it listens")


def passthrough_params(url: str) -> StdioServerParameters:
    env = {"PATH": os.environ.get("PATH", ""), "ODOO_URL": url, "ODOO_DB": "demo",
           "ODOO_API_KEY": ADMIN_API_KEY}  # fmt: skip
    script = str(Path(__file__).with_name("passthrough_server.py"))
    return StdioServerParameters(command=sys.executable, args=[script], env=env)


def server_params(url: str, protocol: str, source: str | None) -> StdioServerParameters:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "ODOO_URL": url,
        "ODOO_DB": "demo",
        "ODOO_USERNAME": "admin",
        "ODOO_API_KEY": ADMIN_API_KEY,
        "ODOO_PROTOCOL": protocol,
        "ODOO_MCP_LOG_LEVEL": "warning",
        "ODOO_MCP_RATE_LIMIT": "false",
        "ODOO_MCP_INTROSPECT": "false",
    }
    if source is not None:
        env["PYTHONPATH"] = str(Path(source, "src").resolve())
    return StdioServerParameters(command=sys.executable, args=["-m", "odoo_mcp", "serve"], env=env)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class BareClient:
    """An MCP client that only frames and parses JSON lines: no schema, no model validation."""

    def __init__(self, params: StdioServerParameters) -> None:
        self.params = params
        self.process: asyncio.subprocess.Process | None = None
        self.next_id = 0

    async def __aenter__(self) -> BareClient:
        self.process = await asyncio.create_subprocess_exec(
            self.params.command, *self.params.args, env=self.params.env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, limit=2**26,
        )  # fmt: skip
        info = {"name": "bare", "version": "1"}
        await self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                          "clientInfo": info})  # fmt: skip
        await self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self

    async def __aexit__(self, *_exc: object) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.close()
        await self.process.wait()

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def send(self, message: dict[str, Any]) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        await self.process.stdin.drain()

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self.process is not None and self.process.stdout is not None
        self.next_id += 1
        await self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            answer: dict[str, Any] = json.loads(await self.process.stdout.readline())
            if answer.get("id") == self.next_id:
                return answer

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        answer = await self.request("tools/call", {"name": name, "arguments": arguments})
        assert not answer["result"].get("isError"), answer
        return answer


async def bench(
    url: str, protocol: str, sources: list[str | None], sizes: list[int], calls: int,
    bare: bool = False, passthrough: bool = False, all_fields: bool = False,
) -> None:  # fmt: skip
    config = load_config(
        {"odoo_url": url, "odoo_db": "demo", "odoo_username": "admin",
         "odoo_api_key": ADMIN_API_KEY, "odoo_protocol": protocol},
        environ={},
    )  # fmt: skip
    async with AsyncExitStack() as stack:
        raw = ConnectionManager(config.connection_settings())
        await raw.connect()
        stack.push_async_callback(raw.close)
        clients = [
            await stack.enter_async_context(Client(server_params(url, protocol, s), mode="legacy"))
            for s in sources
        ]
        names = [s or "installed" for s in sources]
        bare_client = None
        if bare:
            bare_client = await stack.enter_async_context(
                BareClient(server_params(url, protocol, sources[-1]))
            )
            names.append(f"{names[-1]} bare")
        yardstick: list[Any] = []  # (name, client, bare?) of the passthrough server
        if passthrough and protocol == "json2":
            yard = await stack.enter_async_context(Client(passthrough_params(url), mode="legacy"))
            yardstick.append(("passthrough", yard, False))
            if bare:
                yard_bare = await stack.enter_async_context(BareClient(passthrough_params(url)))
                yardstick.append(("passthrough bare", yard_bare, True))
        fields = FIELDS
        if all_fields:  # issue 41: wide records, every field but the binary ones
            described = await raw.fields_get(MODEL, ["type"])
            fields = [name for name, spec in described.items() if spec.get("type") != "binary"]
        print(f"{protocol}: {' | '.join(names)} vs raw, median ms of {calls} interleaved calls, "
              f"{len(fields)} fields")  # fmt: skip
        for size in sizes:
            ids = [row["id"] for row in await raw.search_read(MODEL, [], ["id"], limit=size)]
            cases = {
                "search_read": (
                    {"model": MODEL, "fields": fields, "limit": size},
                    lambda size=size: raw.search_read(MODEL, [], fields, limit=size),
                ),
                # odoo_core_read takes at most 100 ids (SPEC-04): larger answers are search_reads
                "read": (
                    {"model": MODEL, "ids": ids, "fields": fields},
                    lambda ids=ids: raw.read(MODEL, ids, fields),
                ),
            }
            for tool, (arguments, raw_call) in cases.items():
                if tool == "read" and len(ids) > READ_MAX_IDS:
                    continue
                yards = yardstick if tool == "search_read" else []
                yard_times: list[list[float]] = [[] for _ in yards]
                times: list[list[float]] = [[] for _ in names] + [[]]
                # issue 41: the CPU the bare-driven servers spend over the measured rounds
                bare_servers = [c for _n, c, is_bare in yards if is_bare]
                if bare_client is not None:
                    bare_servers.insert(0, bare_client)
                cpu_start: list[float] = []
                for round_ in range(calls + 5):  # 5 warm-up rounds
                    if round_ == 5:
                        cpu_start = [cpu_seconds(b.pid) for b in bare_servers]
                    for index, (_name, yard, is_bare) in enumerate(yards):
                        start = time.perf_counter()
                        if is_bare:
                            await yard.call_tool(f"odoo_core_{tool}", arguments)
                        else:
                            assert not (
                                await yard.call_tool(f"odoo_core_{tool}", arguments)
                            ).is_error
                        if round_ >= 5:
                            yard_times[index].append(time.perf_counter() - start)
                    for index, client in enumerate(clients):
                        start = time.perf_counter()
                        result = await client.call_tool(f"odoo_core_{tool}", arguments)
                        elapsed = time.perf_counter() - start
                        assert not result.is_error, result.content
                        if round_ >= 5:
                            times[index].append(elapsed)
                    if bare_client is not None:
                        start = time.perf_counter()
                        await bare_client.call_tool(f"odoo_core_{tool}", arguments)
                        if round_ >= 5:
                            times[len(clients)].append(time.perf_counter() - start)
                    start = time.perf_counter()
                    rows = await raw_call()
                    if round_ >= 5:
                        times[-1].append(time.perf_counter() - start)
                    assert len(rows) == len(ids)
                cpu_ms = [
                    (cpu_seconds(b.pid) - start) / calls * 1000
                    for b, start in zip(bare_servers, cpu_start, strict=True)
                ]
                medians = [statistics.median(t) * 1000 for t in times]
                ours = "  ".join(f"{m:7.2f} ({m / medians[-1]:.2f}x)" for m in medians[:-1])
                print(f"  {tool:11} {len(ids):5} rows  {ours}  raw {medians[-1]:7.2f}", flush=True)
                if cpu_ms:
                    labels = (["ours bare"] if bare_client is not None else []) + [
                        name for name, _c, is_bare in yards if is_bare
                    ]
                    shown = "  ".join(f"{n} {c:.2f}" for n, c in zip(labels, cpu_ms, strict=True))
                    ratio = (
                        f"  ours/passthrough {cpu_ms[0] / cpu_ms[1]:.2f}"
                        if bare_client is not None and len(cpu_ms) > 1
                        else ""
                    )
                    print(f"    server CPU ms per call: {shown}{ratio}", flush=True)
                for (name, _yard, is_bare), spent in zip(yards, yard_times, strict=True):
                    yard_ms = statistics.median(spent) * 1000
                    # ours through the same kind of client: the SDK's, or the bare one
                    mine = medians[len(clients)] if is_bare else medians[len(clients) - 1]
                    print(
                        f"    {name:16} {yard_ms:7.2f}  ours/passthrough {mine / yard_ms:.2f}  "
                        f"passthrough/raw {yard_ms / medians[-1]:.2f}",
                        flush=True,
                    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--source", action="append", default=None, help="a checkout to run the server from"
    )
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 80, 500])
    parser.add_argument("--protocol", action="append", default=None, help="xmlrpc, jsonrpc, json2")
    parser.add_argument("--scale", type=int, default=40, help="demo data scale (500+ partners)")
    parser.add_argument("--bare", action="store_true", help="add a bare JSON-lines client")
    parser.add_argument(
        "--passthrough", action="store_true", help="add the SDK passthrough yardstick (json2)"
    )
    parser.add_argument(
        "--all-fields", action="store_true", help="every non-binary field (wide records)"
    )
    options = parser.parse_args()
    sources: list[str | None] = options.source or [None]
    print(f"starting the fake Odoo (scale {options.scale}) in its own process", flush=True)
    fake, url = start_fake(options.scale)
    try:
        for protocol in options.protocol or ["json2", "xmlrpc"]:
            asyncio.run(
                bench(
                    url,
                    protocol,
                    sources,
                    options.sizes,
                    options.calls,
                    bare=options.bare,
                    passthrough=options.passthrough,
                    all_fields=options.all_fields,
                )
            )
    finally:
        fake.terminate()
        fake.wait(timeout=10)


if __name__ == "__main__":
    main()
