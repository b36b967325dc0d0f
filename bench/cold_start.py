"""Cold start: spawn -> initialize -> tools/list answered, as whole processes (issue 17).

Compares ``odoo-mcp serve`` (stdio, against a served fake Odoo) with the floor: a one-tool
server on the same SDK (``mcp.server.MCPServer`` with a single tool), as written and with the
collector paused while it loads the SDK, as ``odoo-mcp``'s console script loads its modules
(issue 41: the second ratio compares code, not collector settings). Runs are interleaved
so that machine noise hits both alike; the medians, their spread (the middle half of the
runs) and their ratio are printed, by wall time and by the CPU the process used up to the
answer (user + system, from its rusage: what other work on the machine disturbs less). ``--source
DIR`` (repeatable) adds ``odoo-mcp serve`` from another checkout (its ``src`` first on the
path), to compare versions in one run.

    python bench/cold_start.py --runs 15 [--source ../before]
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
from fake_odoo.testing import quiet_deprecation_log, serve_fake_odoo

ONE_TOOL = textwrap.dedent(
    """
    {pause}from mcp.server import MCPServer
    {resume}
    server = MCPServer("one-tool")

    @server.tool()
    def echo(text: str) -> str:
        return text

    server.run()
    """
)
#: the same server loading the SDK as ``odoo-mcp``'s console script loads its modules (the
#: collector paused, then what was loaded frozen: ``odoo_mcp.adapter.gc_tuning``), so that
#: the ratio against it compares code, not collector settings
PAUSED = {"pause": "import gc; gc.disable()\n", "resume": "gc.freeze(); gc.enable()\n"}
PLAIN = {"pause": "", "resume": ""}
PAUSED_FLOOR = "one-tool SDK server, collector paused"
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"}}}  # fmt: skip
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TOOLS_LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}


def one_start(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from spawn to the tools/list answer, and the CPU seconds the process used."""
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
                elapsed = time.perf_counter() - started
                process.kill()
                _pid, _status, usage = os.wait4(process.pid, 0)
                process.returncode = -9  # reaped here: Popen must not wait for it again
                return elapsed, usage.ru_utime + usage.ru_stime
        raise RuntimeError(f"no tools/list answer from {command}")
    finally:
        if process.returncode is None:
            process.kill()
            process.wait()


def spread(values: list[float]) -> str:
    """The median and the middle half of ``values``, in ms."""
    low, _median, high = statistics.quantiles(values, n=4)
    return f"{statistics.median(values) * 1000:7.1f} ms ({low * 1000:.1f}-{high * 1000:.1f})"


def main() -> None:
    quiet_deprecation_log()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--source", action="append", default=[], help="another checkout")
    args = parser.parse_args()
    base_env = {k: os.environ[k] for k in ("PATH", "HOME", "PYTHONPATH") if k in os.environ}
    with serve_fake_odoo("19.0") as fake:
        ours_env = {**base_env, "ODOO_URL": fake.url, "ODOO_DB": "demo",
                    "ODOO_USERNAME": "admin", "ODOO_API_KEY": ADMIN_API_KEY,
                    "ODOO_MCP_LOG_LEVEL": "warning"}  # fmt: skip
        serve = [sys.executable, "-m", "odoo_mcp", "serve"]
        commands = {
            "one-tool SDK server": ([sys.executable, "-c", ONE_TOOL.format(**PLAIN)], base_env),
            PAUSED_FLOOR: ([sys.executable, "-c", ONE_TOOL.format(**PAUSED)], base_env),
            "odoo-mcp serve": (serve, ours_env),
        }
        for source in args.source:
            paths = [os.path.abspath(os.path.join(source, "src")), base_env.get("PYTHONPATH", "")]
            env = {**ours_env, "PYTHONPATH": os.pathsep.join(path for path in paths if path)}
            commands[f"odoo-mcp {os.path.basename(os.path.abspath(source))}"] = (serve, env)
        print("phase: warming the OS file cache (one start of each)", flush=True)
        for command, env in commands.values():  # warm the OS file cache
            one_start(command, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        print(f"phase: {args.runs} timed starts of each command", flush=True)
        for _ in range(args.runs):
            for name, (command, env) in commands.items():
                wall, used = one_start(command, env)
                times[name].append(wall)
                cpu[name].append(used)
    floors = ("one-tool SDK server", PAUSED_FLOOR)
    for label, values in (("wall", times), ("CPU", cpu)):
        for name, measured in values.items():
            print(f"{label:4s} {name:38s} median {spread(measured)}")
        for floor in floors:
            base = statistics.median(values[floor])
            for name, measured in values.items():
                if name not in floors:
                    ratio = statistics.median(measured) / base
                    print(f"{label:4s} {name}: {ratio:.2f}x the {floor} (target at most 1.10x)")


if __name__ == "__main__":
    main()
