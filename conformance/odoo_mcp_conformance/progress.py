"""A kit run's progress: a line per scenario as it ends (its verdict, time and requirements),
an estimate of the time left, and one summary line at the end.

A run of a few hundred scenarios takes minutes, so whoever watches it (a terminal or a CI
log) needs to see what is happening now and how long the rest will take, not only a line
per feature file once it is complete. On a terminal a bar is redrawn under the lines; in a
log (no bar) a line with the estimate comes at most every :data:`_ESTIMATE_EVERY` seconds.

The plugin feeds a :class:`FeatureProgress` directly when the run is one pytest process; a
shard (``--workers`` above one) writes its events as JSON lines into a file instead
(:class:`EventFile`), and the runner feeds them to one :class:`FeatureProgress` while the
shards run (:class:`EventReader`), so the count and the estimate cover every shard.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

__all__ = ["EventFile", "EventReader", "FeatureProgress", "Finished", "ProgressSink"]

#: how a verdict is named in a scenario's line: the ones to look at in capitals
_LABELS = {
    "passed": "passed",
    "failed": "FAILED",
    "not_applicable": "n/a",
    "noted": "noted",
    "inconclusive": "INCONCLUSIVE",
}
#: how a verdict is counted in the summary line, in this order
_SUMMARY_LABELS = {
    "passed": "passed",
    "failed": "failed",
    "not_applicable": "n/a",
    "noted": "noted",
    "inconclusive": "inconclusive",
}
#: the verdicts shown even with ``verbose`` off, with their reason
_ALARMING = frozenset({"failed", "inconclusive"})
_LABEL_WIDTH = max(len(label) for label in _LABELS.values())
_SHOWN_REQUIREMENTS = 3
#: three ``REQ-nn-nn`` ids: the column after them stays aligned
_REQUIREMENTS_WIDTH = 29
_REASON_CHARS = 300
#: fewer scenarios done than this make no estimate worth showing
_ESTIMATE_AFTER = 5
#: seconds between two estimate lines in a log (no bar)
_ESTIMATE_EVERY = 30.0
_BAR_WIDTH = 30


@dataclass(frozen=True)
class Finished:
    """One scenario's verdict (the kit's, not pytest's): ``passed``, ``failed``,
    ``not_applicable``, ``noted`` (ran, but no check counts in this profile) or
    ``inconclusive`` (a kit error: neither pass nor fail).

    ``retried``: this is the scenario's second run, its first one being inconclusive. The
    new fields have defaults so older callers and event files still work.
    """

    feature: str
    scenario: str
    outcome: str
    seconds: float
    message: str = ""
    requirements: tuple[str, ...] = ()
    retried: bool = False

    def __post_init__(self) -> None:
        # JSON (an event file) and callers holding a list give a list: keep it hashable
        object.__setattr__(self, "requirements", tuple(self.requirements))


class ProgressSink(Protocol):
    def collected(self, counts: Mapping[str, int]) -> None: ...

    def finished(self, event: Finished) -> None: ...


@dataclass
class _Verdict:
    """A scenario's final verdict: a retry replaces the outcome of the inconclusive run."""

    key: tuple[str, str, tuple[str, ...]]
    outcome: str
    retried: bool = False


