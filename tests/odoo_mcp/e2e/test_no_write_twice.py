"""REQ-02-21 / REQ-10-15 (issue 37): no change is applied twice, whatever a proxy answers.

The server's tools talk to a fake Odoo served over HTTP through ``FaultProxy``, which forwards
each request in full (Odoo applies it) and then gives the server a fault instead of Odoo's
answer: 429, 500, 502, 503, 504, a cut connection, half an answer, no answer in time. For each
protocol, each fault and each kind of change (create, write, unlink, copy, an action), the
fake must have received the call exactly once and the client must be told that it may have been
applied and what to check. Reads are sent once more (the answer is only lost), except after a
timeout or a 429.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from mcp import Client

from fake_odoo.handle import FakeOdoo
from fault_proxy import FAULTS, Fault, FaultProxy, object_call
from mcp_servers import error_body, fake_config
from odoo_mcp.adapter.server import build_server
from odoo_mcp.connection import ConnectionManager

pytestmark = pytest.mark.anyio

PROTOCOLS = ("xmlrpc", "jsonrpc", "json2")
#: the client's wait (seconds) and the proxy's delay that outlasts it
TIMEOUT = 0.5
LATE = Fault("timeout", delay=TIMEOUT + 0.4)
_markers = itertools.count(1)


@pytest.fixture(scope="module")
def proxy(fake_odoo_served: FakeOdoo) -> Iterator[FaultProxy]:
    assert fake_odoo_served.url is not None
    with FaultProxy(fake_odoo_served.url) as proxied:
        yield proxied


@pytest.fixture(scope="module", params=PROTOCOLS)
async def client(request: pytest.FixtureRequest, proxy: FaultProxy) -> AsyncIterator[Client]:
    """The server as a user runs it (full mode), on Odoo through the proxy, over one protocol."""
    config = fake_config(odoo_url=proxy.url, odoo_protocol=request.param, mode="full")
    settings = config.connection_settings().model_copy(update={"timeout": TIMEOUT})
    connection = ConnectionManager(settings, backoff=(0.0,))
    async with Client(build_server(config, connection), mode="legacy") as mcp_client:
        yield mcp_client


def _partner(fake: FakeOdoo) -> tuple[int, str]:
    name = f"Fault proxy partner {next(_markers)}"
    return fake.create("res.partner", {"name": name}), name


def _change(fake: FakeOdoo, kind: str) -> tuple[str, str, dict[str, Any], Any]:
    """(model, Odoo method, the tool call's arguments, what counts the records it made)."""
    if kind == "create":
        name = f"Fault proxy new {next(_markers)}"
        arguments = {"model": "res.partner", "values": {"name": name}}
        return "res.partner", "create", {"odoo_core_create": arguments}, ([["name", "=", name]], 1)
    partner, name = _partner(fake)
    if kind == "write":
        arguments = {"model": "res.partner", "ids": [partner], "values": {"comment": "changed"}}
        return "res.partner", "write", {"odoo_core_write": arguments}, None
    if kind == "unlink":
        return (
            "res.partner",
            "unlink",
            {"odoo_core_unlink": {"model": "res.partner", "ids": [partner]}},
            None,
        )
    if kind == "copy":
        arguments = {"model": "res.partner", "method": "copy", "args": [[partner]]}
        # the original and its one copy, named as Odoo names a partner's copy
        names = [["name", "in", [name, f"{name} (copy)"]]]
        return "res.partner", "copy", {"odoo_core_execute": arguments}, (names, 2)
    lead = fake.create("crm.lead", {"name": f"Fault proxy lead {next(_markers)}"})
    arguments = {"model": "crm.lead", "method": "action_set_won", "args": [[lead]]}
    return "crm.lead", "action_set_won", {"odoo_core_execute": arguments}, None


def _received(fake: FakeOdoo, model: str, method: str) -> int:
    return sum(1 for call in fake.calls if (call.model, call.method) == (model, method))


@pytest.mark.req("REQ-02-21", "REQ-10-15")
@pytest.mark.parametrize("kind", ["create", "write", "unlink", "copy", "action"])
async def test_a_change_whose_answer_is_lost_is_sent_once_and_reported(
    client: Client, proxy: FaultProxy, fake_odoo_served: FakeOdoo, kind: str
) -> None:
    """REQ-02-21: a change that reached Odoo is never sent again, whatever the proxy answers;
    REQ-10-15: the client is told it may have been applied and what to check first."""
    fake = fake_odoo_served
    # a timeout costs its wait: once per protocol here, on every kind in bench/fault_run.py
    for fault in (*FAULTS, LATE) if kind == "create" else FAULTS:
        model, method, call, records = _change(fake, kind)
        ((tool, arguments),) = call.items()
        fake.reset_calls()
        proxy.arm(object_call(model, method), fault)
        result = await client.call_tool(tool, arguments)
        assert proxy.struck[-1] == fault.name
        seen = (fault.name, _received(fake, model, method))
        assert seen == (fault.name, 1), "the change was sent again"
        if records is not None:  # what Odoo holds: one new record, not two
            domain, expected = records
            held = fake.call(model, "search_count", domain)
            assert (fault.name, held) == (fault.name, expected)
        error = error_body(result)
        assert error["category"] == ("rate_limit" if fault.status == 429 else "connection")
        assert error["details"]["odoo_call"] == f"{model}.{method}", fault.name
        assert error["details"]["sent_again"] is False
        assert "may have been applied" in error["suggestion"], error
        assert "before repeating it" in error["suggestion"], error


@pytest.mark.req("REQ-02-21")
async def test_a_read_whose_answer_is_lost_is_sent_once_more(
    client: Client, proxy: FaultProxy, fake_odoo_served: FakeOdoo
) -> None:
    """REQ-02-21: a read changes nothing, so one lost answer is asked again; not after a
    timeout (a slow Odoo would run it twice) nor a 429 (the caller waits, as told)."""
    fake = fake_odoo_served
    arguments = {"model": "res.partner", "domain": [["id", "=", 1]], "fields": ["name"]}
    for fault in (*FAULTS, LATE):
        fake.reset_calls()
        proxy.arm(object_call("res.partner", "search_read"), fault)
        result = await client.call_tool("odoo_core_search_read", arguments)
        assert proxy.struck[-1] == fault.name
        again = fault.status != 429 and fault is not LATE
        sent = _received(fake, "res.partner", "search_read")
        assert (fault.name, sent, result.is_error) == (fault.name, 2 if again else 1, not again)
