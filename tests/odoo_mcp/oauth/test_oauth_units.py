"""OAuth sign-in, the parts alone: the configuration, the sealing, the store, the redirect
URI rules."""

from __future__ import annotations

import pytest
from fakeredis import FakeServer
from fakeredis.aioredis import FakeRedis

from fake_clock import FakeClock
from odoo_mcp import cli
from odoo_mcp.adapter.http.oauth.crypto import Sealer
from odoo_mcp.adapter.http.oauth.provider import redirect_uri_problem, same_resource
from odoo_mcp.adapter.http.oauth.store import MemoryStore, OAuthStore, RedisStore
from odoo_mcp.config import SETTINGS, ConfigError, load_config

BASE = {"ODOO_URL": "http://odoo.test", "ODOO_DB": "d", "ODOO_API_KEY": "k", "ODOO_USERNAME": "u"}
GOOD = "s" * 32


def test_oauth_is_off_by_default_and_on_by_its_flag() -> None:
    assert load_config(environ=BASE).oauth == "off"
    assert SETTINGS["oauth"].flag == "--oauth" and SETTINGS["oauth"].env == ("ODOO_MCP_OAUTH",)
    assert SETTINGS["oauth_secret"].flag is None  # a secret: never on the command line
    args = cli._parser().parse_args(["check", "--oauth", "on"])
    config = cli.config_from_args(args, {**BASE, "ODOO_MCP_OAUTH_SECRET": GOOD})
    assert config.oauth_enabled and config.http_auth_enabled  # on implies authentication
    lifetimes = (config.oauth_access_lifetime, config.oauth_refresh_lifetime)
    assert lifetimes == (600, 30 * 24 * 3600) and config.oauth_code_lifetime == 60


@pytest.mark.parametrize("secret", [None, "", "short-secret"])
def test_oauth_on_without_a_long_secret_is_a_configuration_error(secret: str | None) -> None:
    env = {**BASE, "ODOO_MCP_OAUTH": "on"}
    if secret is not None:
        env["ODOO_MCP_OAUTH_SECRET"] = secret
    with pytest.raises(ConfigError) as raised:
        load_config(environ=env)
    said = str(raised.value)
    assert "ODOO_MCP_OAUTH_SECRET" in said and "32" in said
    assert not secret or secret not in said


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"ODOO_MCP_HOST": "0.0.0.0"}, "needs public_url"),
        ({"ODOO_MCP_PUBLIC_URL": "http://mcp.example.com/mcp"}, "https://"),
        ({"ODOO_MCP_HTTP_AUTH": "off"}, "cannot be off"),
    ],
)
def test_oauth_needs_a_reachable_https_issuer_and_authentication(
    extra: dict[str, str], said: str
) -> None:
    env = {**BASE, "ODOO_MCP_OAUTH": "on", "ODOO_MCP_OAUTH_SECRET": GOOD, **extra}
    with pytest.raises(ConfigError, match=said):
        load_config(environ=env)


def test_oauth_behind_a_proxy_takes_its_https_public_url() -> None:
    env = {
        **BASE,
        "ODOO_MCP_OAUTH": "on",
        "ODOO_MCP_OAUTH_SECRET": GOOD,
        "ODOO_MCP_HOST": "0.0.0.0",
        "ODOO_MCP_PUBLIC_URL": "https://mcp.example.com/mcp",
    }
    assert load_config(environ=env).oauth_enabled  # fmt: skip


def test_the_secret_is_redacted_in_the_configuration_dump() -> None:
    config = load_config(environ={**BASE, "ODOO_MCP_OAUTH": "on", "ODOO_MCP_OAUTH_SECRET": GOOD})
    assert config.describe()["oauth_secret"] == "********"
    assert GOOD not in repr(config) and GOOD not in str(config.describe())


def test_a_sealed_record_opens_only_under_its_name_and_secret() -> None:
    sealer = Sealer(GOOD)
    blob = sealer.seal("grant:a", {"secret": "pw"})
    assert sealer.open("grant:a", blob) == {"secret": "pw"}
    assert sealer.open("grant:b", blob) is None  # moved to another key
    assert Sealer("t" * 32).open("grant:a", blob) is None  # another secret
    tampered = blob[:-4] + ("AAAA" if blob[-4:] != "AAAA" else "BBBB")
    assert sealer.open("grant:a", tampered) is None
    assert sealer.open("grant:a", "not base64 at all!") is None
    assert sealer.digest("x") == Sealer(GOOD).digest("x") != Sealer("t" * 32).digest("x")


@pytest.mark.anyio
@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_the_store_expires_and_takes_once(kind: str) -> None:
    clock = FakeClock()
    store: OAuthStore = (
        MemoryStore(clock=clock)
        if kind == "memory"
        else RedisStore(FakeRedis(server=FakeServer(), decode_responses=True))
    )
    await store.put("k", "v", 30)
    assert await store.get("k") == "v"
    assert await store.take("k") == "v"
    assert await store.take("k") is None and await store.get("k") is None
    if kind == "memory":
        await store.put("e", "v", 30)
        clock.now += 30
        assert await store.get("e") is None
    await store.close()


@pytest.mark.parametrize(
    ("uri", "ok"),
    [
        ("https://claude.ai/api/mcp/auth_callback", True),
        ("http://127.0.0.1:33418/callback", True),
        ("http://localhost/cb", True),
        ("cursor://anysphere.cursor-retrieval/oauth/callback", True),
        ("http://evil.example/cb", False),
        ("javascript:alert(1)", False),
        ("https://a.example/cb#x", False),
        ("/relative", False),
        ("https:///nohost", False),
    ],
)
def test_redirect_uri_rules(uri: str, ok: bool) -> None:
    assert (redirect_uri_problem(uri) is None) is ok


def test_same_resource() -> None:
    assert same_resource("https://MCP.example.com/mcp/", "https://mcp.example.com/mcp")
    assert not same_resource("https://mcp.example.com/other", "https://mcp.example.com/mcp")
    assert not same_resource(None, "https://mcp.example.com/mcp")


@pytest.mark.anyio
async def test_a_flood_of_one_kind_never_evicts_another() -> None:
    store = MemoryStore(max_entries=3)
    await store.put("grant:g", "kept", 60)
    for n in range(10):
        await store.put(f"client:{n}", "x", 60)
    assert await store.get("grant:g") == "kept"
    assert await store.get("client:0") is None and await store.get("client:9") == "x"
