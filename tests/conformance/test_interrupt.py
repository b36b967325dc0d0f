"""Issue 39: Ctrl-C stops the suite within seconds. The kit runs a test session starts side
by side get the terminal's SIGINT themselves; the runs still queued must never start (one
did, once a pool thread was free, and kept the interrupted suite waiting two minutes)."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any

import kit_runs
import pytest


def test_an_interrupt_cancels_the_runs_not_started(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    started: list[str] = []
    release = threading.Event()

    def run_kit(target: Path, report_dir: Path, *extra: str) -> Any:
        started.append(report_dir.name)
        release.wait(5)  # a run under way, ending once it got its own SIGINT
        return kit_runs.KitRun(2, "interrupted", report_dir)

    monkeypatch.setattr(kit_runs, "run_kit", run_kit)
    jobs = {name: (tmp_path / "t.toml", tmp_path / name, ()) for name in ("first", "queued")}
    # Ctrl-C while "first" runs: a real SIGINT, which wakes the main thread where it waits
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    threading.Timer(0.6, release.set).start()
    with pytest.raises(KeyboardInterrupt):
        kit_runs.run_kits(jobs, workers=1, separately=True)
    assert started == ["first"]
