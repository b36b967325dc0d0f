"""Server CPU per tool call over streamable HTTP against stdio, for the same call (issue 41).

One fake Odoo 19.0 in its own process (scale 40, as ``percall.py``); three ``odoo-mcp
serve`` processes on it: stdio (driven by ``percall.BareClient``: JSON lines, nothing
validated), HTTP answering with an SSE stream (the default) and HTTP with
``--json-response``, each HTTP one driven by a bare ``httpx2`` client on one kept-alive
connection and one MCP session. The rounds are interleaved (one call to each server in
turn), and each server's CPU (``/proc``, user + system) is read before and after the measured
calls. Prints, per answer size, each server's CPU per call and HTTP / stdio, with the spread
of ``--repeat`` runs.

    python bench/http_vs_stdio.py --calls 150 --sizes 5 80 [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2

from fake_odoo.demo import ADMIN_API_KEY
from odoo_mcp_demo.http_process import http_server_process

sys.path.insert(0, str(Path(__file__).parent))
from percall import FIELDS, BareClient, cpu_seconds, server_params, start_fake

ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
QUIET = {"ODOO_MCP_RATE_LIMIT": "false", "ODOO_MCP_INTROSPECT": "false", "ODOO_PROTOCOL": "json2"}


def pid_on_port(port: str) -> int:
    """The server process started with ``--port port`` (the harness does not hand it out)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if (
            b"serve" in argv
            and b"--port" in argv
            and argv[argv.index(b"--port") + 1] == port.encode()
        ):
            return int(proc.name)
    raise RuntimeError(f"no server process on port {port}")


class BareHttp:
    """One MCP session over streamable HTTP, framed by hand (no SDK client)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx2.Client(base_url=base, headers=ACCEPT, timeout=60)
        self.pid = pid_on_port(base.rsplit(":", 1)[1])
        self.next_id = 0
        self.headers: dict[str, str] = {}

    def post(self, message: dict[str, Any]) -> dict[str, Any] | None:
        answer = self.http.post("/mcp", json=message, headers=self.headers)
        answer.raise_for_status()
        if "id" not in message:
            return None
        if answer.headers["content-type"].startswith("text/event-stream"):
            data = [row[6:] for row in answer.text.splitlines() if row.startswith("data: ")]
            result: dict[str, Any] = json.loads(data[-1])
        else:
            result = answer.json()
        return result

    def open(self) -> BareHttp:
        self.next_id += 1
        init = {"jsonrpc": "2.0", "id": self.next_id, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bare", "version": "1"}}}  # fmt: skip
        answer = self.http.post("/mcp", json=init)
        self.headers = {"mcp-protocol-version": "2025-06-18"}
        if "mcp-session-id" in answer.headers:
            self.headers["mcp-session-id"] = answer.headers["mcp-session-id"]
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self

    def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        answer = self.post({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                            "params": {"name": name, "arguments": arguments}})  # fmt: skip
        assert answer is not None and not answer["result"].get("isError"), answer
        return answer


async def measure(url: str, sizes: list[int], calls: int, repeat: int) -> None:
    env = {**QUIET, "ODOO_API_KEY": ADMIN_API_KEY}
    with ExitStack() as stack:
        sse = BareHttp(stack.enter_context(http_server_process(url, **env))).open()
        json_mode = BareHttp(
            stack.enter_context(http_server_process(url, "--json-response", **env))
        ).open()
        async with BareClient(server_params(url, "json2", None)) as stdio:
            for size in sizes:
                arguments = {"model": "res.partner", "fields": FIELDS, "limit": size}
                name = "odoo_core_search_read"
                runs: dict[str, list[float]] = {"stdio": [], "http sse": [], "http json": []}
                for _ in range(repeat):
                    for _ in range(10):  # warm every path
                        await stdio.call_tool(name, arguments)
                        sse.call_tool(name, arguments)
                        json_mode.call_tool(name, arguments)
                    pids = {"stdio": stdio.pid, "http sse": sse.pid, "http json": json_mode.pid}
                    start = {k: cpu_seconds(pid) for k, pid in pids.items()}
                    for _ in range(calls):
                        await stdio.call_tool(name, arguments)
                        sse.call_tool(name, arguments)
                        json_mode.call_tool(name, arguments)
                    for k, pid in pids.items():
                        runs[k].append((cpu_seconds(pid) - start[k]) / calls * 1000)
                med = {k: statistics.median(v) for k, v in runs.items()}
                shown = "  ".join(
                    f"{k} {med[k]:.2f} ms ({min(v):.2f}-{max(v):.2f})" for k, v in runs.items()
                )
                print(f"search_read {size:4d} rows, server CPU per call: {shown}")
                print(
                    f"    http sse / stdio {med['http sse'] / med['stdio']:.2f}   "
                    f"http json / stdio {med['http json'] / med['stdio']:.2f}   (target <= 1.20)"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=150, help="measured calls per run")
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 80])
    parser.add_argument("--repeat", type=int, default=3, help="runs per size (median, spread)")
    options = parser.parse_args()
    started = time.perf_counter()
    fake, url = start_fake(40)
    try:
        asyncio.run(measure(url, options.sizes, options.calls, options.repeat))
    finally:
        fake.terminate()
        fake.wait()
    print(f"done in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
