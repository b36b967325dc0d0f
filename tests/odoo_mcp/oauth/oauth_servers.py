"""OAuth sign-in tests' helpers: the server in this process (uvicorn in a thread) on a
served fake Odoo, so that a test can share its state between two instances and move its
clock; and the protocol by hand, for the hostile cases."""

from __future__ import annotations

import html
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx2
import uvicorn
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from odoo_mcp.adapter.http.app import bind_port, build_http_app
from odoo_mcp.adapter.http.oauth import MemoryStore, OAuthStore
from odoo_mcp.adapter.http.oauth.provider import challenge_of
from odoo_mcp.adapter.server import build_server
from odoo_mcp.config import OdooMcpConfig, load_config
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.state import MemoryState, SharedState

SECRET = "0123456789abcdef0123456789abcdef-test-secret"
REDIRECT = "http://127.0.0.1:9/callback"


class Clock:
    """Wall-clock seconds, moved by hand (the SDK compares codes with ``time.time``)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@dataclass
class Served:
    """One running instance."""

    base: str
    store: OAuthStore
    state: SharedState
    clock: Clock
    app: Any
    config: OdooMcpConfig

    @property
    def mcp(self) -> str:
        return f"{self.base}/mcp"


@dataclass
class Instances:
    """Builds instances on the fake; stops them at the end of the test."""

    fake: FakeOdoo
    stops: list[Callable[[], None]] = field(default_factory=list)

    def start(
        self,
        *,
        store: OAuthStore | None = None,
        state: SharedState | None = None,
        clock: Clock | None = None,
        **settings: object,
    ) -> Served:
        sock = bind_port("127.0.0.1", 0)
        port = sock.getsockname()[1]
        base = f"http://127.0.0.1:{port}"
        assert self.fake.url is not None
        config = load_config(
            {
                "odoo_url": self.fake.url, "odoo_db": "demo", "odoo_username": "admin",
                "odoo_api_key": ADMIN_API_KEY, "introspect_on_startup": False,
                "transport": "http", "port": port, "http_auth": "on", "oauth": "on",
                "oauth_secret": SECRET, **settings,
            },
            environ={},
        )  # fmt: skip
        connection = ConnectionManager(config.connection_settings())
        server = build_server(config, connection)
        clock = Clock() if clock is None else clock
        store = MemoryStore(clock=clock) if store is None else store
        state = MemoryState() if state is None else state
        app = build_http_app(
            server, config, connection, state=state, oauth_store=store, oauth_clock=clock,
            base_url=base,
        )  # fmt: skip
        uv = uvicorn.Server(
            uvicorn.Config(app, log_level="warning", log_config=None, access_log=False)
        )
        thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not uv.started:
            assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
            time.sleep(0.01)

        def stop() -> None:
            uv.should_exit = True
            thread.join(10)
            sock.close()

        self.stops.append(stop)
        return Served(base, store, state, clock, app, config)


class Storage:
    """The SDK client's token storage, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class Person:
    """What a browser and its user do with the authorization URL: open the sign-in page,
    post the demo user's credentials, follow to the redirect URI and hand the code back."""

    def __init__(self, login: str, secret: str) -> None:
        self.login, self.secret = login, secret
        self.result: AuthorizationCodeResult | None = None
        self.page = ""

    async def redirect(self, url: str) -> None:
        async with httpx2.AsyncClient() as web:
            answer = await web.get(url)
            assert answer.status_code == 302
            page = await web.get(answer.headers["location"])
            self.page = page.text
            fields = form_fields(page.text)
            data = {"request": fields["request"], "csrf": fields["csrf"],
                    "login": self.login, "secret": self.secret}  # fmt: skip
            back = await web.post(fields["action"], data=data)
        assert back.status_code == 303, back.text
        location = back.headers["location"]
        assert location.startswith(REDIRECT)
        query = parse_qs(urlsplit(location).query)
        self.result = AuthorizationCodeResult(code=query["code"][0], state=query["state"][0])

    async def callback(self) -> AuthorizationCodeResult:
        assert self.result is not None
        return self.result


@dataclass(frozen=True)
class Rights:
    """What a session sees of its Odoo user's rights."""

    payments_refused: bool
    sale_orders: int


#: the demo user's: no payments, and its own 17 sale orders (the admin reads payments, 39)
DEMO_RIGHTS = Rights(payments_refused=True, sale_orders=17)


