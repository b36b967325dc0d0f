"""Issue 26 bench: non-interference of blocked data, at scale.

Runs generated MCP call sequences (tools, every ``odoo_core_execute`` method, resources,
templates, prompts) against two servers on twin fake Odoo databases that differ only in
blocked data (``field_blocklist=email``, ``model_blocklist=crm.lead``), per mode and demo
user, and prints per mode/user: calls, differing answers, canary hits, -32603 (internal)
answers; then the distinct leak classes (tool + model + method + argument shape + blocked
names mentioned) with one example each.  Exit status 1 on any difference or canary.

    PYTHONPATH=src:conformance:tests:. .venv/bin/python bench/noninterference.py --calls 500
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for extra in ("src", "conformance", "tests"):
    if str(ROOT / extra) not in sys.path:
        sys.path.insert(0, str(ROOT / extra))

from noninterference.harness import MODES, USERS, Finding, explore, summary, twin_servers  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=10_000, help="calls per mode and user")
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated modes")
    parser.add_argument("--users", default=",".join(USERS), help="comma-separated users")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--examples", type=int, default=1, help="examples shown per class")
    parser.add_argument(
        "--field-blocklist",
        default="email",
        help="the server's field_blocklist (the twins differ in email only: blocking more,"
        " e.g. email,email_normalized,email_formatted,opportunity_ids, finds what else leaks)",
    )
    args = parser.parse_args(argv)
    combos = [(m, u) for m in args.modes.split(",") for u in args.users.split(",")]
    everything: list[Finding] = []
    rows = []
    started = time.monotonic()
    internal: dict[str, list[object]] = {}
    with twin_servers(combos, {"field_blocklist": args.field_blocklist}) as servers:
        for combo in combos:
            s = servers[combo]
            findings: list[Finding] = []
            round_ = 0
            t0 = time.monotonic()
            while s.calls < args.calls:
                # a sequence holds ~2 calls; each round a new seed, until enough calls
                todo = max(1, (args.calls - s.calls) // 2)
                findings += explore(s, todo, seed=args.seed + 1000 * round_)
                round_ += 1
            everything += findings
            for key, (count, call, answer) in s.internal.items():
                seen = internal.setdefault(key, [0, call, answer])
                seen[0] += count  # type: ignore[operator]
            row = (
                f"{combo[0]:<10} {combo[1]:<6} calls={s.calls:<6} "
                f"differ={sum(f.differs for f in findings):<5} "
                f"canary={sum(bool(f.canaries) for f in findings):<5} "
                f"internal(-32603)={s.internal_errors // 2:<4} "
                f"classes={len({f.leak_class for f in findings})} "
                f"({time.monotonic() - t0:.0f}s)"
            )
            rows.append(row)
            print(row, flush=True)
    print(f"\n== per mode/user ({time.monotonic() - started:.0f}s)")
    print("\n".join(rows))
    print("\n== internal errors (-32603 or category internal), by call shape")
    for key, (count, call, answer) in sorted(internal.items(), key=lambda kv: -kv[1][0]):  # type: ignore[operator]
        print(f"- {key}: {count}\n  call: {json.dumps(call)}\n  answer: {json.dumps(answer)[:300]}")
    print("\n== leak classes")
    print(summary(everything, examples_per_class=args.examples) if everything else "none")
    return 1 if everything else 0


if __name__ == "__main__":
    sys.exit(main())
