"""REQ-04-33 over ``odoo-mcp serve --transport http --http-auth on``: ``field_count`` is the
number of fields the caller sees, for the demo user (whom Odoo refuses ``ir.model.fields``)
as for the admin, as a real process driven by an MCP client with a Bearer API key.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from fake_odoo.demo import ADMIN_API_KEY, DEMO_API_KEY, DEMO_UID
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import serve_fake_odoo
from http_servers import serve_http

pytestmark = [pytest.mark.anyio, pytest.mark.wire]

MODELS = ("account.move", "account.move.line")


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOdoo]:
    with serve_fake_odoo("19.0") as served:
        yield served


@pytest.fixture(scope="module")
def base(fake: FakeOdoo) -> Iterator[str]:
    assert fake.url is not None
    yield from serve_http(fake.url, "--http-auth", "on")


@asynccontextmanager
async def _client(base: str, token: str) -> AsyncIterator[Client]:
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
        transport = streamable_http_client(f"{base}/mcp", http_client=http)
        async with Client(transport, mode="legacy") as client:  # type: ignore[arg-type]
            yield client


async def _listed(base: str, token: str) -> dict[str, Any]:
    async with _client(base, token) as client:
        result = await client.call_tool("odoo_core_list_models", {"filter": "account.move"})
    assert not result.is_error, result
    text = result.content[0]
    assert text.type == "text"
    data: dict[str, Any] = json.loads(text.text)
    return {entry["model"]: entry for entry in data["models"]}


@pytest.mark.parametrize(("token", "uid"), [(DEMO_API_KEY, DEMO_UID), (ADMIN_API_KEY, None)])
async def test_field_count_is_the_callers_field_number(
    base: str, fake: FakeOdoo, token: str, uid: int | None
) -> None:
    """REQ-04-33: an integer equal to the fields Odoo's fields_get shows this user, for the
    demo user over HTTP too (it was null: the ir.model.fields count is refused to them)."""
    listed = await _listed(base, token)
    assert set(MODELS) <= set(listed)
    for model in MODELS:
        shown = fake.call(model, "fields_get", **({"uid": uid} if uid else {}))
        count = listed[model]["field_count"]
        assert isinstance(count, int) and not isinstance(count, bool), listed[model]
        assert count == len(shown), (model, count, len(shown))
