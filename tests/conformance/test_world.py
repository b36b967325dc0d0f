"""The end of a kit scenario: what happens to the pooled server it used."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from odoo_mcp_conformance.timing import ENV
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


class LoggedCalls:
    """A fake Odoo's call log as the control client returns it."""

    def __init__(self, calls: list[dict[str, Any]]) -> None:
        self._calls = calls

    def data_calls(self) -> list[dict[str, Any]]:
        return [call for call in self._calls if call.get("model")]


def test_calls_a_server_makes_between_requests_are_not_the_scenario_s(tmp_path: Path) -> None:
    """Issue 27: on a loaded machine start-up introspection landed after the kit's settle
    wait, in a scenario asserting Odoo received no call; only calls logged while one of the
    scenario's requests was under way are the scenario's."""
    calls = [
        {"model": "ir.model", "method": "search_read", "at": 10.0},  # introspection, before
        {"model": "res.partner", "method": "search_read", "at": 11.5},  # the request's own
        {"model": "ir.model.fields", "method": "fields_get", "at": 12.5},  # between requests
        {"service": "common", "method": "version", "at": 11.6},  # not a model call
    ]
    world = World(cast(Any, None), cast(Any, LoggedCalls(calls)), cast(Any, None), tmp_path)
    world.driver = cast(Any, type("Driver", (), {"windows": [(11.0, 12.0), (13.0, 14.0)]})())
    assert [c["model"] for c in world.caused_calls()] == ["res.partner"]
    # raw HTTP requests are not timed: every call of the scenario counts
    world.raw_requests = True
    assert len(world.caused_calls()) == 3


class GrowingLog:
    """A fake Odoo's call log that a server's background work fills at set times."""

    def __init__(self, at: list[float]) -> None:
        self.start = time.monotonic()
        self.at = at
        self.seen_when_cleared: int | None = None

    def calls(self) -> list[dict[str, Any]]:
        now = time.monotonic() - self.start
        return [{"model": "ir.model", "method": "fields_get"} for when in self.at if when <= now]

    def clear_calls(self) -> None:
        self.seen_when_cleared = len(self.calls())


def test_the_settle_wait_is_scaled_on_a_loaded_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clean-clone CI run (2 cores, scale 1.96): the gaps between the example target's
    introspection calls outgrew the unscaled quiet, the wait ended, and three fields_get
    landed in a scenario asserting Odoo received no call. Scaled 5x, a call 0.15 s after the
    start and one 0.3 s later are both waited for."""
    monkeypatch.setenv(ENV, "5")
    log = GrowingLog([0.15, 0.45])
    pool = SimpleNamespace(reads_in_background=False)
    world = World(cast(Any, None), cast(Any, log), cast(Any, pool), tmp_path)
    world._settle(quiet=0.1, busy_quiet=0.2, limit=15.0)
    assert log.seen_when_cleared == 2
    assert pool.reads_in_background  # the target's servers are now known to introspect


@pytest.mark.parametrize("known", [True, False])
def test_a_late_introspection_is_waited_for_once_the_target_is_known_to_introspect(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, known: bool
) -> None:
    """A loaded full suite run: the example target's introspection began after the first
    quiet check and landed in REQ-11-06's "Odoo received no call". Once one of the target's
    servers was seen introspecting, a new one is waited for (``awaited``, 3 s at most) until
    it has read a fields_get; before that, nothing says one will come."""
    monkeypatch.setenv(ENV, "1")
    log = GrowingLog([0.4])
    pool = SimpleNamespace(reads_in_background=known)
    world = World(cast(Any, None), cast(Any, log), cast(Any, pool), tmp_path)
    world._settle(quiet=0.1, busy_quiet=0.2, limit=15.0, awaited=3.0)
    assert log.seen_when_cleared == (1 if known else 0)


def test_a_target_known_to_introspect_waits_no_longer_than_awaited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server of such a target started with its introspection off reads nothing: the
    scenario begins once ``awaited`` has passed."""
    monkeypatch.setenv(ENV, "1")
    world = World(
        cast(Any, None), cast(Any, GrowingLog([])),
        cast(Any, SimpleNamespace(reads_in_background=True)), tmp_path,
    )  # fmt: skip
    started = time.monotonic()
    world._settle(quiet=0.1, busy_quiet=0.2, limit=15.0, awaited=0.5)
    assert 0.5 <= time.monotonic() - started < 15  # awaited, not the limit
