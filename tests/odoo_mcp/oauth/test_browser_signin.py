"""OAuth sign-in in a real browser: ``odoo-mcp serve --transport http --oauth on`` on the
served fake Odoo, its sign-in page opened and filled in by headless Chromium (through
ChromeDriver), the browser sent back to a loopback redirect URI this test listens on; the
code then exchanged for tokens, and the MCP session run as the demo user.

The sign-in page's screenshot is checked (a PNG of the window's size, not blank) and kept in
the test's ``tmp_path``; ``UPDATE_SCREENSHOTS=1`` also writes it to
``docs/assets/oauth-signin.png``, the picture docs/oauth.md shows (a plain run leaves the
checked-in file alone, and checks it).

This is the test that found the sign-in form's ``form-action 'self'`` blocking the redirect
back to the client in Chromium (which applies ``form-action`` to the redirect a form's POST
is answered with); an HTTP client follows any redirect.

Without Chromium and ChromeDriver this test fails, saying how to install them: it never skips
(``.ci/run`` installs them).
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import anyio
import httpx2
import pytest
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.shared.auth import OAuthClientMetadata
from oauth_servers import DEMO_RIGHTS, SECRET, Storage, register, rights_through
from pydantic import AnyUrl

from fake_odoo.demo import DEMO_API_KEY
from fake_odoo.handle import FakeOdoo
from headless_chromium import Browser, BrowserMissing, find_binaries, headless_chromium, read_png
from http_servers import serve_http

pytestmark = [pytest.mark.anyio, pytest.mark.wire]

WIDTH, HEIGHT = 1280, 800
CLIENT_NAME = "Browser Test Client"
DOCS_PICTURE = Path(__file__).resolve().parents[3] / "docs" / "assets" / "oauth-signin.png"
#: a rendered page with text, fields and a button has dozens of colours (anti-aliasing);
#: a blank or single-colour one has one or two
MIN_COLOURS = 16


@pytest.fixture(scope="module")
def base(fake: FakeOdoo) -> Iterator[str]:
    """The server as a user starts it, as its own process."""
    assert fake.url is not None
    yield from serve_http(fake.url, "--oauth", "on", ODOO_MCP_OAUTH_SECRET=SECRET)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    try:
        find_binaries()
        missing = ""
    except BrowserMissing as error:
        missing = str(error)
    if missing:  # never a skip: a missing browser would turn this test green unrun
        pytest.fail(f"this test drives a real browser: {missing}", pytrace=False)
    with headless_chromium(WIDTH, HEIGHT) as started:
        yield started


@dataclass
class Callback:
    """The client's loopback redirect URI: what the browser was sent to."""

    uri: str
    hits: list[str] = field(default_factory=list)

    def query(self) -> dict[str, list[str]]:
        assert len(self.hits) == 1, self.hits
        return parse_qs(urlsplit(self.hits[0]).query)


@pytest.fixture
def callback() -> Iterator[Callback]:
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.startswith("/callback"):  # not the browser's /favicon.ico
                hits.append(self.path)
            body = b"<!doctype html><title>Signed in</title><p id=done>You may close this page."
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Callback(f"http://127.0.0.1:{server.server_address[1]}/callback", hits)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@dataclass(frozen=True)
class Authorization:
    """A registered client's authorization request, as a native MCP client builds it."""

    client_id: str
    verifier: str
    state: str
    url: str


def begin(base: str, callback: Callback) -> Authorization:
    """Register a client for the loopback redirect URI; the authorize URL, with PKCE S256."""
    client_id = str(register(base, callback.uri, name=CLIENT_NAME)["client_id"])
    verifier, state = secrets.token_urlsafe(48), secrets.token_urlsafe(16)
    digest = hashlib.sha256(verifier.encode()).digest()
    challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
    query = {
        "response_type": "code", "client_id": client_id, "redirect_uri": callback.uri,
        "code_challenge": challenge, "code_challenge_method": "S256", "state": state,
        "resource": f"{base}/mcp",
    }  # fmt: skip
    return Authorization(client_id, verifier, state, f"{base}/authorize?{urlencode(query)}")


def open_signin(browser: Browser, base: str, authorization: Authorization) -> None:
    """Open the authorize URL: the server sends the browser on to its sign-in page."""
    browser.open(authorization.url)
    assert browser.url.startswith(f"{base}/oauth/signin?request="), browser.url
    assert browser.count("#login") == 1, browser.source


def submit(browser: Browser, login: str, secret: str) -> None:
    browser.type("#login", login)
    browser.type("#secret", secret)
    browser.click("#signin")


def check_signin_page(browser: Browser, base: str) -> None:
    """What a person sees: whom the sign-in is for and where it goes back, and the fields."""
    consent = browser.text("#consent")
    assert CLIENT_NAME in consent, consent
    # the consent's two bold names: the client, and the host the browser goes back to
    assert browser.text("#consent strong:first-of-type") == CLIENT_NAME
    assert browser.text("#consent strong:last-of-type") == "127.0.0.1"
    assert "sent back to 127.0.0.1" in consent, consent
    for css in ("#login", "#secret", "#signin", "label[for=login]", "label[for=secret]"):
        assert browser.displayed(css), css
    assert browser.text("label[for=login]") == "Odoo login"
    assert browser.attribute("#secret", "type") == "password"
    assert browser.attribute("form", "action") == f"{base}/oauth/signin"
    assert browser.count("#error") == 0


