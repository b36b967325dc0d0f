"""bench/matrix_screenshot.py's layout check (``tox -e docs`` runs it in headless Chromium):
what it reports from the measures its frame script takes, without a browser.

With mutation results the SPEC-04, SPEC-06 and SPEC-10 tables were wider than their box at
1400 px (clipped columns), and the summary's ``SPEC-03-07`` ran into its count: the check
must catch both, and a box that would clip a wider table instead of scrolling it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    path = ROOT / "bench" / "matrix_screenshot.py"
    spec = importlib.util.spec_from_file_location("_matrix_screenshot", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _layout(**changes: Any) -> dict[str, Any]:
    """What the frame script measures on a page laid out right at 1400 px."""
    layout: dict[str, Any] = {
        "viewport": 1400,
        "content": [1120, 1120],
        "boxes": [
            ["summary", 900, 1100, "auto", 1380],
            ["SPEC-04", 1100, 1100, "auto", 1380],
            ["SPEC-10", 1100, 1100, "auto", 1380],
        ],
        "summaries": [["REQ-04-05", 1370, 220], ["REQ-10-01", 1370, 220]],
        "cells": [],
        "labels": [["SPEC-03-07", 14], ["all", 30]],
        "names": [],
    }
    return {**layout, **changes}


def test_a_layout_that_fits_passes(bench: ModuleType) -> None:
    assert bench.check_layout(_layout()) == []


def test_a_table_wider_than_its_box_fails(bench: ModuleType) -> None:
    boxes = [["SPEC-06", 1480, 1100, "auto", 1380]]
    problems = bench.check_layout(_layout(boxes=boxes))
    assert problems == ["SPEC-06: table 1480 px in a 1100 px box (a column is out of sight)"]


def test_a_box_that_does_not_scroll_clips_and_fails(bench: ModuleType) -> None:
    boxes = [["SPEC-04", 1100, 1100, "visible", 1380], ["summary", 900, 1100, "hidden", 1380]]
    problems = bench.check_layout(_layout(boxes=boxes))
    assert any("SPEC-04: its box does not scroll" in p for p in problems)
    assert any("summary: its box does not scroll" in p for p in problems)


def test_a_box_beyond_the_window_fails(bench: ModuleType) -> None:
    problems = bench.check_layout(_layout(boxes=[["SPEC-10", 1100, 1100, "auto", 1460]]))
    assert problems == ["SPEC-10: its box ends at 1460 px in a 1400 px window"]


def test_a_cell_whose_content_spills_fails(bench: ModuleType) -> None:
    cells = [["REQ-04-05", "req-col-checks", 240, 130]]
    problems = bench.check_layout(_layout(cells=cells))
    assert problems == ["REQ-04-05: a req-col-checks holds 240 px in 130 px (spills or is clipped)"]


def test_a_document_name_against_its_count_fails(bench: ModuleType) -> None:
    problems = bench.check_layout(_layout(labels=[["SPEC-03-07", 1], ["SPEC-04", -6]]))
    assert problems == [
        "summary: 'SPEC-03-07' is 1 px from its count (runs into it)",
        "summary: 'SPEC-04' is -6 px from its count (runs into it)",
    ]
    assert bench.check_layout(_layout(labels=[])) == [
        "summary: no document name measured against its count"
    ]


def test_content_wider_than_its_column_fails(bench: ModuleType) -> None:
    assert bench.check_page(_layout(content=[1300, 1120]), "SPEC-04") == [
        "SPEC-04: 1300 px of content in its 1120 px column (overflows the page)"
    ]
    assert bench.check_page({}, "SPEC-04") == ["SPEC-04: the frame's script measured nothing"]


def test_the_frame_script_measures_what_the_check_reads(bench: ModuleType) -> None:
    frame = bench._FRAME
    for measure in ("content:", "cells:", "labels:", "overflowX", ".req-summary-box"):
        assert measure in frame, measure
