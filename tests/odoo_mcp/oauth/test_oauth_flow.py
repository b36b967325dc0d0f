"""OAuth sign-in end to end: the MCP SDK's own OAuth client connects to the server on the
fake Odoo, the sign-in form posted by an HTTP client as a person would; the session then runs
as the signed-in Odoo user, with that user's rights."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientMetadata
from oauth_servers import DEMO_RIGHTS, REDIRECT, Person, Served, Storage, mcp_post, rights_through
from pydantic import AnyUrl

from fake_odoo.demo import DEMO_API_KEY

pytestmark = [pytest.mark.anyio, pytest.mark.wire]


def sdk_auth(served: Served, person: Person, storage: Storage) -> OAuthClientProvider:
    return OAuthClientProvider(
        server_url=served.mcp,
        client_metadata=OAuthClientMetadata(
            client_name="SDK Test Client",
            redirect_uris=[AnyUrl(REDIRECT)],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
        ),
        storage=storage,
        redirect_handler=person.redirect,
        callback_handler=person.callback,
    )


def _payload(result: Any) -> dict[str, Any]:
    data = json.loads(result.content[0].text)
    assert isinstance(data, dict)
    return data


async def test_the_sdk_client_signs_in_and_acts_as_the_demo_user(served: Served) -> None:
    person, storage = Person("demo", "demo"), Storage()
    async with (
        httpx2.AsyncClient(auth=sdk_auth(served, person, storage)) as http,
        Client(streamable_http_client(served.mcp, http_client=http), mode="legacy") as client,
    ):
        tools = await client.list_tools()
        assert any(tool.name == "odoo_core_search_read" for tool in tools.tools)
        payments = await client.call_tool(
            "odoo_core_search_read", {"model": "account.payment", "fields": ["name"]}
        )
        orders = await client.call_tool("odoo_core_count", {"model": "sale.order"})
    # the consent names the client and where it goes back to
    assert "SDK Test Client" in person.page and "127.0.0.1" in person.page
    assert payments.is_error  # the demo user may not read payments
    assert _payload(orders)["count"] == 17  # the demo user's record rules (the admin sees 39)
    assert storage.tokens is not None and storage.tokens.access_token.startswith("odoo-mcp-at.")
    assert storage.tokens.refresh_token is not None


async def test_the_sdk_client_signs_in_with_an_api_key(served: Served) -> None:
    person, storage = Person("demo", DEMO_API_KEY), Storage()
    async with httpx2.AsyncClient(auth=sdk_auth(served, person, storage)) as http:
        assert await rights_through(served.mcp, http) == DEMO_RIGHTS


def test_bearer_odoo_keys_keep_working_beside_oauth(served: Served) -> None:
    answer = mcp_post(served, f"demo:{DEMO_API_KEY}")
    assert answer.status_code == 200, answer.text


def test_a_successful_bearer_login_is_info_not_warning(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue friction: a success logged at WARNING looked like a problem."""
    with caplog.at_level(logging.INFO, logger="odoo_mcp.http.auth"):
        assert mcp_post(served, f"demo:{DEMO_API_KEY}").status_code == 200
    said = [r for r in caplog.records if "authenticated Odoo uid" in r.getMessage()]
    assert said and all(r.levelno == logging.INFO for r in said)
