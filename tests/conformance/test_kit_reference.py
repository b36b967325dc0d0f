"""The kit against the reference server: an empty baseline, a complete trace, the docs site.

This is the CI gate of the conformance issue: every testable MUST of the documents built so
far passes, every scenario names a requirement, every testable requirement has a scenario and
a code tag, and the docs site (whose matrix page shows this run) builds strictly.
"""

from __future__ import annotations

import re
from pathlib import Path

from kit_runs import PROVEN_DOCUMENTS, ROOT, KitRun

from docs_site import build_site
from odoo_mcp_conformance.baseline import Baseline
from odoo_mcp_conformance.catalogue import load_catalogue
from odoo_mcp_conformance.report import RunReport, rejudge
from odoo_mcp_conformance.trace.build import build_trace, check_trace


def test_reference_meets_the_empty_baseline(reference_run: KitRun) -> None:
    report = reference_run.report
    assert report["unexpected_failures"] == [], reference_run.output[-3000:]
    assert report["stale_baseline_entries"] == []
    assert report["meets_baseline"] and reference_run.returncode == 0
    assert not (ROOT / "conformance" / "baselines" / "reference.toml").exists()


def test_every_testable_must_of_the_built_documents_passes(reference_run: KitRun) -> None:
    report = reference_run.report
    not_passing = [
        (row["id"], row["status"])
        for row in report["requirements"]
        if row["document"] in PROVEN_DOCUMENTS
        and row["keyword"] == "MUST"
        and row["status"] not in ("passing", "excluded")
    ]
    assert not_passing == []
    assert report["scenario_counts"].get("passed", 0) >= 100


def test_traceability_holds_both_ways(reference_run: KitRun) -> None:
    trace = build_trace(results=reference_run.report_dir / "report.json")
    problems = check_trace(trace, documents=PROVEN_DOCUMENTS)
    assert problems == []
    untested_should = [
        row.id
        for row in trace.rows
        if row.document in PROVEN_DOCUMENTS and row.testable and not row.scenarios
    ]
    assert untested_should == []


def test_docs_site_builds_strictly_with_the_matrix(reference_run: KitRun, tmp_path: Path) -> None:
    site = build_site(
        tmp_path / "site", ODOO_MCP_KIT_REPORT=str(reference_run.report_dir / "report.json")
    )
    contracts = (site / "contracts" / "schemas" / "orders.get.response.json").read_text()
    assert '"x-contract-version"' in contracts
    matrix = (site / "conformance" / "matrix" / "index.html").read_text()
    passing = sum(1 for s in reference_run.statuses().values() if s == "passing")
    assert "Results of the latest kit runs against <code>reference</code>" in matrix
    # the summary's "all" row counts the run's passing requirements (trace/matrix.py)
    total_row = re.search(r'<tr class="req-summary-total" data-document="all">.*?</tr>', matrix)
    assert total_row is not None
    assert f'data-status="passing" data-count="{passing}"' in total_row.group(0)


def test_reference_passes_the_spec_profile_too(reference_run: KitRun) -> None:
    """The run's reports hold every check with its source: judged on the seed checks alone,
    the reference server meets the same empty baseline (what a spec-profile run decides)."""
    report = RunReport.model_validate(reference_run.report)
    assert report.profile == "reference"
    spec = rejudge(report, "spec", load_catalogue(), Baseline())
    assert spec.unexpected_failures == () and spec.meets_baseline
    counted = [s for s in report.scenarios if s.outcome != "not_applicable"]
    assert all(s.checks for s in counted)  # every scenario that ran recorded its checks
    sources = {c.source.kind for s in counted for c in s.checks}
    assert sources == {"seed", "decision", "reference"}
    noted = [s for s in spec.scenarios if s.outcome == "noted"]
    assert noted  # decision-only scenarios judge nothing in the spec profile


def test_a_run_prints_no_sdk_deprecation_warning(reference_run: KitRun) -> None:
    """Issue 29: the SDK's resources/subscribe deprecation warning (SPEC-06 asks for the
    method: the kit calls it on purpose) is not printed a dozen times per run."""
    assert "DeprecationWarning" not in reference_run.output
