"""The traceability scans: docstring tags by AST, scenario tags from feature files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from odoo_mcp_conformance.catalogue import load_catalogue
from odoo_mcp_conformance.cli import main
from odoo_mcp_conformance.trace.build import (
    TraceRow,
    build_trace,
    check_trace,
    render_trace_markdown,
)
from odoo_mcp_conformance.trace.scan import scan_code, scan_features
from odoo_mcp_conformance.trace.unit import UnitResult, UnitResults


def test_code_scan_reads_function_and_class_docstrings_only(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        '"""REQ-04-01 in the module docstring does not count: it summarises."""\n'
        "# REQ-04-02 in a comment does not count\n"
        'X = "REQ-04-03 in a string does not count"\n'
        "class C:\n"
        '    """REQ-04a-13 and REQ-HTTP-03."""\n'
        "    def f(self):\n"
        '        """REQ-10-02."""\n'
    )
    tags = {(t.req_id, t.name) for t in scan_code([tmp_path], tmp_path)}
    assert tags == {
        ("REQ-04a-13", "C"),
        ("REQ-HTTP-03", "C"),
        ("REQ-10-02", "C.f"),
    }


def test_feature_scan_applies_feature_tags(tmp_path: Path) -> None:
    (tmp_path / "a.feature").write_text(
        "@SPEC-04 @REQ-04-01\n"
        "Feature: a\n"
        "  Background:\n"
        "    Given x\n"
        "  @REQ-04-02\n"
        "  Scenario: one\n"
        "    Given y\n"
        "  Scenario: two\n"
        "    Given z\n"
        "  @REQ-04-03\n"
        "  Scenario Outline: three\n"
        "    Given <v>\n"
    )
    found = {(s.scenario, s.requirements) for s in scan_features(tmp_path)}
    assert found == {
        ("one", ("REQ-04-01", "REQ-04-02")),
        ("two", ("REQ-04-01",)),
        ("three", ("REQ-04-01", "REQ-04-03")),
    }


def test_shorthand_tags_expand() -> None:
    from odoo_mcp_conformance.trace.scan import expand_tags

    assert expand_tags("REQ-04a-02/03/13: x; REQ-04-35..37 and REQ-HTTP-03") == [
        "REQ-04a-02", "REQ-04a-03", "REQ-04a-13", "REQ-04-35", "REQ-04-36", "REQ-04-37",
        "REQ-HTTP-03",
    ]  # fmt: skip


# --- unit-tested rows: the trace reads the marked tests' results (--req-results) ---


def _units(path: Path, *results: tuple[str, tuple[str, ...], str]) -> Path:
    UnitResults.of(
        UnitResult(nodeid=n, requirements=r, outcome=o)  # type: ignore[arg-type]
        for n, r, o in results
    ).write(path)
    return path


def _must_with_code() -> TraceRow:
    """A testable MUST the reference server tags in a docstring (from today's scan)."""
    return next(r for r in build_trace().rows if r.testable and r.keyword == "MUST" and r.code)


def test_passing_unit_tests_prove_a_row_no_scenario_passed(tmp_path: Path) -> None:
    row = _must_with_code()
    units = _units(
        tmp_path / "u.json",
        ("tests/a.py::test_ok", (row.id,), "passed"),
        ("tests/a.py::test_skip", (row.id,), "skipped"),
    )
    before = next(r for r in build_trace().rows if r.id == row.id)
    assert before.status in ("untested", "not_run")
    assert any(row.id in p for p in check_trace(build_trace(), [row.document]))
    trace = build_trace(unit_results=[units])
    after = next(r for r in trace.rows if r.id == row.id)
    assert after.status == "unit-tested"
    assert after.tests == ("tests/a.py::test_ok (passed)", "tests/a.py::test_skip (skipped)")
    assert not any(row.id in p for p in check_trace(trace, [row.document]))
    assert "`tests/a.py::test_ok (passed)`" in render_trace_markdown(trace)


def test_parametrized_cases_are_counted_under_their_function(tmp_path: Path) -> None:
    row = _must_with_code()
    units = _units(
        tmp_path / "u.json",
        ("t.py::p[1]", (row.id,), "passed"),
        ("t.py::p[2-x]", (row.id,), "failed"),
        ("t.py::p[3]", (row.id,), "passed"),
        ("t.py::q", (row.id,), "passed"),
    )
    found = next(r for r in build_trace(unit_results=[units]).rows if r.id == row.id)
    assert found.tests == ("t.py::p (1 failed, 2 passed)", "t.py::q (passed)")
    assert found.status == "failing"


def test_skipped_or_xfailed_tests_prove_nothing(tmp_path: Path) -> None:
    row = _must_with_code()
    units = _units(
        tmp_path / "u.json",
        ("t.py::a", (row.id,), "skipped"),
        ("t.py::b", (row.id,), "xfailed"),
    )
    after = next(r for r in build_trace(unit_results=[units]).rows if r.id == row.id)
    assert after.status in ("untested", "not_run")


def test_a_failing_unit_test_fails_the_row_even_with_a_passing_scenario(tmp_path: Path) -> None:
    row = _must_with_code()
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"target": "t", "requirements": [
        {"id": row.id, "status": "passing"}
    ]}))  # fmt: skip
    passing = build_trace(results=report, unit_results=[])
    assert next(r for r in passing.rows if r.id == row.id).status in ("passing", "untested")
    units = _units(
        tmp_path / "u.json",
        ("t.py::ok", (row.id,), "passed"),
        ("t.py::ko", (row.id,), "failed"),
    )
    failing = build_trace(results=report, unit_results=[units])
    assert next(r for r in failing.rows if r.id == row.id).status == "failing"
    assert f"{row.id} (MUST) is failing" in check_trace(failing, [row.document])


