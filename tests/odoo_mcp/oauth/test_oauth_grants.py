"""OAuth sign-in: grants end when Odoo refuses their credential; tokens are accepted by every
instance sharing the state (memory here, Redis through fakeredis); credentials are never
stored in clear nor logged."""

from __future__ import annotations

import base64
import logging
from collections.abc import Iterator

import pytest
from fakeredis import FakeServer
from fakeredis.aioredis import FakeRedis
from oauth_servers import Instances, Served, mcp_post, token, tokens_for

from fake_odoo.demo import DEMO_UID
from fake_odoo.handle import FakeOdoo
from odoo_mcp.adapter.http.oauth import MemoryStore, RedisStore
from odoo_mcp.state.redis_store import RedisState

pytestmark = [pytest.mark.wire]


@pytest.fixture
def new_demo_password(fake: FakeOdoo) -> Iterator[None]:
    """The demo user's password changed in Odoo for the test."""
    passwords = fake.db.passwords
    before = passwords[DEMO_UID]
    passwords[DEMO_UID] = "changed-in-odoo"
    try:
        yield
    finally:
        passwords[DEMO_UID] = before


def test_a_grant_ends_at_refresh_when_odoo_refuses_its_credential(
    served: Served, request: pytest.FixtureRequest
) -> None:
    tokens = tokens_for(served.base)
    assert mcp_post(served, tokens["access_token"]).status_code == 200
    request.getfixturevalue("new_demo_password")
    answer = token(
        served.base, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
        client_id=tokens["client_id"],
    )  # fmt: skip
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_grant"
    assert "sign in again" in answer.json()["error_description"]
    refused = mcp_post(served, tokens["access_token"])
    assert refused.status_code == 401 and refused.json()["error"] == "invalid_token"


def test_a_grant_ends_when_odoo_refuses_its_credential_on_a_request(
    instances: Instances, request: pytest.FixtureRequest
) -> None:
    """The instance that has no connection for the grant yet asks Odoo, is refused: 401
    invalid_token, and the grant ends for every instance (the one whose connection is kept
    too)."""
    first = instances.start()
    second = instances.start(store=first.store, state=first.state, clock=first.clock,
                             public_url=first.mcp)  # fmt: skip
    tokens = tokens_for(first.base)
    assert mcp_post(first, tokens["access_token"]).status_code == 200
    request.getfixturevalue("new_demo_password")
    answer = mcp_post(second, tokens["access_token"])
    assert answer.status_code == 401 and answer.json()["error"] == "invalid_token"
    assert "sign in again" in answer.json()["error_description"]
    assert mcp_post(first, tokens["access_token"]).status_code == 401
    renewed = token(
        first.base, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
        client_id=tokens["client_id"],
    )  # fmt: skip
    assert renewed.status_code == 400


def test_tokens_of_one_instance_are_accepted_by_another_through_redis(
    instances: Instances,
) -> None:
    """Issue 19: replicas share Redis; a sign-in on one, its tokens used and refreshed on
    the other (the same public URL: one resource behind a balancer)."""
    server = FakeServer()

    def replica(public_url: str | None = None) -> Served:
        extra = {} if public_url is None else {"public_url": public_url}
        return instances.start(
            store=RedisStore(FakeRedis(server=server, decode_responses=True)),
            state=RedisState(FakeRedis(server=server, decode_responses=True)),
            **extra,
        )

    first = replica()
    second = replica(public_url=first.mcp)  # what the balancer's clients reach
    tokens = tokens_for(first.base)
    assert mcp_post(second, tokens["access_token"]).status_code == 200
    renewed = token(
        second.base, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
        client_id=tokens["client_id"],
    )  # fmt: skip
    assert renewed.status_code == 200, renewed.text
    assert mcp_post(first, renewed.json()["access_token"]).status_code == 200
    # rotated on one replica, refused on the other
    reused = token(
        first.base, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
        client_id=tokens["client_id"],
    )  # fmt: skip
    assert reused.status_code == 400


def test_credentials_and_tokens_are_never_stored_in_clear_nor_logged(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "demo"
    with caplog.at_level(logging.DEBUG):
        tokens = tokens_for(served.base, "demo", secret)
        assert mcp_post(served, tokens["access_token"]).status_code == 200
    assert isinstance(served.store, MemoryStore)
    entries = list(served.store.entries.items())
    assert any(key.startswith("grant:") for key, _ in entries)
    for key, value in entries:
        assert tokens["access_token"] not in key and tokens["refresh_token"] not in key
        sealed = base64.urlsafe_b64decode(value)  # AES-GCM: nonce, ciphertext, tag
        for clear in (b"demo", b"secret", b"login", tokens["access_token"].encode()):
            assert clear not in sealed
    logged = "\n".join(record.getMessage() for record in caplog.records)
    for clear in (tokens["access_token"], tokens["refresh_token"], "secret=demo"):
        assert clear not in logged
