"""Several kit runs in one process, on one fake Odoo: the CI form of the mutation proof.

A kit run's fixed cost (an interpreter, pytest, the kit's plugin and step modules, the MCP SDK,
a fake Odoo with its demo data, a fork server's preloaded imports) was two thirds of a
mutant's scoped run. ``run_kits`` hands each worker process a list of runs; the worker pays
that cost once and runs them one after the other, each with ``--fake-url`` on the fake it
serves, reset to fresh demo data (every module installed, no fault) before each run, and one
fork server serves every run's launches. The verdicts are the same as separate runs: every
kit scenario starts from freshly reset data anyway.

Usage: ``python kit_batch.py JOBS.json`` (a list of ``{"target", "report_dir", "extra"}``);
each run's terminal output and exit code land in its report directory.

Ctrl-C (SIGINT, which a terminal sends the whole process group) ends the batch: pytest turns
it into an interrupted session, the kit into exit 2, and the loop used to go on to its next
run, so the suite kept waiting on its batches for minutes (issue 39). The first SIGINT now
ends the batch after the run it interrupted, exit 130.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
from pathlib import Path
from types import FrameType

from fake_odoo.handle import FakeOdoo
from fake_odoo.server import BackgroundServer
from odoo_mcp_conformance.cli import main as kit
from odoo_mcp_conformance.control import FakeOdooControl

OUTPUT, EXIT = "kit-output.txt", "kit-exit"
_interrupted = False


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    """Remember the interrupt, then interrupt as Python does (pytest ends its session)."""
    global _interrupted
    _interrupted = True
    signal.default_int_handler(signum, frame)


def run_batch(jobs: list[dict[str, object]]) -> None:
    # one fork server per process too: its preloaded imports are paid once (plugin.py)
    os.environ["ODOO_MCP_KIT_SHARE_FORKSERVER"] = "1"
    with BackgroundServer(FakeOdoo("19.0")) as server:
        control = FakeOdooControl(server.url)
        for job in jobs:
            control.clear_faults()
            control.modules_removed = True  # a reset that installs every module again
            control.reset(version="19.0")
            report_dir = Path(str(job["report_dir"]))
            extra = [str(arg) for arg in job["extra"]]  # type: ignore[attr-defined]
            argv = ["run", "--target", str(job["target"]), "--report-dir", str(report_dir)]
            # the suite module binds the feature files when imported: a cached one would
            # serve the previous run's scenarios
            for module in [m for m in sys.modules if m.endswith("test_features")]:
                del sys.modules[module]
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                try:
                    code = kit([*argv, "-q", "--fake-url", server.url, *extra])
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else 1
            report_dir.mkdir(parents=True, exist_ok=True)
            (report_dir / OUTPUT).write_text(out.getvalue())
            (report_dir / EXIT).write_text(str(code))
            if _interrupted:
                break
        control.close()


if __name__ == "__main__":
    signal.signal(signal.SIGINT, _on_sigint)
    try:
        run_batch(json.loads(Path(sys.argv[1]).read_text()))
    except KeyboardInterrupt:  # between two runs
        _interrupted = True
    sys.exit(130 if _interrupted else 0)
