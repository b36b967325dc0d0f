"""The kit's client of the fake's control API: what it asks, and how often."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2
import pytest

from fake_odoo import FakeOdoo
from odoo_mcp_conformance.control import FakeOdooControl


@pytest.fixture
def control(fake_odoo_server: FakeOdoo) -> Iterator[tuple[FakeOdooControl, list[str]]]:
    """A control client and the ``METHOD path`` of every request it sends."""
    client = FakeOdooControl(str(fake_odoo_server.url))
    sent: list[str] = []

    def note(request: httpx2.Request) -> None:
        sent.append(f"{request.method} {request.url.path}")

    client._http.event_hooks["request"].append(note)
    yield client, sent
    client.close()


def _log(fake: FakeOdoo, method: str) -> None:
    fake.record("xmlrpc", "/xmlrpc/2/object", "object", method, "res.partner")


def test_clearing_the_calls_hides_the_earlier_ones_without_a_request(
    fake_odoo_server: FakeOdoo, control: tuple[FakeOdooControl, list[str]]
) -> None:
    client, sent = control
    client.begin_scenario()
    _log(fake_odoo_server, "search")
    assert [call["method"] for call in client.calls()] == ["search"]
    client.clear_calls()
    _log(fake_odoo_server, "read")
    assert [call["method"] for call in client.calls()] == ["read"]
    assert len(fake_odoo_server.calls) == 2  # the fake's log was not touched
    assert "DELETE /__fake__/calls" not in sent
    client.begin_scenario()  # a new scenario empties the log itself
    assert client.calls() == [] and fake_odoo_server.calls == []


def test_the_info_is_asked_again_only_after_a_reset(
    fake_odoo_server: FakeOdoo, control: tuple[FakeOdooControl, list[str]]
) -> None:
    client, sent = control
    client.begin_scenario()  # answers the info with it
    assert client.coordinates("demo").login == "demo"
    assert client.info()["version"] == fake_odoo_server.version
    assert sent == ["POST /__fake__/begin"]
    client.reset()
    client.info()
    assert sent[-2:] == ["POST /__fake__/reset", "GET /__fake__/info"]


def test_the_scenario_end_clears_only_faults_it_injected(
    fake_odoo_server: FakeOdoo, control: tuple[FakeOdooControl, list[str]]
) -> None:
    client, sent = control
    client.begin_scenario()
    client.end_scenario()
    assert sent == ["POST /__fake__/begin"]
    client.inject_fault(kind="latency", seconds=0.0)
    client.end_scenario()
    assert sent[-1] == "DELETE /__fake__/faults"
    assert fake_odoo_server.faults.active() == []
