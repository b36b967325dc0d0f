"""The kit's time scale: measured once per run, as cheaply as the answer allows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from odoo_mcp_conformance import timing

QUIET = timing._QUIET_SECONDS


def _timings(monkeypatch: pytest.MonkeyPatch, taken: list[float]) -> list[float]:
    """Make ``_work`` take ``taken`` in turn; returns the list of the timings handed out."""
    handed: list[float] = []
    values: Iterator[float] = iter(taken)

    def work() -> float:
        handed.append(next(values))
        return handed[-1]

    monkeypatch.setattr(timing, "_work", work)
    return handed


def test_a_quiet_majority_ends_the_calibration_at_scale_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    handed = _timings(monkeypatch, [QUIET / 2, QUIET * 9, QUIET, QUIET / 3, QUIET * 9])
    assert timing.calibrate() == 1.0
    assert len(handed) == 4  # the third quiet timing decides: the median of five is quiet


def test_a_busy_machine_gets_the_median_of_every_timing(monkeypatch: pytest.MonkeyPatch) -> None:
    handed = _timings(monkeypatch, [QUIET * 3, QUIET / 2, QUIET * 2, QUIET / 2, QUIET * 4])
    assert timing.calibrate() == 2.0  # the median of all five, not of the first ones
    assert len(handed) == 5


def test_the_scale_never_grows_past_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    _timings(monkeypatch, [QUIET * 100] * 5)
    assert timing.calibrate() == timing._MAX_SCALE
