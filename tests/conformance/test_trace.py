"""The traceability scans: docstring tags by AST, scenario tags from feature files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from odoo_mcp_conformance.catalogue import load_catalogue
from odoo_mcp_conformance.cli import main
from odoo_mcp_conformance.trace.build import (
    Trace,
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


# --- the docs site's matrix (trace/matrix.py): summary, colours, links, filter attributes ---

REPO = "https://github.com/odoo-mcp/odoo-mcp"


def _trace_of(*rows: TraceRow) -> Trace:
    from collections import Counter

    return Trace(
        target=None,
        counts=dict(sorted(Counter(r.status for r in rows).items())),
        rows=rows,
        untagged_scenarios=(),
    )


def _row(req_id: str, document: str, status: str, **more: object) -> TraceRow:
    fields: dict[str, object] = {
        "id": req_id, "document": document, "keyword": "MUST", "summary": "a <summary> & more",
        "testable": status != "excluded", "status": status, "code": (), "scenarios": (),
        **more,
    }  # fmt: skip
    return TraceRow.model_validate(fields)


def _matrix_trace() -> Trace:
    return _trace_of(
        _row(
            "REQ-04-01", "SPEC-04", "passing", section="Tools",
            code=("src/odoo_mcp/tools/read.py:12 search_read",),
            scenarios=("tools_read.feature: reads",),
            scenario_locations=("features/tools_read.feature:7",),
            seed_status="passing",
        ),
        _row("REQ-04-02", "SPEC-04", "failing", decisions=(11,), section="Domains"),
        _row("REQ-04-03", "SPEC-04", "unit-tested"),
        _row("REQ-10-01", "SPEC-10", "untested"),
        _row("REQ-10-02", "SPEC-10", "excluded"),
        _row("REQ-10-03", "SPEC-10", "passing"),
        _row("REQ-99-01", "?", "untracked"),
    )  # fmt: skip


def _summary_counts(html: str) -> dict[str, dict[str, int]]:
    import re

    found: dict[str, dict[str, int]] = {}
    for doc, cells in re.findall(
        r'<tr class="req-summary-\w+" data-document="([^"]+)">(.*?)</tr>', html
    ):
        pairs = re.findall(r'data-status="([^"]+)" data-count="(\d+)"', cells)
        found[doc] = {status: int(n) for status, n in pairs}
    return found


def test_matrix_summary_counts_each_status_per_document() -> None:
    from odoo_mcp_conformance.trace.matrix import render_matrix

    counts = _summary_counts(render_matrix(_matrix_trace(), REPO))
    assert counts["SPEC-04"] == {
        "passing": 1, "unit-tested": 1, "failing": 1, "untested": 0, "excluded": 0,
        "untracked": 0,
    }  # fmt: skip
    assert counts["SPEC-10"]["passing"] == 1 and counts["SPEC-10"]["excluded"] == 1
    assert counts["all"] == {
        "passing": 2, "unit-tested": 1, "failing": 1, "untested": 1, "excluded": 1,
        "untracked": 1,
    }  # fmt: skip
    html = render_matrix(_matrix_trace(), REPO)
    # the bar of SPEC-04's passing share: one row of three
    spec04 = html.split('data-document="SPEC-04">', 1)[1].split("</tr>", 1)[0]
    assert 'class="req-bar-fill req-status-passing" style="width: 33%"' in spec04


def test_matrix_statuses_carry_their_colour_class() -> None:
    from odoo_mcp_conformance.trace.matrix import render_matrix, status_class

    html = render_matrix(_matrix_trace(), REPO)
    for status in ("passing", "unit-tested", "failing", "untested", "excluded", "untracked"):
        assert f'<span class="req-status {status_class(status)}">{status}</span>' in html
    assert status_class("not_run") == "req-status-not-run"
    css = (Path(__file__).parents[2] / "docs" / "stylesheets" / "matrix.css").read_text()
    for status in ("passing", "unit-tested", "failing", "untested", "excluded", "untracked"):
        assert f".{status_class(status)} {{" in css


def test_matrix_links_code_and_scenarios_to_the_repository_lines() -> None:
    """Outside a site (a bare repository URL): every link goes to the repository's ``main``."""
    from odoo_mcp_conformance.trace.matrix import render_matrix

    html = render_matrix(_matrix_trace(), REPO)
    assert f'href="{REPO}/blob/main/src/odoo_mcp/tools/read.py#L12"' in html
    feature = f"{REPO}/blob/main/features/tools_read.feature#L7"
    assert (
        f'href="{feature}"><span class="req-feature">tools_read.feature:</span> reads</a>' in html
    )
    assert f'<a href="{REPO}/blob/main/spec/decisions.md">decision 11</a>' in html
    assert "a &lt;summary&gt; &amp; more" in html and "<summary>" not in html


