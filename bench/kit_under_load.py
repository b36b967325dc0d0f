"""Issue 38's long proof: full kit runs on the reference under deliberate CPU load.

Each run starts a burner per core plus one (``tests/cpu_load.py``), runs
``odoo-mcp-conformance run`` as a user does, and reads its report: the reference passes every
scenario on a quiet machine, so any failing requirement is a false verdict, and the run's
inconclusive scenarios (kit errors, retried once) are counted apart. It prints the load, the
wall time, the time scale the run measured, and the counts; it exits 1 on any failing
requirement.

    python bench/kit_under_load.py --runs 3            # tox -e kit-load
    python bench/kit_under_load.py --runs 1 -k count   # one scoped run
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from cpu_load import burners, default_burners  # noqa: E402


@dataclass(frozen=True)
class LoadedRun:
    exit: int
    wall_s: float
    load_1min: float
    time_scale: float
    scenarios: int
    failed: int
    inconclusive: int
    retried: int
    failing_requirements: list[str]


def one_run(report_dir: Path, count: int, extra: list[str]) -> LoadedRun:
    """One kit run under ``count`` burners: its wall time, load and verdict counts."""
    command = [sys.executable, "-m", "odoo_mcp_conformance.cli", "run", "--target", "reference",
               "--report-dir", str(report_dir), "-q", *extra]  # fmt: skip
    with burners(count):  # returns once every burner spins, before the kit measures
        start = time.monotonic()
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        wall = time.monotonic() - start
        load = os.getloadavg()[0]
    (report_dir / "kit-output.log").write_text(done.stdout + done.stderr)
    report = json.loads((report_dir / "report.json").read_text())
    scenarios = report["scenarios"]
    return LoadedRun(
        exit=done.returncode,
        wall_s=round(wall, 1),
        load_1min=round(load, 1),
        time_scale=float(report.get("time_scale", 1.0)),
        scenarios=len(scenarios),
        failed=sum(s["outcome"] == "failed" for s in scenarios),
        inconclusive=sum(s["outcome"] == "inconclusive" for s in scenarios),
        retried=sum(bool(s.get("retried")) for s in scenarios),
        failing_requirements=[r["id"] for r in report["requirements"] if r["status"] == "failing"],
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--burners", type=int, default=default_burners())
    parser.add_argument("--report-dir", help="keep the runs' reports here (default: a temp dir)")
    parser.add_argument("-k", "--select", help="a scoped run: pytest -k over the scenarios")
    args = parser.parse_args(argv)
    extra = ["-k", args.select] if args.select else []
    base = Path(args.report_dir or tempfile.mkdtemp(prefix="kit-load-"))
    results = []
    for index in range(args.runs):
        result = one_run(base / f"run-{index + 1}", args.burners, extra)
        results.append(result)
        print(f"run {index + 1}: {json.dumps(asdict(result))}", flush=True)
    failing = sum(len(r.failing_requirements) for r in results)
    print(f"{args.runs} run(s) under {args.burners} burners on {os.cpu_count()} cores: "
          f"{failing} failing requirement(s), "
          f"{sum(r.inconclusive for r in results)} inconclusive scenario(s), "
          f"{sum(r.retried for r in results)} retried; reports in {base}")  # fmt: skip
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
