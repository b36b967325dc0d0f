"""Issue 41: a tool result serialized once on its way through the SDK (``adapter.wire``).

The bytes must be the SDK's own: each step of the short way is compared with the SDK's own
functions on the same values (any JSON values, every protocol version the SDK shapes
results for), and the server, run by the SDK's low-level loop, is checked to take the short
way and to write, byte for byte, what the SDK writes for the values it answers.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import anyio
import pydantic_core
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.server.runner import _dump_result
from mcp.shared.message import SessionMessage
from mcp.types import (
    CallToolResult,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    TextContent,
)
from mcp_types import methods as surface

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport
from odoo_mcp.adapter import sdk, wire
from odoo_mcp.adapter.server import build_server
from odoo_mcp.config import load_config
from odoo_mcp.connection import ConnectionManager

WIRE = {"by_alias": True, "exclude_unset": True}
#: the protocol versions the SDK shapes a tools/call result for
VERSIONS = sorted({version for method, version in surface.SERVER_RESULTS if method == "tools/call"})


def _structures(*, finite: bool) -> st.SearchStrategy[dict[str, Any]]:
    """Tool results' structured content: any JSON values, markers and escapes among them."""
    scalars = (
        st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
        | st.floats(allow_nan=not finite, allow_infinity=not finite)
        | st.text(alphabet=st.characters(codec="utf-8"), max_size=30)
        | st.sampled_from(["odoo-mcp-text-", '{"odoo-mcp-structured-x":0}', "</script>", "\u2028"])
    )  # fmt: skip
    values = st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=30,
    )
    return st.dictionaries(st.text(max_size=10), values, max_size=6)


#: (a NaN or an infinity stays a float in the short way's dict, None in the SDK's: both are
#: written null, which the bytes test checks)
finite_structures = _structures(finite=True)
structures = _structures(finite=False)


def _text(structured: dict[str, Any]) -> str:
    """The text block as the adapter encodes it (safety.scrub.scrub_to_json)."""
    return pydantic_core.to_json(structured, inf_nan_mode="null").decode()


def _sdk_shape(version: str, result: CallToolResult) -> dict[str, Any]:
    """The runner's shaping of a result, as the SDK does it for ``version``."""
    return surface.serialize_server_result("tools/call", version, _dump_result(result))


def _real(structured: dict[str, Any]) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=_text(structured))], structured_content=structured
    )


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(structured=finite_structures, version=st.sampled_from(VERSIONS))
def test_the_short_shaping_gives_the_sdks_dict(structured: dict[str, Any], version: str) -> None:
    kept = wire.kept_result(structured, _text(structured), keep_from=0)
    assert isinstance(kept, wire.KeptResult)
    short = wire.shaped(kept, partial(_sdk_shape, version))
    assert short == _sdk_shape(version, _real(structured))
    if "structuredContent" in short:  # the values themselves, not a copy
        assert short["structuredContent"] is structured


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    structured=structures,
    version=st.sampled_from(VERSIONS),
    request_id=st.integers(min_value=0, max_value=2**40) | st.text(max_size=12),
)
def test_the_encoded_response_is_the_sdks_bytes(
    structured: dict[str, Any], version: str, request_id: int | str
) -> None:
    kept = wire.kept_result(structured, _text(structured), keep_from=0)
    result = wire.shaped(kept, partial(_sdk_shape, version))
    response = wire.encoded_response(request_id, result)
    if "structuredContent" not in result:  # a version without it: left to the SDK
        assert response is None
        return
    assert isinstance(response, wire.EncodedResponse)
    sdk_way = JSONRPCResponse(
        jsonrpc="2.0", id=request_id, result=_sdk_shape(version, _real(structured))
    )
    assert response.model_dump_json(**WIRE) == sdk_way.model_dump_json(**WIRE)
    # any other serialization, and a reader in memory, see the values themselves
    assert response.model_dump(mode="json") == sdk_way.model_dump(mode="json")
    assert response.model_dump_json() == sdk_way.model_dump_json()


def test_nan_is_null_in_the_text_as_in_the_structured_content() -> None:
    structured = {"x": math.nan, "y": [math.inf]}
    result = wire.shaped(
        wire.kept_result(structured, _text(structured), keep_from=0),
        partial(_sdk_shape, VERSIONS[-1]),
    )
    response = wire.encoded_response(1, result)
    assert response is not None
    assert '"structuredContent":{"x":null,"y":[null]}' in response.model_dump_json(**WIRE)