def test_matrix_on_the_site_links_its_pages_and_code_at_the_commit() -> None:
    """Issue 29: on the site, code links carry the build's commit; requirements, scenarios and
    decisions link to the site's own pages (relative to the matrix page's URL)."""
    from odoo_mcp_conformance.trace.matrix import MATRIX_PAGE, Links, render_matrix

    links = Links(REPO, ref="0123abcd").on(MATRIX_PAGE)
    html = render_matrix(_matrix_trace(), links)
    assert "blob/main" not in html
    assert f'href="{REPO}/blob/0123abcd/src/odoo_mcp/tools/read.py#L12"' in html
    assert '<a href="../requirements/SPEC-04/#REQ-04-01"><code>REQ-04-01</code></a>' in html
    assert '<a href="../requirements/untracked/#REQ-99-01">' in html
    assert 'href="../scenarios/tools_read/#L7"' in html
    assert '<a href="../../decisions/#decision-11">decision 11</a>' in html
    # without directory URLs the links name the .html files
    flat = render_matrix(_matrix_trace(), Links(REPO, directory_urls=False).on(MATRIX_PAGE))
    assert 'href="requirements/SPEC-04.html#REQ-04-01"' in flat
    assert 'href="../decisions.html#decision-11"' in flat
    # Markdown pages link .md files, which MkDocs resolves and checks
    page = Links(REPO).on("conformance/requirements/SPEC-04.md", markdown=True)
    assert page.requirement("REQ-10-01", "SPEC-10") == "SPEC-10.md#REQ-10-01"
    assert page.decision(11) == "../../decisions.md#decision-11"
    assert page.scenario("features/tools_read.feature:7") == "../scenarios/tools_read.md#L7"


def test_matrix_rows_carry_the_filter_attributes_and_the_seed_section() -> None:
    from odoo_mcp_conformance.trace.matrix import render_matrix

    html = render_matrix(_matrix_trace(), REPO)
    assert (
        '<tr class="req-row" id="REQ-04-02" data-document="SPEC-04" data-status="failing" '
        'data-source="decision">'
    ) in html
    assert 'id="REQ-04-01" data-document="SPEC-04" data-status="passing" data-source="seed"' in html
    assert 'id="REQ-99-01" data-document="?" data-status="untracked" data-source="none"' in html
    assert '<td class="req-col-section">Domains<br>' in html
    assert '<td class="req-col-section">Tools</td>' in html
    for name in ("document", "status", "source"):
        assert f'<select data-filter="{name}">' in html
    assert "7 of 7 shown" in html
    # raw HTML blocks stay whole: Markdown ends a block at a blank line
    for block in html.split("\n\n"):
        assert block.strip() and "\n\n" not in block


