"""Issue 39: Ctrl-C stops the suite within seconds. The kit runs a test session starts side
by side get the terminal's SIGINT themselves; the runs still queued must never start (one
did, once a pool thread was free, and kept the interrupted suite waiting two minutes)."""

from __future__ import annotations

import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import kit_runs
import pytest


def test_an_interrupt_cancels_the_runs_not_started(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    started: list[str] = []
    submitted, release, interrupted = threading.Event(), threading.Event(), threading.Event()

    def ctrl_c(signum: int, frame: Any) -> None:
        """Python's own Ctrl-C (KeyboardInterrupt), once: a second signal this test sent
        before it saw the first taken must not interrupt the clean-up the first started."""
        if not interrupted.is_set():
            interrupted.set()
            raise KeyboardInterrupt

    def run_kit(target: Path, report_dir: Path, *extra: str) -> Any:
        started.append(report_dir.name)
        if report_dir.name == "first":
            submitted.wait(30)  # "queued" is waiting in the pool
            # Ctrl-C while a run is under way: a real SIGINT, to the main thread (where a
            # terminal's lands in effect: a signal to the process may go to this thread and
            # leave the main thread's wait unbroken). Sent again until taken: CPython runs a
            # handler between bytecodes, and a signal landing just before the main thread's
            # lock wait blocks leaves it pending until that wait ends (the first run's, 30 s
            # later, under a loaded CI run: "queued" then started)
            signal.pthread_kill(main, signal.SIGINT)
            while not interrupted.wait(0.2):
                signal.pthread_kill(main, signal.SIGINT)
        release.wait(30)  # a run under way ends once it got its own SIGINT
        return kit_runs.KitRun(2, "interrupted", report_dir)

    class Pool(ThreadPoolExecutor):
        """The run under way ends only once the interrupted session has shut the pool down
        (no timer: a loaded machine once let the timers of this test fire out of order)."""

        submits = 0

        def submit(self, *args: Any, **kwargs: Any) -> Any:
            future = super().submit(*args, **kwargs)
            self.submits += 1
            if self.submits == len(jobs):
                submitted.set()
            return future

        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            super().shutdown(wait=False, cancel_futures=cancel_futures)
            release.set()
            super().shutdown(wait=wait)

    jobs = {name: (tmp_path / "t.toml", tmp_path / name, ()) for name in ("first", "queued")}
    assert threading.current_thread() is threading.main_thread()
    main = threading.get_ident()
    monkeypatch.setattr(kit_runs, "run_kit", run_kit)
    monkeypatch.setattr(kit_runs, "ThreadPoolExecutor", Pool)
    # Python's own Ctrl-C, whatever an earlier test of this worker left installed
    previous = signal.signal(signal.SIGINT, ctrl_c)
    try:
        with pytest.raises(KeyboardInterrupt):
            kit_runs.run_kits(jobs, workers=1, separately=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert started == ["first"]