def test_a_result_not_kept_is_left_to_the_sdk() -> None:
    structured = {"a": 1}
    shape = partial(_sdk_shape, VERSIONS[-1])
    wire.kept_result(structured, _text(structured), keep_from=0)
    copied = shape(_real({"a": 1}))  # equal values, another object: not the kept one
    assert wire.encoded_response(1, copied) is None
    kept = wire.shaped(wire.kept_result(structured, _text(structured), keep_from=0), shape)
    assert wire.encoded_response(1, kept) is not None
    assert wire.encoded_response(1, kept) is None  # used once


def test_a_kept_encoding_never_written_is_let_go(monkeypatch: pytest.MonkeyPatch) -> None:
    structured = {"a": 1}
    now = [1000.0]
    monkeypatch.setattr(wire.time, "monotonic", lambda: now[0])
    result = wire.shaped(
        wire.kept_result(structured, _text(structured), keep_from=0),
        partial(_sdk_shape, VERSIONS[-1]),
    )
    now[0] += wire.KEPT_SECONDS + 1
    wire.kept_result({"b": 2}, _text({"b": 2}), keep_from=0)  # a later call lets the old one go
    assert wire.encoded_response(1, result) is None


# -- the server on the SDK's loop ------------------------------------------------------------

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("odoo_core_search_read", {"model": "res.partner", "fields": ["*"], "limit": 20}),
    ("odoo_core_search_read", {"model": "sale.order", "limit": 5}),
    ("odoo_core_read", {"model": "res.partner", "ids": [1, 3], "fields": ["*"]}),
    ("odoo_core_count", {"model": "crm.lead"}),  # short: the SDK's own way
    ("odoo_core_list_models", {}),
    ("odoo_core_fields_get", {"model": "res.partner"}),
    ("odoo_core_name_get", {"model": "res.partner", "ids": [1, 2]}),
]


@pytest.mark.anyio
async def test_the_server_writes_the_sdks_bytes_serialized_once() -> None:
    config = load_config(
        {"odoo_url": IN_PROCESS_URL, "odoo_db": "demo", "odoo_username": "admin",
         "odoo_api_key": ADMIN_API_KEY, "introspect_on_startup": False},
        environ={},
    )  # fmt: skip
    fake = FakeOdoo("19.0")
    connection = ConnectionManager(
        config.connection_settings(), transport=FakeOdooTransport(app=fake.app)
    )
    low = sdk.low_level(build_server(config, connection))
    to_server, server_in = sdk.create_context_streams[SessionMessage | Exception](10)
    server_out, from_server = sdk.create_context_streams[SessionMessage](10)

    def request(request_id: int, method: str, params: dict[str, Any]) -> SessionMessage:
        return SessionMessage(
            JSONRPCRequest(jsonrpc="2.0", id=request_id, method=method, params=params)
        )

    answers: list[Any] = []
    async with to_server, server_in, server_out, from_server, anyio.create_task_group() as tasks:
        tasks.start_soon(low.run, server_in, server_out, low.create_initialization_options())
        init = {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"}}  # fmt: skip
        await to_server.send(request(0, "initialize", init))
        await from_server.receive()
        note = JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized")
        await to_server.send(SessionMessage(note))
        for number, (name, arguments) in enumerate(CALLS, start=1):
            await to_server.send(
                request(number, "tools/call", {"name": name, "arguments": arguments})
            )
            answers.append((await from_server.receive()).message)
        await to_server.aclose()  # the session ends, and the loop with it
    for message in answers:
        # the short way for a long answer, the SDK's own for a short one
        long = len(message.result["content"][0]["text"]) >= wire.KEEP_FROM
        assert isinstance(message, wire.EncodedResponse) is long, message
        assert not message.result.get("isError"), message.result
        sdk_way = JSONRPCResponse(jsonrpc="2.0", id=message.id, result=message.result)
        assert message.model_dump_json(**WIRE) == sdk_way.model_dump_json(**WIRE)
        text = message.result["content"][0]["text"]
        assert pydantic_core.from_json(text) == message.result["structuredContent"]


def test_a_short_text_goes_the_sdks_way() -> None:
    structured = {"count": 3}
    result = wire.kept_result(structured, _text(structured))
    assert not isinstance(result, wire.KeptResult)
    assert wire.encoded_response(1, {"structuredContent": structured}) is None