async def rights_through(mcp_url: str, http: httpx2.AsyncClient) -> Rights:
    """Open an MCP session over ``http`` (its auth or headers decide the user) and read
    account.payment and count sale.order."""
    async with Client(streamable_http_client(mcp_url, http_client=http), mode="legacy") as client:
        payments = await client.call_tool(
            "odoo_core_search_read", {"model": "account.payment", "fields": ["name"]}
        )
        orders = await client.call_tool("odoo_core_count", {"model": "sale.order"})
    assert not orders.is_error, orders
    text = orders.content[0]
    assert text.type == "text"
    return Rights(payments.is_error, json.loads(text.text)["count"])


# -- the protocol by hand (hostile cases) -------------------------------------------------


def register(base: str, *uris: str, name: str = "Hand Client", **extra: Any) -> dict[str, Any]:
    body = {"client_name": name, "redirect_uris": list(uris or [REDIRECT]),
            "token_endpoint_auth_method": "none", **extra}  # fmt: skip
    answer = httpx2.post(f"{base}/register", json=body)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def pkce() -> tuple[str, str]:
    verifier = "v" * 20 + "-verifier-" + "x" * 30
    return verifier, challenge_of(verifier)


def authorize_query(client_id: str, challenge: str, **extra: str) -> dict[str, str]:
    return {
        "response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT,
        "code_challenge": challenge, "code_challenge_method": "S256", "state": "st-1", **extra,
    }  # fmt: skip


def form_fields(page: str) -> dict[str, str]:
    """The sign-in form's hidden fields and action."""
    found = {
        name: html.unescape(value)
        for name, value in re.findall(r'name=(request|csrf) value="([^"]*)"', page)
    }
    action = re.search(r'<form method=post action="([^"]+)"', page)
    assert action is not None and set(found) == {"request", "csrf"}, page
    found["action"] = html.unescape(action.group(1))
    return found


def open_signin(web: httpx2.Client, base: str, query: dict[str, str]) -> dict[str, str]:
    """GET /authorize, then the sign-in page it redirects to: the form's fields."""
    answer = web.get(f"{base}/authorize", params=query)
    assert answer.status_code == 302, answer.text
    page = web.get(answer.headers["location"])
    assert page.status_code == 200
    for marker in ("id=login", "id=secret", "id=signin"):
        assert marker in page.text
    return form_fields(page.text)


def post_signin(
    web: httpx2.Client, fields: dict[str, str], login: str, secret: str, **override: str
) -> httpx2.Response:
    data = {"request": fields["request"], "csrf": fields["csrf"], "login": login,
            "secret": secret, **override}  # fmt: skip
    return web.post(fields["action"], data={k: v for k, v in data.items() if v is not None})


def code_from(answer: httpx2.Response) -> str:
    assert answer.status_code == 303, answer.text
    location = answer.headers["location"]
    assert location.startswith(REDIRECT + "?")
    query = parse_qs(urlsplit(location).query)
    assert query["state"] == ["st-1"]
    return query["code"][0]


def sign_in(
    base: str, client_id: str, login: str = "demo", secret: str = "demo"
) -> tuple[str, str]:
    """A code and its verifier, for ``login``."""
    verifier, challenge = pkce()
    with httpx2.Client() as web:
        fields = open_signin(web, base, authorize_query(client_id, challenge))
        return code_from(post_signin(web, fields, login, secret)), verifier


def token(base: str, **form: str) -> httpx2.Response:
    return httpx2.post(f"{base}/token", data=form)


def tokens_for(base: str, login: str = "demo", secret: str = "demo") -> dict[str, Any]:
    """Register, sign in and exchange: the token response (and the client id)."""
    client = register(base)
    code, verifier = sign_in(base, client["client_id"], login, secret)
    answer = token(
        base, grant_type="authorization_code", code=code, redirect_uri=REDIRECT,
        client_id=client["client_id"], code_verifier=verifier,
    )  # fmt: skip
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    data["client_id"] = client["client_id"]
    return data


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def mcp_post(served: Served, access_token: str | None) -> httpx2.Response:
    headers = dict(ACCEPT)
    if access_token is not None:
        headers["Authorization"] = f"Bearer {access_token}"
    return httpx2.post(served.mcp, json=INIT, headers=headers)