def test_matrix_of_the_real_catalogue_without_a_run() -> None:
    """No kit run: every catalogue row is shown, with its section and repository links."""
    from odoo_mcp_conformance.trace.matrix import render_matrix

    trace = build_trace()
    html = render_matrix(trace, REPO)
    assert html.count('<tr class="req-row"') == len(trace.rows)
    row = next(r for r in trace.rows if r.scenarios and r.section)
    assert len(row.scenario_locations) == len(row.scenarios)
    assert row.scenario_locations[0].startswith("features/")
    assert (
        f'<td class="req-col-section">{row.section}' in html or row.section != row.section.strip()
    )
    assert f"{REPO}/blob/main/features/" in html and f"{REPO}/blob/main/src/" in html
    assert '<td class="req-col-section">' in html


def test_a_seed_requirement_no_killed_mutant_proves_is_unproven(tmp_path: Path) -> None:
    """Issue 27: passing checks prove nothing until a mutant showed they can fail."""
    from odoo_mcp_conformance.trace.matrix import mutation_table
    from odoo_mcp_conformance.trace.mutation import write_mutation_results

    report = tmp_path / "report.json"
    ids = ("REQ-04-05", "REQ-04-03", "REQ-04-04", "REQ-11-12")
    report.write_text(json.dumps({"target": "t", "requirements": [
        {"id": req, "status": "passing"} for req in ids
    ]}))  # fmt: skip
    results = tmp_path / "mutation"
    write_mutation_results(
        results / "mutants.json",
        mutants={
            "pairs": (["REQ-04-05"], ["REQ-04-05"]),  # killed
            "count": (["REQ-04-03"], []),  # survived
        },
        variants={"total_count": (["REQ-04-03"], [])},
    )
    trace = build_trace(results=report, mutation_results=[results])
    rows = {r.id: r for r in trace.rows}
    assert (rows["REQ-04-05"].status, rows["REQ-04-05"].proof) == ("passing", "killed")
    assert (rows["REQ-04-03"].status, rows["REQ-04-03"].proof) == ("unproven", "survived")
    assert rows["REQ-04-03"].mutants == ("count (survived)", "total_count (variant passes)")
    assert (rows["REQ-04-04"].status, rows["REQ-04-04"].proof) == ("unproven", "none")
    # not a seed document: mutants are not required there
    assert rows["REQ-11-12"].status == "passing"
    assert any("a mutant survived" in p for p in check_trace(trace, ["SPEC-04"]))
    score = trace.mutation_scores["SPEC-04"]
    assert (score.killed, score.mutants, score.proven) == (1, 2, 1)
    assert "| SPEC-04 | 1/2 | 50% |" in mutation_table(trace)
    # without mutation results nothing is downgraded
    plain = {r.id: r for r in build_trace(results=report).rows}
    assert plain["REQ-04-04"].status == "passing" and plain["REQ-04-04"].proof == "not_run"


def test_matrix_summary_keeps_a_document_name_apart_from_its_count() -> None:
    """``SPEC-03-07`` ran into its count: the name, the total and each count are cells (and
    spans) of their own, padded, the name on one line, the table in a box that scrolls."""
    from odoo_mcp_conformance.trace.matrix import render_matrix

    html = render_matrix(_trace_of(_row("REQ-03-07-01", "SPEC-03-07", "passing")), REPO)
    row = html.split('<tr class="req-summary-doc" data-document="SPEC-03-07">', 1)[1]
    row = row.split("</tr>", 1)[0]
    assert row.startswith(
        '<th class="req-summary-name" scope="row">SPEC-03-07</th><td class="req-summary-n">1</td>'
    )
    assert '<span class="req-count-n">1</span> <span class="req-bar">' in row
    assert html.startswith('<div class="req-summary-box"><table class="req-summary">')
    css = (Path(__file__).parents[2] / "docs" / "stylesheets" / "matrix.css").read_text()
    assert "table.req-summary th,\ntable.req-summary td { padding:" in css
    assert "table.req-summary th.req-summary-name { white-space: nowrap; }" in css
    assert ".req-summary-box { overflow-x: auto;" in css


