"""Benchmark: how long ``fake_odoo.demo.build_database`` takes at a few data scales.

Run by hand (``python bench/demo_build.py``, or ``--scales 1 10 100``).  It prints one line
per scale with the wall and CPU time of the build and the number of rows it made; the
numbers go into closing notes, never into timed tests.  Each build runs in a fresh process,
so one scale's garbage does not weigh on the next.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

_CHILD = "--child"


def _build(scale: int) -> dict[str, float]:
    from fake_odoo.demo import build_database

    wall, cpu = time.perf_counter(), time.process_time()
    db = build_database(scale=scale)
    return {
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "rows": sum(len(rows) for rows in db.store.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument(_CHILD, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(_build(args.child)))
        return
    for scale in args.scales:
        out = subprocess.run(
            [sys.executable, __file__, _CHILD, str(scale)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        result = json.loads(out.splitlines()[-1])
        print(
            f"scale {scale:4}  {result['wall']:7.2f} s wall  {result['cpu']:7.2f} s cpu"
            f"  {int(result['rows']):7} rows"
        )


if __name__ == "__main__":
    main()
