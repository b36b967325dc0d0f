"""The end of a kit scenario: what happens to the pooled server it used."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from odoo_mcp_conformance.world import World


class RecordingPool:
    """The two pool operations a scenario's end may ask for, recorded."""

    def __init__(self) -> None:
        self.discarded: list[object] = []
        self.suspects: list[object] = []

    def discard(self, launch: object) -> None:
        self.discarded.append(launch)

    def mark_suspect(self, launch: object) -> None:
        self.suspects.append(launch)


def _ended(tmp_path: Path, **state: Any) -> RecordingPool:
    pool = RecordingPool()
    world = World(cast(Any, None), cast(Any, None), cast(Any, pool), tmp_path)
    world.launch = cast(Any, "launch")
    for name, value in state.items():
        setattr(world, name, value)
    world.release()
    return pool


def test_a_pooled_server_holding_a_subscription_is_closed(tmp_path: Path) -> None:
    """It would keep polling Odoo, and its calls would land in later scenarios' call logs (a
    conformant server failed "every call went over xmlrpc" that way)."""
    pool = _ended(tmp_path, subscribed=True)
    assert (pool.discarded, pool.suspects) == (["launch"], [])


def test_a_pooled_server_that_saw_a_fault_is_probed_before_its_next_use(tmp_path: Path) -> None:
    pool = _ended(tmp_path, faulted=True)
    assert (pool.discarded, pool.suspects) == ([], ["launch"])


@pytest.mark.parametrize("state", [{}, {"fresh": True, "subscribed": True, "faulted": True}])
def test_a_clean_or_fresh_server_is_left_to_the_pool(tmp_path: Path, state: dict[str, Any]) -> None:
    """A fresh server is closed by the pool itself at the scenario's end."""
    pool = _ended(tmp_path, **state)
    assert (pool.discarded, pool.suspects) == ([], [])