def test_a_passing_scenario_stays_passing_with_passing_unit_tests(tmp_path: Path) -> None:
    row = next(r for r in build_trace().rows if r.testable and r.scenarios)
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"target": "t", "requirements": [
        {"id": row.id, "status": "passing"}
    ]}))  # fmt: skip
    units = _units(tmp_path / "u.json", ("t.py::ok", (row.id,), "passed"))
    found = next(
        r for r in build_trace(results=report, unit_results=[units]).rows if r.id == row.id
    )
    assert (found.status, found.tests) == ("passing", ("t.py::ok (passed)",))


def test_excluded_rows_stay_excluded_and_unknown_ids_are_reported(tmp_path: Path) -> None:
    catalogue = load_catalogue()
    excluded = next(i for i in catalogue if not catalogue[i].testable)
    units = _units(
        tmp_path / "u.json",
        ("t.py::x", (excluded,), "passed"),
        ("t.py::y", ("REQ-99-99",), "passed"),
    )
    trace = build_trace(unit_results=[units])
    rows = {r.id: r for r in trace.rows}
    assert rows[excluded].status == "excluded"
    assert (rows["REQ-99-99"].status, rows["REQ-99-99"].tests) == (
        "untracked",
        ("t.py::y (passed)",),
    )
    problems = check_trace(trace, ["no such document"])
    assert problems[0] == "REQ-99-99 is tagged but not in the catalogue: ('t.py::y (passed)',)"


def test_trace_check_defaults_to_the_documents_that_must_be_proven(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalogue = load_catalogue()
    assert catalogue.must_prove == tuple(
        d.document.id for d in catalogue.documents if d.document.must_prove
    )
    units = _units(tmp_path / "u.json", ("t.py::x", (next(iter(catalogue)),), "passed"))
    assert main(["trace", "--unit-results", str(units), "--check"]) == 1  # no kit run: not_run
    printed = [
        line[6:] for line in capsys.readouterr().out.splitlines() if line.startswith("FAIL: ")
    ]
    trace = build_trace(unit_results=[units])
    assert printed == check_trace(trace, catalogue.must_prove)
    # the documents not yet required are left out
    named = {p.split()[0] for p in printed if p.startswith("REQ-")}
    assert {catalogue.document_of[i] for i in named} <= set(catalogue.must_prove)
    assert main(["trace", "--unit-results", str(tmp_path / "missing.json"), "--check"]) == 2


def test_a_document_not_required_must_say_why(tmp_path: Path) -> None:
    head = '[document]\nid = "X"\ntitle = "x"\nsource = "x"\n'
    row = (
        '\n[[requirement]]\nid = "REQ-99-01"\nkeyword = "MUST"\nsection = "s"\n'
        'summary = "a requirement of ten"\nstatus = "testable"\narea = "a"\n'
    )
    (tmp_path / "X.toml").write_text(head + "must_prove = false\n" + row)
    with pytest.raises(ValueError, match="must_prove = false needs a why"):
        load_catalogue(tmp_path)
    (tmp_path / "X.toml").write_text(head + row)
    assert load_catalogue(tmp_path).must_prove == ("X",)  # required unless it says why not
    (tmp_path / "X.toml").write_text(head + 'must_prove = false\nwhy = "later"\n' + row)
    assert load_catalogue(tmp_path).must_prove == ()
