"""Cold start: spawn -> initialize -> tools/list answered, as whole processes (issue 17).

Compares ``odoo-mcp serve`` (stdio, against a served fake Odoo) with the floor: a one-tool
server on the same SDK (``mcp.server.MCPServer`` with a single tool). Runs are interleaved
so that machine noise hits both alike; the medians and their ratio are printed.

    python bench/cold_start.py --runs 15
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap
import time

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.testing import serve_fake_odoo

ONE_TOOL = textwrap.dedent(
    """
    from mcp.server import MCPServer

    server = MCPServer("one-tool")

    @server.tool()
    def echo(text: str) -> str:
        return text

    server.run()
    """
)
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"}}}  # fmt: skip
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TOOLS_LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}


def one_start(command: list[str], env: dict[str, str]) -> float:
    """Seconds from spawn to the tools/list answer."""
    started = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    try:
        for message in (INITIALIZE, INITIALIZED, TOOLS_LIST):
            process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
        for line in process.stdout:
            if json.loads(line).get("id") == 2:
                return time.perf_counter() - started
        raise RuntimeError(f"no tools/list answer from {command}")
    finally:
        process.kill()
        process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    base_env = {k: os.environ[k] for k in ("PATH", "HOME", "PYTHONPATH") if k in os.environ}
    with serve_fake_odoo("19.0") as fake:
        ours_env = {**base_env, "ODOO_URL": fake.url, "ODOO_DB": "demo",
                    "ODOO_USERNAME": "admin", "ODOO_API_KEY": ADMIN_API_KEY,
                    "ODOO_MCP_LOG_LEVEL": "warning"}  # fmt: skip
        commands = {
            "one-tool SDK server": ([sys.executable, "-c", ONE_TOOL], base_env),
            "odoo-mcp serve": ([sys.executable, "-m", "odoo_mcp", "serve"], ours_env),
        }
        print("phase: warming the OS file cache (one start of each)", flush=True)
        for command, env in commands.values():  # warm the OS file cache
            one_start(command, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        print(f"phase: {args.runs} timed starts of each command", flush=True)
        for _ in range(args.runs):
            for name, (command, env) in commands.items():
                times[name].append(one_start(command, env))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        print(f"{name:22s} median {median * 1000:7.1f} ms  (min {min(times[name]) * 1000:.1f})")
    floor, ours = medians["one-tool SDK server"], medians["odoo-mcp serve"]
    print(f"ratio {ours / floor:.2f}x (target at most 1.10x)")


if __name__ == "__main__":
    main()
