"""The kit against the reference server over streamable HTTP with Bearer API keys.

Issue 6's gate: every REQ-HTTP passes in the kit (the HTTP feature only; the whole suite over
HTTP is ``tox -e conformance``, 246 scenarios passing, 3 not applicable, at the time of
writing).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from kit_runs import MUST_PROVE, ROOT, KitRun, run_kit

from odoo_mcp_conformance.baseline import Baseline
from odoo_mcp_conformance.catalogue import load_catalogue
from odoo_mcp_conformance.report import RunReport, rejudge
from odoo_mcp_conformance.trace.build import build_trace, check_trace


def test_every_http_requirement_passes(tmp_path: Path, reference_run: KitRun) -> None:
    features = tmp_path / "features"
    features.mkdir()
    shutil.copy(ROOT / "features" / "http.feature", features)
    run = run_kit(
        ROOT / "conformance" / "targets" / "reference-http.toml",
        tmp_path / "report",
        "--features",
        str(features),
        "--workers",
        "2",  # the kit's default starts 4 on 2 cores: each more costs a start-up (~6 CPU-s)
    )
    assert run.returncode == 0, run.output[-3000:]
    statuses = {k: v for k, v in run.statuses().items() if k.startswith("REQ-HTTP-")}
    assert len(statuses) == 21
    assert {k for k, v in statuses.items() if v != "passing"} == set(), statuses
    spec = rejudge(RunReport.model_validate(run.report), "spec", load_catalogue(), Baseline())
    assert spec.meets_baseline, spec.unexpected_failures  # and in the spec profile
    # the published trace merges both runs: HTTP rows pass, the stdio verdicts stand
    merged = build_trace(
        results=[reference_run.report_dir / "report.json", run.report_dir / "report.json"]
    )
    assert merged.target == "reference + reference-http"
    assert check_trace(merged, MUST_PROVE) == []  # spec/'s list, as trace --check and tox
    stdio = build_trace(results=reference_run.report_dir / "report.json")
    assert {r.id for r in merged.rows if r.status == "passing"} > {
        r.id for r in stdio.rows if r.status == "passing"
    }