def test_matrix_long_identifiers_wrap_and_tables_scroll_in_their_box() -> None:
    """With mutation results the Checks column lists mutant names (``ni_relational_name_search
    (killed)``), one unbreakable word each: they, the seed section and the summary may break
    anywhere, and a table wider than its box scrolls in it rather than being clipped."""
    from odoo_mcp_conformance.trace.matrix import render_matrix

    row = _row(
        "REQ-04-05", "SPEC-04", "passing", proof="killed",
        mutants=("readonly_lists_extra_write_tool (killed)",), section="3.1 odoo_core_read",
    )  # fmt: skip
    html = render_matrix(_trace_of(row), REPO)
    assert '<span class="req-mutant">readonly_lists_extra_write_tool (killed)</span>' in html
    assert '<div class="req-scroll"><table class="req-matrix">' in html
    css = (Path(__file__).parents[2] / "docs" / "stylesheets" / "matrix.css").read_text()
    rules = {
        selector.strip(): body
        for selector, body in __import__("re").findall(r"([^{}]+)\{([^{}]*)\}", css)
    }
    mutant = "table.req-matrix .req-sources,\ntable.req-matrix .req-mutant"
    assert "overflow-wrap: anywhere" in rules[mutant]
    for column in ("section", "scenarios", "summary"):
        assert "overflow-wrap: anywhere" in rules[f"table.req-matrix td.req-col-{column}"]
    assert "overflow-x: auto" in rules[".req-scroll"]


def _page_of(tmp_path: Path, **options: object) -> str:
    from odoo_mcp_conformance.trace.matrix import Links
    from odoo_mcp_conformance.trace.pages import requirement_failures, requirement_pages

    report = tmp_path / "report.json"
    report.write_text(json.dumps({"target": "t", "requirements": [
        {"id": "REQ-04-06", "status": "failing", "failures": [
            "tools_read.feature: reads [stdio]: expected <b>5</b> & got *none* | `x`",
            "tools_read.feature: reads [stdio]: expected <b>5</b> & got *none* | `x`",
        ]},
        {"id": "REQ-04-05", "status": "passing", "failures": []},
    ]}))  # fmt: skip
    trace = build_trace(results=report)
    failures = requirement_failures([report, report])
    assert failures == {
        "REQ-04-06": ["tools_read.feature: reads [stdio]: expected <b>5</b> & got *none* | `x`"]
    }
    pages = requirement_pages(
        trace, load_catalogue(), Links(REPO, ref="abc"), {}, failures=failures, **options
    )
    return pages["conformance/requirements/SPEC-04.md"]


def test_a_failing_requirement_shows_its_failure_messages_escaped(tmp_path: Path) -> None:
    page = _page_of(tmp_path)
    failing = page.split("## REQ-04-06 {#REQ-04-06}", 1)[1].split("\n## ", 1)[0]
    assert "**Failures** (1)" in failing
    assert (
        '<ul class="req-failures"><li>tools_read.feature: reads [stdio]: expected '
        "&lt;b&gt;5&lt;/b&gt; &amp; got *none* | `x`</li></ul>"
    ) in failing
    passing = page.split("## REQ-04-05 {#REQ-04-05}", 1)[1].split("\n## ", 1)[0]
    assert "Failures" not in passing and "req-failures" not in passing


def test_a_requirement_page_links_its_seed_file_in_the_repository(tmp_path: Path) -> None:
    source = load_catalogue().documents
    seed = next(doc.document.source for doc in source if doc.document.id == "SPEC-04")
    page = _page_of(tmp_path)
    assert f"From [`{seed}`]({REPO}/blob/abc/{seed}) (" in page
    # a file the repository lacks is named, not linked to a page that does not exist
    missing = _page_of(tmp_path, in_repository=lambda path: False)
    assert f"From `{seed}` (" in missing and "its text is not in this repository" in missing
    assert f"/blob/abc/{seed})" not in missing
