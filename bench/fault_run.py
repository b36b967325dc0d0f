"""Issue 37's long fault run: random faults after Odoo applied the request, on every write path.

The server's tools (full mode, one in-process server per protocol) talk to a fake Odoo served
over HTTP through ``tests/fault_proxy.py``, which forwards each request in full and then, at
random, answers 429/500/502/503/504, cuts the connection, sends half the answer or answers too
late. Each tool call is a create, write, unlink, copy, an action or a read, on a record made
for it. The run counts, from the fake's own log and records:

* written: changes Odoo received; duplicated: changes Odoo received more than once (must be 0);
* lost: changes the client was told succeeded that Odoo never applied (must be 0);
* reads sent more than twice, or twice after a timeout or a 429 (must be 0);
* Odoo calls per tool call, mean and worst.

    python bench/fault_run.py --seconds 600 --seed 37
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in ("tests",):
    if str(ROOT / extra) not in sys.path:
        sys.path.insert(0, str(ROOT / extra))

from mcp import Client  # noqa: E402

from fake_odoo.handle import FakeOdoo  # noqa: E402
from fake_odoo.testing import serve_fake_odoo  # noqa: E402
from fault_proxy import FAULTS, Fault, FaultProxy, object_call  # noqa: E402
from mcp_servers import fake_config  # noqa: E402
from odoo_mcp.adapter.server import build_server  # noqa: E402
from odoo_mcp.connection import ConnectionManager  # noqa: E402

PROTOCOLS = ("xmlrpc", "jsonrpc", "json2")
KINDS = ("create", "write", "unlink", "copy", "action", "read")
TIMEOUT = 1.0
LATE = Fault("timeout", delay=TIMEOUT + 0.3)


def _call(fake: FakeOdoo, kind: str, n: int) -> tuple[str, str, str, dict[str, Any]]:
    """(model, Odoo method, tool, arguments) of one tool call on a record made for it."""
    if kind == "create":
        values = {"name": f"fault run {n}"}
        return (
            "res.partner",
            "create",
            "odoo_core_create",
            {"model": "res.partner", "values": values},
        )
    if kind == "action":
        lead = fake.create("crm.lead", {"name": f"fault run lead {n}"})
        arguments = {"model": "crm.lead", "method": "action_set_won", "args": [[lead]]}
        return "crm.lead", "action_set_won", "odoo_core_execute", arguments
    partner = fake.create("res.partner", {"name": f"fault run {n}"})
    if kind == "write":
        arguments = {"model": "res.partner", "ids": [partner], "values": {"comment": str(n)}}
        return "res.partner", "write", "odoo_core_write", arguments
    if kind == "unlink":
        return (
            "res.partner",
            "unlink",
            "odoo_core_unlink",
            {"model": "res.partner", "ids": [partner]},
        )
    if kind == "copy":
        arguments = {"model": "res.partner", "method": "copy", "args": [[partner]]}
        return "res.partner", "copy", "odoo_core_execute", arguments
    arguments = {"model": "res.partner", "domain": [["id", "=", partner]], "fields": ["name"]}
    return "res.partner", "search_read", "odoo_core_search_read", arguments


async def run(seconds: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    faults: list[Fault | None] = [*FAULTS, LATE, None, None, None]
    tally: Counter[str] = Counter()
    per_call: list[int] = []
    with serve_fake_odoo("19.0") as fake, FaultProxy(fake.url or "") as proxy:
        async with contextlib.AsyncExitStack() as stack:
            clients: dict[str, Client] = {}
            for protocol in PROTOCOLS:
                config = fake_config(odoo_url=proxy.url, odoo_protocol=protocol, mode="full")
                settings = config.connection_settings().model_copy(update={"timeout": TIMEOUT})
                connection = ConnectionManager(settings, backoff=(0.0,))
                client = Client(build_server(config, connection), mode="legacy")
                clients[protocol] = await stack.enter_async_context(client)
            end, n = time.monotonic() + seconds, 0
            while time.monotonic() < end:
                n += 1
                kind, protocol, fault = rng.choice(KINDS), rng.choice(PROTOCOLS), rng.choice(faults)
                model, method, tool, arguments = _call(fake, kind, n)
                fake.reset_calls()
                proxy.disarm()
                if fault is not None:
                    proxy.arm(object_call(model, method), fault)
                result = await clients[protocol].call_tool(tool, arguments)
                calls = list(fake.calls)
                received = sum(1 for c in calls if (c.model, c.method) == (model, method))
                per_call.append(len(calls))
                tally["tool calls"] += 1
                tally[f"faults {fault.name if fault else 'none'}"] += 1
                if kind == "read":
                    tally["reads"] += 1
                    again_allowed = (
                        fault is not None and fault not in (LATE,) and fault.status != 429
                    )
                    if received > (2 if again_allowed else 1):
                        tally["reads sent again wrongly"] += 1
                    continue
                tally["changes asked"] += 1
                tally["changes Odoo received"] += received
                if received > 1:
                    tally["duplicated"] += 1
                if not result.is_error and received == 0:
                    tally["lost"] += 1
                if result.is_error and fault is None:
                    tally["errors without a fault"] += 1
    tally["Odoo calls per tool call, worst"] = max(per_call)
    report: dict[str, Any] = dict(tally)
    for must_be_zero in ("duplicated", "lost", "reads sent again wrongly"):
        report.setdefault(must_be_zero, 0)
    report["Odoo calls per tool call, mean"] = round(sum(per_call) / len(per_call), 2)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    logging.disable(logging.ERROR)  # the server logs each failed call; the counts say it all
    report = asyncio.run(run(args.seconds, args.seed))
    for key in sorted(report):
        print(f"{key:40} {report[key]}")
    bad = sum(report.get(k, 0) for k in ("duplicated", "lost", "reads sent again wrongly"))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
