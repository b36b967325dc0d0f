"""The traceability scans: docstring tags by AST, scenario tags from feature files."""

from __future__ import annotations

from pathlib import Path

from odoo_mcp_conformance.trace.scan import scan_code, scan_features


def test_code_scan_reads_docstrings_only(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        '"""REQ-04-01: module."""\n'
        "# REQ-04-02 in a comment does not count\n"
        'X = "REQ-04-03 in a string does not count"\n'
        "class C:\n"
        '    """REQ-04a-13 and REQ-HTTP-03."""\n'
        "    def f(self):\n"
        '        """REQ-10-02."""\n'
    )
    tags = {(t.req_id, t.name) for t in scan_code([tmp_path], tmp_path)}
    assert tags == {
        ("REQ-04-01", "<module>"),
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
