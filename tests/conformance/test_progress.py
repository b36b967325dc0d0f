"""The kit's progress (progress.py): a line per feature file once its scenarios are done, the
shards' events merged, a bar on a terminal."""

from __future__ import annotations

from pathlib import Path

from odoo_mcp_conformance.progress import EventFile, EventReader, FeatureProgress, Finished


def _done(feature: str, outcome: str, seconds: float = 1.0, scenario: str = "s") -> Finished:
    message = "boom" if outcome == "failed" else ""
    return Finished(feature, scenario, outcome, seconds, message)


def test_a_feature_line_comes_when_its_last_scenario_finishes() -> None:
    out: list[str] = []
    progress = FeatureProgress(out.append)
    progress.collected({"connection.feature": 3, "a.feature": 1})
    progress.finished(_done("connection.feature", "passed", 1.5))
    progress.finished(_done("connection.feature", "not_applicable", 0.2))
    assert out == []
    progress.finished(_done("a.feature", "failed", 0.5, "broken one"))
    assert out == ["a.feature           0 passed, 1 failed, 0 n/a  (0.5 s)\n"]
    progress.finished(_done("connection.feature", "passed", 1.5))
    assert out[-1] == "connection.feature  2 passed, 0 failed, 1 n/a  (3.2 s)\n"
    progress.close()
    assert len(out) == 2


def test_verbose_lists_the_failed_scenarios_under_their_feature() -> None:
    out: list[str] = []
    progress = FeatureProgress(out.append, verbose=True)
    progress.collected({"a.feature": 2})
    progress.finished(_done("a.feature", "failed", scenario="broken one"))
    progress.finished(_done("a.feature", "passed"))
    assert out == [
        "a.feature  1 passed, 1 failed, 0 n/a  (2.0 s)\n",
        "    FAILED broken one: boom\n",
    ]


def test_an_interrupted_run_still_shows_what_finished() -> None:
    out: list[str] = []
    progress = FeatureProgress(out.append)
    progress.collected({"a.feature": 5})
    progress.finished(_done("a.feature", "passed"))
    progress.close()
    assert out == ["a.feature  1 passed, 0 failed, 0 n/a  (1.0 s)\n"]


def test_the_bar_is_redrawn_and_cleared_before_a_line() -> None:
    out: list[str] = []
    progress = FeatureProgress(out.append, bar=True)
    progress.collected({"a.feature": 1, "b.feature": 2})
    progress.finished(_done("a.feature", "passed"))
    assert out[0] == "a.feature  1 passed, 0 failed, 0 n/a  (1.0 s)\n"
    assert out[1] == "\r[" + "#" * 10 + "." * 20 + "] 1/3 scenarios"
    progress.finished(_done("b.feature", "passed"))
    assert out[-1] == "\r[" + "#" * 20 + "." * 10 + "] 2/3 scenarios"
    progress.finished(_done("b.feature", "passed"))
    # the bar is wiped before the feature's line, then drawn again under it
    assert out[-3:] == ["\r\033[K", "b.feature  2 passed, 0 failed, 0 n/a  (2.0 s)\n", out[-1]]
    progress.close()
    assert out[-1] == "\r\033[K"


def test_shards_events_make_one_line_per_feature(tmp_path: Path) -> None:
    """Two shards each run part of a feature: its line waits for both."""
    files = [tmp_path / "p0.jsonl", tmp_path / "p1.jsonl"]
    shards = [EventFile(path) for path in files]
    readers = [EventReader(path) for path in files]
    out: list[str] = []
    progress = FeatureProgress(out.append, sources=2)

    def feed() -> None:
        for reader in readers:
            reader.feed(progress)

    shards[0].collected({"a.feature": 1})
    shards[0].finished(_done("a.feature", "passed"))
    feed()
    assert out == []  # the other shard has not said what it runs yet
    shards[1].collected({"a.feature": 1, "b.feature": 1})
    shards[1].finished(_done("b.feature", "passed"))
    feed()
    assert out == ["b.feature  1 passed, 0 failed, 0 n/a  (1.0 s)\n"]
    with files[1].open("a") as handle:  # a line half written is read once complete
        handle.write('{"finished": {"feature": "a.feature", "scenario": "s", ')
    feed()
    assert len(out) == 1
    with files[1].open("a") as handle:
        handle.write('"outcome": "not_applicable", "seconds": 2.0, "message": ""}}\n')
    feed()
    assert out[-1] == "a.feature  1 passed, 0 failed, 1 n/a  (3.0 s)\n"
