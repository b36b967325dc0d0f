"""Deliberate CPU load: one busy process per core plus one (issue 38's proof that a loaded
machine decides no kit verdict). Used by the scoped test and by ``bench/kit_under_load.py``."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

__all__ = ["Load", "burners", "default_burners"]

#: how long a burner may take to start (a new interpreter on a loaded machine)
_START_TIMEOUT = 60.0


def _burn(spinning: Any) -> None:  # pragma: no cover - runs in the burner processes
    spinning.set()
    while True:
        pass


def default_burners() -> int:
    """A burner per core plus one: every core busy, and the kit's processes queue for it."""
    return (os.cpu_count() or 1) + 1


@dataclass(frozen=True)
class Load:
    """The burners of one ``burners`` block."""

    processes: tuple[Any, ...]

    @property
    def count(self) -> int:
        return len(self.processes)

    def all_spinning(self) -> bool:
        """Every burner is still running (none died under the work it loaded)."""
        return all(process.is_alive() for process in self.processes)


@contextmanager
def burners(count: int | None = None) -> Iterator[Load]:
    """``count`` processes spinning until the block ends (killed, never left behind). The
    block starts once every one of them spins: a spawned burner is a new interpreter, and a
    run that measured the machine before its burners ran would measure a quiet machine."""
    context = multiprocessing.get_context("spawn")
    started = [context.Event() for _ in range(count or default_burners())]
    processes = tuple(context.Process(target=_burn, args=(e,), daemon=True) for e in started)
    for process in processes:
        process.start()
    try:
        for event in started:
            if not event.wait(_START_TIMEOUT):
                raise RuntimeError(f"a burner did not start within {_START_TIMEOUT:.0f} s")
        yield Load(processes)
    finally:
        for process in processes:
            process.kill()
        for process in processes:
            process.join(timeout=10)
