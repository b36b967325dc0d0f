"""The kit's progress (progress.py): a line per scenario as it ends, an estimate of the time
left (a bar on a terminal, a line now and then in a log), a summary, the shards' events
merged."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_mcp_conformance.progress import EventFile, EventReader, FeatureProgress, Finished


class Clock:
    """Wall time the test moves by hand: no sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _done(
    outcome: str,
    *requirements: str,
    scenario: str = "s",
    feature: str = "a.feature",
    seconds: float = 1.0,
    message: str = "",
    retried: bool = False,
) -> Finished:
    return Finished(feature, scenario, outcome, seconds, message, requirements, retried)


def _fill(text: str) -> str:
    """The requirements column, padded as the lines pad it."""
    return text.ljust(29)


def test_verbose_prints_a_line_per_scenario_as_it_ends() -> None:
    out: list[str] = []
    progress = FeatureProgress(out.append, verbose=True)
    progress.collected({"tools_read.feature": 10, "a.feature": 2})
    progress.finished(
        _done("passed", "REQ-04-05", "REQ-04-06", feature="tools_read.feature", seconds=0.4)
    )
    progress.finished(_done("not_applicable", seconds=12.3, scenario="No REQ"))
    progress.finished(_done("noted", "REQ-01-01", "REQ-01-02", "REQ-01-03", "REQ-01-04"))
    four = "REQ-01-01 REQ-01-02 REQ-01-03 +1"  # at most three, then how many more
    assert out == [
        f"[ 1/12] passed         0.4 s  {_fill('REQ-04-05 REQ-04-06')}  tools_read.feature: s\n",
        f"[ 2/12] n/a           12.3 s  {_fill('')}  a.feature: No REQ\n",
        f"[ 3/12] noted          1.0 s  {_fill(four)}  a.feature: s\n",
    ]


def test_a_failed_or_inconclusive_scenario_gives_its_reason_on_one_cut_line() -> None:
    out: list[str] = []
    progress = FeatureProgress(out.append)  # quiet: only these two are shown
    progress.collected({"a.feature": 3})
    progress.finished(_done("passed", "REQ-01-01"))
    progress.finished(_done("failed", "REQ-01-02", message="expected 3\n  got 4"))
    progress.finished(_done("inconclusive", message="timeout " + "x" * 400, retried=True))
    assert out[:2] == [
        f"[2/3] FAILED         1.0 s  {_fill('REQ-01-02')}  a.feature: s\n",
        "      reason: expected 3 got 4\n",
    ]
    assert out[2] == f"[3/3] INCONCLUSIVE   1.0 s  {_fill('')}  a.feature: s (retry)\n"
    reason = out[3].removeprefix("      reason: ").removesuffix("\n")
    assert len(reason) == 300 and reason.startswith("timeout xxx") and reason.endswith("...")
    assert len(out) == 4


def test_the_total_is_unknown_until_every_shard_collected() -> None:
    out: list[str] = []
    progress = FeatureProgress(out.append, sources=2, verbose=True)
    progress.collected({"a.feature": 1})
    progress.finished(_done("passed"))
    progress.collected({})  # a claiming shard: the first one counts every scenario
    progress.finished(_done("passed"))
    assert [line[:6] for line in out] == ["[1/?] ", "[2/1] "]


def test_the_estimate_line_comes_at_most_every_30_s_after_5_scenarios() -> None:
    clock = Clock()
    out: list[str] = []
    progress = FeatureProgress(out.append, clock=clock)
    progress.collected({"a.feature": 20})
    for _ in range(4):  # 4 done after 40 s: too few for an estimate
        clock.now += 10
        progress.finished(_done("passed"))
    assert out == []
    clock.now += 10
    progress.finished(_done("passed"))  # 5 done in 50 s: 15 left, 10 s each
    assert out == ["... 5/20 scenarios done, about 2 min 30 s left\n"]
    clock.now += 29
    progress.finished(_done("passed"))
    assert len(out) == 1  # 29 s since the last one
    clock.now += 1
    progress.finished(_done("passed"))  # 7 done in 80 s: 13 left
    assert out[-1] == "... 7/20 scenarios done, about 2 min 29 s left\n"


def test_the_bar_is_redrawn_with_the_estimate_and_cleared_before_a_line() -> None:
    clock = Clock()
    out: list[str] = []
    progress = FeatureProgress(out.append, bar=True, clock=clock)
    progress.collected({"a.feature": 10})
    assert out == ["\r[" + "." * 30 + "] 0/10 scenarios"]
    for _ in range(5):
        clock.now += 2
        progress.finished(_done("passed"))
    assert out[-1] == "\r[" + "#" * 15 + "." * 15 + "] 5/10 scenarios, about 10 s left"
    assert all("done" not in line for line in out)  # no estimate line under a bar
    progress.finished(_done("failed", message="boom"))
    # the bar is wiped before the scenario's lines, then drawn again under them
    assert out[-4:-1] == [
        "\r\033[K",
        f"[ 6/10] FAILED         1.0 s  {_fill('')}  a.feature: s\n",
        "      reason: boom\n",
    ]
    assert out[-1].startswith("\r[" + "#" * 18 + "." * 12 + "] 6/10 scenarios, about ")
    progress.close()
    assert out[-2] == "\r\033[K"
    assert out[-1].startswith("interrupted after 6/10 scenarios")


