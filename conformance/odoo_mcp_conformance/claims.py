"""Server configurations claimed at run time by the kit's worker processes (``--workers``).

Each worker collects every scenario, grouped by server configuration, and walks the groups
costliest first; before running a group it claims it (a file created exclusively in a
directory all workers share), and skips a group another worker claimed. A worker that drew
short groups thus takes more, and all end within about one group of each other, where a
split fixed in advance depends on guessing each group's waits (poll intervals, Odoo
timeouts: 0.05 s to 10 s a group). Every group still runs whole in one process, so the
verdicts are those of one process.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

import pytest

__all__ = ["Claims", "run_claimed"]


class Claims:
    """The claims of one run: one file per claimed group, first come first served."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)

    def take(self, key: Sequence[str]) -> bool:
        """Whether this process may run the group ``key`` (no other process took it)."""
        name = hashlib.sha256("\0".join(key).encode()).hexdigest()[:32]
        try:
            os.close(os.open(self.directory / name, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return False
        return True


def run_claimed(
    session: pytest.Session,
    groups: Sequence[tuple[tuple[str, ...], list[pytest.Item]]],
    claims: Claims,
) -> None:
    """pytest's test loop over the groups this process claims, in the given order.

    Each item is told a next item of the same module (the one after it in the collection)
    so that the session's fixtures (fake Odoo, server pool, fork server) live on between
    groups; pytest tears them down at the session's end as usual.
    """
    items = [item for _, group in groups for item in group]
    following = {item: items[(i + 1) % len(items)] for i, item in enumerate(items)}
    for key, group in groups:
        if not claims.take(key):
            continue
        for item in group:
            nextitem = following[item] if len(items) > 1 else None
            item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
            if session.shouldfail:
                raise session.Failed(session.shouldfail)
            if session.shouldstop:
                raise session.Interrupted(session.shouldstop)