class FeatureProgress:
    """Prints a line per scenario as it ends, an estimate of the time left, and a summary.

    ``sources``: how many collections to wait for (one per shard) before the total is known.
    ``verbose``: every scenario's line (else only the failed and inconclusive ones). ``bar``:
    redraw a bar with the estimate after every scenario (a terminal only: it uses carriage
    returns); without it, an estimate line now and then. ``clock``: wall seconds, for the
    estimate (tests pass a fake one).
    """

    def __init__(
        self,
        write: Callable[[str], None],
        *,
        sources: int = 1,
        verbose: bool = False,
        bar: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._write = write
        self._pending = sources
        self._verbose = verbose
        self._bar = bar
        self._clock = clock
        self._total = 0
        self._verdicts: list[_Verdict] = []
        self._start: float | None = None
        self._last_estimate = 0.0
        self._bar_drawn = False

    def collected(self, counts: Mapping[str, int]) -> None:
        self._started()
        self._total += sum(counts.values())
        self._pending -= 1
        self._draw_bar()

    def finished(self, event: Finished) -> None:
        self._started()
        self._record(event)
        if self._verbose or event.outcome in _ALARMING:
            self._print(self._line(event))
            if event.outcome in _ALARMING and event.message.strip():
                self._print(f"      reason: {_one_line(event.message)}\n")
        if self._bar:
            self._draw_bar()
        else:
            self._show_estimate()

    def close(self) -> None:
        """The end of the run (or its interruption): the summary line."""
        self._clear_bar()
        done = len(self._verdicts)
        counts = Counter(verdict.outcome for verdict in self._verdicts)
        named = [f"{counts.pop(key, 0)} {label}" for key, label in _SUMMARY_LABELS.items()]
        counted = ", ".join([*named, *(f"{n} {key}" for key, n in sorted(counts.items()))])
        retried = sum(verdict.retried for verdict in self._verdicts)
        if self._known and done >= self._total:
            head = f"{done} scenarios"
        else:
            head = f"interrupted after {done}/{self._total_text} scenarios"
        tail = f" ({retried} retried)" if retried else ""
        self._write(f"{head} in {_duration(self._elapsed())}: {counted}{tail}\n")

    @property
    def _known(self) -> bool:
        """Whether every source said what it runs (so the total is the run's)."""
        return self._pending <= 0

    @property
    def _total_text(self) -> str:
        return str(self._total) if self._known else "?"

    def _started(self) -> None:
        if self._start is None:
            self._start = self._last_estimate = self._clock()

    def _elapsed(self) -> float:
        return self._clock() - self._start if self._start is not None else 0.0

    def _record(self, event: Finished) -> None:
        key = (event.feature, event.scenario, event.requirements)
        if event.retried:
            for verdict in reversed(self._verdicts):
                if verdict.key == key and verdict.outcome == "inconclusive" and not verdict.retried:
                    verdict.outcome, verdict.retried = event.outcome, True
                    return
        self._verdicts.append(_Verdict(key, event.outcome, event.retried))

    def _line(self, event: Finished) -> str:
        """``[ 12/289] passed         0.4 s  REQ-04-05  tools_read.feature: Scenario``."""
        total = self._total_text
        count = f"[{len(self._verdicts):>{len(total) if self._known else 0}}/{total}]"
        label = _LABELS.get(event.outcome, event.outcome).ljust(_LABEL_WIDTH)
        shown = event.requirements[:_SHOWN_REQUIREMENTS]
        more = len(event.requirements) - len(shown)
        requirements = " ".join([*shown, *([f"+{more}"] if more else [])])
        where = f"{event.feature}: {event.scenario}" if event.feature else event.scenario
        retry = " (retry)" if event.retried else ""
        return (
            f"{count} {label} {event.seconds:5.1f} s  "
            f"{requirements.ljust(_REQUIREMENTS_WIDTH)}  {where}{retry}\n"
        )

    def _estimate(self) -> str | None:
        """``about 2 min 10 s left``: wall time so far per scenario done, times those left
        (wall time, so parallel shards count once)."""
        done = len(self._verdicts)
        left = self._total - done
        if not self._known or done < _ESTIMATE_AFTER or left <= 0:
            return None
        return f"about {_duration(self._elapsed() / done * left)} left"

    def _show_estimate(self) -> None:
        now = self._clock()
        estimate = self._estimate()
        if estimate is None or now - self._last_estimate < _ESTIMATE_EVERY:
            return
        self._last_estimate = now
        self._write(f"... {len(self._verdicts)}/{self._total} scenarios done, {estimate}\n")

    def _print(self, text: str) -> None:
        self._clear_bar()
        self._write(text)

    def _draw_bar(self) -> None:
        if not self._bar or not self._known or not self._total:
            return
        done = len(self._verdicts)
        filled = _BAR_WIDTH * min(done, self._total) // self._total
        estimate = self._estimate()
        self._write(
            f"\r[{'#' * filled}{'.' * (_BAR_WIDTH - filled)}] {done}/{self._total} scenarios"
            + (f", {estimate}" if estimate else "")
        )
        self._bar_drawn = True

    def _clear_bar(self) -> None:
        if self._bar_drawn:
            self._write("\r\033[K")
            self._bar_drawn = False


def _one_line(message: str) -> str:
    """A reason on one line, cut: a traceback would bury the next scenarios' lines."""
    text = " ".join(message.split())
    return text if len(text) <= _REASON_CHARS else text[: _REASON_CHARS - 3] + "..."


def _duration(seconds: float) -> str:
    """``45 s``, ``2 min 10 s``, ``1 h 5 min``: whole units, the smallest left out past an
    hour (an estimate is not that precise)."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        minutes, rest = divmod(whole, 60)
        return f"{minutes} min {rest} s" if rest else f"{minutes} min"
    hours, rest = divmod(whole, 3600)
    return f"{hours} h {rest // 60} min" if rest // 60 else f"{hours} h"


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
            else:  # requirements come back a list: Finished makes it a tuple again
                sink.finished(Finished(**data["finished"]))