def test_a_retry_replaces_the_inconclusive_run_in_the_summary() -> None:
    clock = Clock()
    out: list[str] = []
    progress = FeatureProgress(out.append, clock=clock)
    progress.collected({"a.feature": 4})
    progress.finished(_done("inconclusive", "REQ-01-01", scenario="slow"))
    progress.finished(_done("inconclusive", "REQ-01-02", scenario="slow"))
    progress.finished(_done("passed", scenario="other"))
    progress.finished(_done("not_applicable", "REQ-01-03", scenario="na"))
    progress.finished(_done("passed", "REQ-01-01", scenario="slow", retried=True))
    clock.now += 192
    progress.close()
    assert out[-1] == (
        "4 scenarios in 3 min 12 s: 2 passed, 0 failed, 1 n/a, 0 noted, 1 inconclusive"
        " (1 retried)\n"
    )


def test_an_interrupted_run_says_how_far_it_got() -> None:
    clock = Clock()
    out: list[str] = []
    progress = FeatureProgress(out.append, clock=clock)
    progress.collected({"a.feature": 289})
    for outcome in ("passed", "failed", "noted"):
        progress.finished(_done(outcome))
    clock.now += 3900
    progress.close()
    assert out[-1] == (
        "interrupted after 3/289 scenarios in 1 h 5 min:"
        " 1 passed, 1 failed, 0 n/a, 1 noted, 0 inconclusive\n"
    )


@pytest.mark.parametrize(("seconds", "text"), [(45.4, "45 s"), (120, "2 min"), (3600, "1 h")])
def test_durations_are_whole_units(seconds: float, text: str) -> None:
    clock = Clock()
    out: list[str] = []
    progress = FeatureProgress(out.append, clock=clock)
    progress.collected({})
    clock.now += seconds
    progress.close()
    assert out == [f"0 scenarios in {text}: 0 passed, 0 failed, 0 n/a, 0 noted, 0 inconclusive\n"]


def test_the_new_fields_survive_an_event_file(tmp_path: Path) -> None:
    path = tmp_path / "p0.jsonl"
    event = _done("inconclusive", "REQ-04-05", "REQ-04-06", message="lost", retried=True)
    EventFile(path).finished(event)
    with path.open("a") as handle:  # an older shard's event: without the new fields
        handle.write('{"finished": {"feature": "a.feature", "scenario": "s", ')
        handle.write('"outcome": "passed", "seconds": 2.0, "message": ""}}\n')
    got: list[Finished] = []

    class Sink:
        def collected(self, counts: object) -> None:
            raise AssertionError(counts)

        def finished(self, event: Finished) -> None:
            got.append(event)

    EventReader(path).feed(Sink())
    assert got == [event, Finished("a.feature", "s", "passed", 2.0)]
    assert got[0].requirements == ("REQ-04-05", "REQ-04-06")


def test_the_shards_events_make_one_count(tmp_path: Path) -> None:
    """Two shards each run part of the scenarios: the total waits for both."""
    files = [tmp_path / "p0.jsonl", tmp_path / "p1.jsonl"]
    shards = [EventFile(path) for path in files]
    readers = [EventReader(path) for path in files]
    out: list[str] = []
    progress = FeatureProgress(out.append, sources=2, verbose=True)

    def feed() -> None:
        for reader in readers:
            reader.feed(progress)

    shards[0].collected({"a.feature": 1})
    shards[0].finished(_done("passed", "REQ-01-01"))
    feed()
    assert out == [f"[1/?] passed         1.0 s  {_fill('REQ-01-01')}  a.feature: s\n"]
    shards[1].collected({"a.feature": 1, "b.feature": 1})
    shards[1].finished(_done("passed", feature="b.feature"))
    feed()
    assert out[-1] == f"[2/3] passed         1.0 s  {_fill('')}  b.feature: s\n"
    with files[1].open("a") as handle:  # a line half written is read once complete
        handle.write('{"finished": {"feature": "a.feature", "scenario": "s", ')
    feed()
    assert len(out) == 2
    with files[1].open("a") as handle:
        handle.write('"outcome": "not_applicable", "seconds": 2.0, "message": ""}}\n')
    feed()
    assert out[-1] == f"[3/3] n/a            2.0 s  {_fill('')}  a.feature: s\n"
    progress.close()
    assert out[-1].startswith("3 scenarios in 0 s: 2 passed, 0 failed, 1 n/a,")