def check_screenshot(png: bytes) -> None:
    decoded = read_png(png)
    assert (decoded.width, decoded.height) == (WIDTH, HEIGHT), (decoded.width, decoded.height)
    assert len(decoded.colours) >= MIN_COLOURS, f"{len(decoded.colours)} colours: blank?"


def exchange(base: str, callback: Callback, authorization: Authorization, code: str) -> str:
    answer = httpx2.post(
        f"{base}/token",
        data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": callback.uri,
            "client_id": authorization.client_id, "code_verifier": authorization.verifier,
            "resource": f"{base}/mcp",
        },
    )  # fmt: skip
    assert answer.status_code == 200, answer.text
    tokens: dict[str, Any] = answer.json()
    assert tokens["token_type"].lower() == "bearer" and tokens.get("refresh_token")
    return str(tokens["access_token"])


def code_of(browser: Browser, callback: Callback, authorization: Authorization) -> str:
    """After the sign-in: the browser at the redirect URI with a code and the same state."""
    browser.wait_for(lambda: browser.url.startswith(callback.uri + "?"))
    query = callback.query()
    assert parse_qs(urlsplit(browser.url).query) == query
    assert query["state"] == [authorization.state] and "error" not in query, query
    assert browser.text("#done") == "You may close this page."
    return query["code"][0]


async def test_a_person_signs_in_in_a_browser_and_the_client_acts_as_them(
    base: str, browser: Browser, callback: Callback, tmp_path: Path
) -> None:
    authorization = begin(base, callback)
    open_signin(browser, base, authorization)
    check_signin_page(browser, base)
    browser.type("#login", "demo")
    browser.type("#secret", "demo")
    shot = browser.screenshot()  # filled in: the password shows as dots
    (tmp_path / "oauth-signin.png").write_bytes(shot)
    check_screenshot(shot)
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        DOCS_PICTURE.parent.mkdir(parents=True, exist_ok=True)
        DOCS_PICTURE.write_bytes(shot)
    assert not callback.hits  # nothing goes back before the person submits
    browser.click("#signin")
    access = exchange(base, callback, authorization, code_of(browser, callback, authorization))

    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {access}"}) as http:
        assert await rights_through(f"{base}/mcp", http) == DEMO_RIGHTS


async def test_the_sdk_oauth_client_signs_in_through_the_browser(
    base: str, browser: Browser, callback: Callback
) -> None:
    """Issue 39's done-when: a client using only the MCP authorization flow (the SDK's own
    OAuth client: discovery, registration, PKCE, the token exchange) hands its authorization
    URL to a real browser, where the person signs in on the server's page; the client then
    acts as the demo user, with the demo user's rights."""
    storage = Storage()

    def sign_in(url: str) -> None:  # the browser's side, as a person at it does
        browser.open(url)
        assert browser.url.startswith(f"{base}/oauth/signin?request="), browser.url
        assert "SDK Browser Client" in browser.text("#consent")
        submit(browser, "demo", "demo")
        browser.wait_for(lambda: browser.url.startswith(callback.uri + "?"))

    async def redirect(url: str) -> None:
        await anyio.to_thread.run_sync(sign_in, url)

    async def came_back() -> AuthorizationCodeResult:
        query = callback.query()
        return AuthorizationCodeResult(code=query["code"][0], state=query["state"][0])

    auth = OAuthClientProvider(
        server_url=f"{base}/mcp",
        client_metadata=OAuthClientMetadata(
            client_name="SDK Browser Client",
            redirect_uris=[AnyUrl(callback.uri)],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
        ),
        storage=storage,
        redirect_handler=redirect,
        callback_handler=came_back,
    )
    async with httpx2.AsyncClient(auth=auth) as http:
        assert await rights_through(f"{base}/mcp", http) == DEMO_RIGHTS
    assert storage.tokens is not None and storage.tokens.refresh_token is not None


def test_a_wrong_password_shows_the_page_again_and_sends_nothing_back(
    base: str, browser: Browser, callback: Callback
) -> None:
    authorization = begin(base, callback)
    open_signin(browser, base, authorization)
    submit(browser, "demo", "not-the-password")
    browser.wait_for(lambda: browser.count("#error") == 1)
    assert browser.text("#error") == "Odoo refused this login and password or API key."
    assert browser.url == f"{base}/oauth/signin"  # the form's answer, not a redirect
    assert not callback.hits
    assert CLIENT_NAME in browser.text("#consent")
    assert browser.property("#login", "value") == "demo"  # kept; the secret is not
    assert browser.property("#secret", "value") == ""
    # the page shown again is a working form: with the API key the sign-in goes through
    submit(browser, "demo", DEMO_API_KEY)
    exchange(base, callback, authorization, code_of(browser, callback, authorization))


def test_the_docs_picture_of_the_signin_page_is_a_screenshot() -> None:
    """docs/oauth.md shows it: ``UPDATE_SCREENSHOTS=1`` rewrites it."""
    check_screenshot(DOCS_PICTURE.read_bytes())
