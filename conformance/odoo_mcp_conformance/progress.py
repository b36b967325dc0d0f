"""A kit run's progress: one line per feature file as its last scenario finishes, with the
kit's verdicts counted, and on a terminal a bar of the scenarios done.

The plugin feeds a :class:`FeatureProgress` directly when the run is one pytest process; a
shard (``--workers`` above one) writes its events as JSON lines into a file instead
(:class:`EventFile`), and the runner feeds them to one :class:`FeatureProgress` while the
shards run (:class:`EventReader`), so each feature gets one line whatever shards ran it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

__all__ = ["EventFile", "EventReader", "FeatureProgress", "Finished", "ProgressSink"]

#: how a verdict is named in a feature's line
_LABELS = {"passed": "passed", "failed": "failed", "not_applicable": "n/a"}
_BAR_WIDTH = 30


@dataclass(frozen=True)
class Finished:
    """One scenario's verdict (the kit's, not pytest's): passed, failed or not_applicable."""

    feature: str
    scenario: str
    outcome: str
    seconds: float
    message: str = ""


class ProgressSink(Protocol):
    def collected(self, counts: Mapping[str, int]) -> None: ...

    def finished(self, event: Finished) -> None: ...


@dataclass
class _Feature:
    total: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    shown: bool = False

    @property
    def done(self) -> int:
        return sum(self.outcomes.values())


class FeatureProgress:
    """Counts verdicts per feature; prints a feature's line once all its scenarios are done.

    ``sources``: how many collections to wait for (one per shard) before a feature's total
    is known. ``verbose``: each failed scenario under its feature's line. ``bar``: redraw a
    bar after every scenario (a terminal only: it uses carriage returns).
    """

    def __init__(
        self,
        write: Callable[[str], None],
        *,
        sources: int = 1,
        verbose: bool = False,
        bar: bool = False,
    ) -> None:
        self._write = write
        self._pending = sources
        self._verbose = verbose
        self._bar = bar
        self._features: dict[str, _Feature] = {}
        self._bar_drawn = False

    def collected(self, counts: Mapping[str, int]) -> None:
        for name, count in counts.items():
            self._features.setdefault(name, _Feature()).total += count
        self._pending -= 1
        self._show_done()

    def finished(self, event: Finished) -> None:
        feature = self._features.setdefault(event.feature, _Feature())
        feature.outcomes[event.outcome] += 1
        feature.seconds += event.seconds
        if event.outcome == "failed":
            feature.failures.append(f"{event.scenario}: {event.message}".rstrip(": "))
        self._show_done()
        self._draw_bar()

    def close(self) -> None:
        """The end of the run: features not complete (an interrupted run) are shown too."""
        for name, feature in self._features.items():
            if not feature.shown and feature.done:
                self._show(name, feature)
        self._clear_bar()

    def _show_done(self) -> None:
        if self._pending > 0:
            return
        for name, feature in self._features.items():
            if not feature.shown and feature.total and feature.done >= feature.total:
                self._show(name, feature)

    def _show(self, name: str, feature: _Feature) -> None:
        feature.shown = True
        width = max(len(n) for n in self._features)
        self._clear_bar()
        self._write(f"{name.ljust(width)}  {feature_counts(feature.outcomes, feature.seconds)}\n")
        if self._verbose:
            for failure in feature.failures:
                self._write(f"    FAILED {failure}\n")  # whole: the reason is at its end

    def _draw_bar(self) -> None:
        total = sum(f.total for f in self._features.values())
        if not self._bar or not total:
            return
        done = sum(f.done for f in self._features.values())
        filled = _BAR_WIDTH * min(done, total) // total
        self._write(f"\r[{'#' * filled}{'.' * (_BAR_WIDTH - filled)}] {done}/{total} scenarios")
        self._bar_drawn = True

    def _clear_bar(self) -> None:
        if self._bar_drawn:
            self._write("\r\033[K")
            self._bar_drawn = False


def feature_counts(outcomes: Mapping[str, int], seconds: float) -> str:
    """``11 passed, 0 failed, 4 n/a  (3.2 s)``."""
    counted = ", ".join(f"{outcomes.get(key, 0)} {label}" for key, label in _LABELS.items())
    return f"{counted}  ({seconds:.1f} s)"


class EventFile:
    """A shard's sink: one JSON object a line, appended as events come."""

    def __init__(self, path: Path) -> None:
        self._path = path

    def _append(self, data: dict[str, Any]) -> None:
        with self._path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(data) + "\n")

    def collected(self, counts: Mapping[str, int]) -> None:
        self._append({"collected": dict(counts)})

    def finished(self, event: Finished) -> None:
        self._append({"finished": event.__dict__})


class EventReader:
    """Reads the complete lines an :class:`EventFile` gained since the last call."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._offset = 0

    def feed(self, sink: ProgressSink) -> None:
        if not self._path.exists():
            return
        with self._path.open("rb") as handle:
            handle.seek(self._offset)
            chunk = handle.read()
        complete = chunk[: chunk.rfind(b"\n") + 1]
        self._offset += len(complete)
        for line in complete.decode("utf-8").splitlines():
            data = json.loads(line)
            if "collected" in data:
                sink.collected(data["collected"])
            else:
                sink.finished(Finished(**data["finished"]))
