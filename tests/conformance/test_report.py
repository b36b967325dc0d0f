"""Verdicts per requirement, baselines, and deterministic reports."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree as ET

from odoo_mcp_conformance.baseline import Baseline, ExpectedFailure
from odoo_mcp_conformance.catalogue import Catalogue, Document
from odoo_mcp_conformance.report import ScenarioResult, build_report, write_reports


def _catalogue() -> Catalogue:
    rows = [
        ("REQ-99-01", "MUST", "testable"),
        ("REQ-99-02", "SHOULD", "testable"),
        ("REQ-99-03", "MAY", "testable"),
        ("REQ-99-04", "MUST", "testable"),
        ("REQ-99-05", "MUST", "excluded"),
        ("REQ-99-10", "MUST", "testable"),
    ]
    doc = {
        "document": {"id": "T", "title": "test", "source": "t.md"},
        "requirement": [
            {
                "id": i, "keyword": k, "section": "1", "summary": f"summary of {i}",
                "status": s, "reason": "not observable" if s == "excluded" else "", "area": "x",
            }
            for i, k, s in rows
        ],
    }  # fmt: skip
    return Catalogue([Document.model_validate(doc)])


def _result(name: str, reqs: tuple[str, ...], outcome: str) -> ScenarioResult:
    return ScenarioResult.model_validate(
        {"id": name, "feature": "f.feature", "scenario": name, "requirements": reqs,
         "outcome": outcome, "message": "boom" if outcome == "failed" else ""}
    )  # fmt: skip


RESULTS = [
    _result("a", ("REQ-99-01",), "passed"),
    _result("b", ("REQ-99-01", "REQ-99-02"), "failed"),
    _result("c", ("REQ-99-03",), "failed"),
    _result("d", ("REQ-99-04",), "not_applicable"),
]


def test_statuses_and_severities_follow_the_keyword() -> None:
    report = build_report(
        target="t", odoo_version="19.0", catalogue=_catalogue(), results=RESULTS,
        baseline=Baseline(),
    )  # fmt: skip
    by_id = {v.id: v for v in report.requirements}
    assert [v.id for v in report.requirements][-1] == "REQ-99-10"  # numeric order
    assert by_id["REQ-99-01"].status == "failing" and by_id["REQ-99-01"].severity == "error"
    assert by_id["REQ-99-02"].severity == "warning"
    assert by_id["REQ-99-03"].severity == "info"
    assert by_id["REQ-99-04"].status == "not_applicable"
    assert by_id["REQ-99-05"].status == "excluded"
    assert by_id["REQ-99-10"].status == "untested"
    assert report.unexpected_failures == ("REQ-99-01",)
    assert report.warnings == ("REQ-99-02",)
    assert not report.meets_baseline


def test_strict_turns_should_failures_into_errors() -> None:
    report = build_report(
        target="t", odoo_version="19.0", catalogue=_catalogue(), results=RESULTS,
        baseline=Baseline(), strict=True,
    )  # fmt: skip
    assert report.unexpected_failures == ("REQ-99-01", "REQ-99-02")


def test_baseline_covers_failures_and_stale_entries_fail() -> None:
    baseline = Baseline(
        expected_failure=(
            ExpectedFailure(id="REQ-99-01", reason="known bug"),
            ExpectedFailure(id="REQ-99-03", reason="known"),
        )
    )
    report = build_report(
        target="t", odoo_version="19.0", catalogue=_catalogue(), results=RESULTS,
        baseline=baseline,
    )  # fmt: skip
    assert report.unexpected_failures == ()
    assert report.meets_baseline
    fixed = [r for r in RESULTS if r.id != "b"] + [_result("b", ("REQ-99-01",), "passed")]
    report = build_report(
        target="t", odoo_version="19.0", catalogue=_catalogue(), results=fixed,
        baseline=baseline,
    )  # fmt: skip
    assert report.stale_baseline_entries == ("REQ-99-01",)
    assert not report.meets_baseline


def test_reports_are_deterministic(tmp_path: Path) -> None:
    outputs = []
    for order in (RESULTS, list(reversed(RESULTS))):
        report = build_report(
            target="t", odoo_version="19.0", catalogue=_catalogue(), results=order,
            baseline=Baseline(),
        )  # fmt: skip
        directory = tmp_path / str(len(outputs))
        paths = write_reports(report, directory)
        outputs.append({kind: path.read_bytes() for kind, path in paths.items()})
    assert outputs[0] == outputs[1]
    suite = ET.fromstring(outputs[0]["junit"])
    assert suite.get("tests") == "4" and suite.get("failures") == "2"
    assert suite.get("skipped") == "1"
    assert b"REQ-99-01" in outputs[0]["markdown"]


def test_markdown_opens_with_the_failures_and_says_why_scenarios_did_not_apply() -> None:
    from odoo_mcp_conformance.report import render_markdown

    results = [
        *RESULTS[:3],
        ScenarioResult.model_validate(
            {"id": "d", "feature": "f.feature", "scenario": "d", "requirements": ("REQ-99-04",),
             "outcome": "not_applicable",
             "message": "setting `subscription_poll_interval` is not mapped in the target"}
        ),
    ]  # fmt: skip
    catalogue = _catalogue()
    report = build_report(target="t", odoo_version="19.0", catalogue=catalogue,
                          results=results, baseline=Baseline())  # fmt: skip
    text = render_markdown(report, catalogue)
    assert text.index("## Failures") < text.index("## Counts") < text.index("## Requirements")
    assert "### REQ-99-01 (MUST)" in text and "Source: T (t.md), section 1" in text
    assert "- f.feature: b: boom" in text
    assert "f.feature: d: setting `subscription_poll_interval` is not mapped" in text
