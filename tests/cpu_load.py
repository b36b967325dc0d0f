"""Deliberate CPU load: one busy process per core plus one (issue 38's proof that a loaded
machine decides no kit verdict). Used by the scoped test and by ``bench/kit_under_load.py``."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["burners", "default_burners"]


def _burn() -> None:  # pragma: no cover - runs in the burner processes
    while True:
        pass


def default_burners() -> int:
    """A burner per core plus one: every core busy, and the kit's processes queue for it."""
    return (os.cpu_count() or 1) + 1


@contextmanager
def burners(count: int | None = None) -> Iterator[int]:
    """``count`` processes spinning until the block ends (killed, never left behind)."""
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(target=_burn, daemon=True) for _ in range(count or default_burners())
    ]
    for process in processes:
        process.start()
    try:
        yield len(processes)
    finally:
        for process in processes:
            process.kill()
        for process in processes:
            process.join(timeout=10)
