"""Every real Odoo capture, replayed against the served fake, must get the same answer.

Parametrised over the batches (``tests/fixtures/odoo19/*.json``: real Odoo 19;
``odoo17/*.json``: the same requests on a real Odoo 17), each against a fake of that version
and database name: each capture (or each step of a flow, on a fresh database) is sent with
stdlib XML-RPC or httpx2 and its ``Outcome`` compared with the capture's.  A batch's
``replay_expected_differences*.toml`` lists the captures (or flow steps) that legitimately
differ; those must differ, so a stale entry fails.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from replay import (
    BATCHES,
    FIXTURES,
    Batch,
    Replayer,
    StepReport,
    capture_names,
    expected_differences,
    load_capture,
    steps_of,
)

from fake_odoo import FakeOdoo
from fake_odoo.testing import serve_fake_odoo

pytestmark = pytest.mark.wire

DIFFERENCES = {name: expected_differences(batch) for name, batch in BATCHES.items()}
TARGET_RATE = 0.9


def _captures() -> list[object]:
    params: list[object] = []
    for batch in BATCHES:
        for name in capture_names(BATCHES[batch]):
            entry = DIFFERENCES[batch].get(name)
            marks = []
            if entry is not None and not entry.steps:
                marks.append(pytest.mark.xfail(strict=True, reason=entry.reason))
            capture_id = f"{batch}/{name.removesuffix('.json')}"
            params.append(pytest.param(batch, name, id=capture_id, marks=marks))
    return params


@pytest.fixture(scope="module")
def replayers() -> Iterator[dict[str, Replayer]]:
    """One served fake per batch, of the batch's version and database, started when needed."""
    started: dict[str, Replayer] = {}
    stops: list[object] = []

    class Lazy(dict[str, Replayer]):
        def __missing__(self, key: str) -> Replayer:
            batch = BATCHES[key]
            context = serve_fake_odoo(fake=FakeOdoo(batch.version, database=batch.database))
            fake = context.__enter__()
            stops.append(context)
            started[key] = self[key] = Replayer(fake, batch)
            return started[key]

    yield Lazy()
    for context in reversed(stops):
        context.__exit__(None, None, None)  # type: ignore[attr-defined]


def render(batch: Batch, name: str, reports: list[StepReport]) -> str:
    lines = [f"{name}: {len(reports)} step(s) differ from real Odoo {batch.version}"]
    for report in reports:
        lines.append(f"step {report.step} {report.label!r} ({report.expected.call or '-'}):")
        lines.extend(f"    {diff}" for diff in report.differences)
    return "\n".join(lines)


RESULTS: dict[tuple[str, str], bool] = {}  # (batch, capture) -> replayed identically


@pytest.mark.parametrize(("batch", "name"), _captures())
def test_capture_replays_identically(replayers: dict[str, Replayer], batch: str, name: str) -> None:
    reports = replayers[batch].run(name)
    RESULTS[(batch, name)] = not any(r.differences for r in reports)
    entry = DIFFERENCES[batch].get(name)
    listed = set(entry.steps) if entry is not None else set()
    differing = [r for r in reports if r.differences and r.step not in listed]
    assert not differing, render(BATCHES[batch], name, differing)
    stale = sorted(r.step for r in reports if r.step in listed and not r.differences)
    assert not stale, f"{name}: steps {stale} now replay identically; drop them from the toml"


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_expected_differences_name_real_captures_and_steps(batch: str) -> None:
    for name, entry in DIFFERENCES[batch].items():
        assert (BATCHES[batch].captures / name).is_file(), f"{name} is not a capture file"
        assert entry.reason.strip(), f"{name} has no reason"
        steps = {int(s.get("step", 0)) for s in steps_of(load_capture(name, BATCHES[batch]))}
        assert set(entry.steps) <= steps, f"{name}: no such steps {set(entry.steps) - steps}"


def test_captures_carry_no_odoo_source() -> None:
    # Every fixture file, not only the replayed captures: no Odoo source line in our repo.
    paths = sorted(FIXTURES.rglob("*.json"))
    assert len(paths) > 250
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert 'File "' not in text and "/opt/odoo" not in text, path.name


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_replay_rate_reaches_the_target(replayers: dict[str, Replayer], batch: str) -> None:
    # Last in the module: reuses the replays above, replays whatever was deselected.
    names = capture_names(BATCHES[batch])
    for name in names:
        if (batch, name) not in RESULTS:
            reports = replayers[batch].run(name)
            RESULTS[(batch, name)] = not any(r.differences for r in reports)
    others = sorted(name for name in names if not RESULTS[(batch, name)])
    rate = (len(names) - len(others)) / len(names)
    assert rate >= TARGET_RATE, (
        f"{batch}: {len(names) - len(others)}/{len(names)} capture files replay identically; "
        f"the others: {others}"
    )
