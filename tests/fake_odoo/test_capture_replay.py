"""Every real Odoo 19 capture, replayed against the served fake, must get the same answer.

Parametrised over ``tests/fixtures/odoo19/*.json``: each capture (or each step of a flow,
on a fresh database) is sent with stdlib XML-RPC or httpx2 and its ``Outcome`` compared
with the capture's.  ``tests/fixtures/replay_expected_differences.toml`` lists the captures
(or flow steps) that legitimately differ; those must differ, so a stale entry fails.
"""

from __future__ import annotations

import pytest
from replay import (
    CAPTURES,
    Replayer,
    StepReport,
    capture_names,
    expected_differences,
    load_capture,
    steps_of,
)

from fake_odoo import FakeOdoo

pytestmark = pytest.mark.wire

DIFFERENCES = expected_differences()
TARGET_RATE = 0.9


def _captures() -> list[object]:
    params: list[object] = []
    for name in capture_names():
        entry = DIFFERENCES.get(name)
        marks = []
        if entry is not None and not entry.steps:
            marks.append(pytest.mark.xfail(strict=True, reason=entry.reason))
        params.append(pytest.param(name, id=name.removesuffix(".json"), marks=marks))
    return params


@pytest.fixture(scope="module")
def replayer(fake_odoo_served: FakeOdoo) -> Replayer:
    return Replayer(fake_odoo_served)


def render(name: str, reports: list[StepReport]) -> str:
    lines = [f"{name}: {len(reports)} step(s) differ from real Odoo 19"]
    for report in reports:
        lines.append(f"step {report.step} {report.label!r} ({report.expected.call or '-'}):")
        lines.extend(f"    {diff}" for diff in report.differences)
    return "\n".join(lines)


RESULTS: dict[str, bool] = {}  # capture -> replayed identically (for the rate test)


@pytest.mark.parametrize("name", _captures())
def test_capture_replays_identically(replayer: Replayer, name: str) -> None:
    reports = replayer.run(name)
    RESULTS[name] = not any(r.differences for r in reports)
    entry = DIFFERENCES.get(name)
    listed = set(entry.steps) if entry is not None else set()
    differing = [r for r in reports if r.differences and r.step not in listed]
    assert not differing, render(name, differing)
    stale = sorted(r.step for r in reports if r.step in listed and not r.differences)
    assert not stale, f"{name}: steps {stale} now replay identically; drop them from the toml"


def test_expected_differences_name_real_captures_and_steps() -> None:
    for name, entry in DIFFERENCES.items():
        assert (CAPTURES / name).is_file(), f"{name} is not a capture file"
        assert entry.reason.strip(), f"{name} has no reason"
        steps = {int(s.get("step", 0)) for s in steps_of(load_capture(name))}
        assert set(entry.steps) <= steps, f"{name}: no such steps {set(entry.steps) - steps}"


def test_captures_carry_no_odoo_source() -> None:
    # Every fixture file, not only the replayed captures: no Odoo source line in our repo.
    paths = sorted(CAPTURES.parent.rglob("*.json"))
    assert len(paths) > 100
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert 'File "' not in text and "/opt/odoo" not in text, path.name


def test_replay_rate_reaches_the_target(replayer: Replayer) -> None:
    # Last in the module: reuses the replays above, replays whatever was deselected.
    names = capture_names()
    for name in names:
        if name not in RESULTS:
            RESULTS[name] = not any(r.differences for r in replayer.run(name))
    others = sorted(name for name in names if not RESULTS[name])
    rate = (len(names) - len(others)) / len(names)
    assert rate >= TARGET_RATE, (
        f"{len(names) - len(others)}/{len(names)} capture files replay identically; "
        f"the others: {others}"
    )
