"""Issue 39: OAuth across replicas, in process (the fleet harness, ``bench/fleet.py --phases
oauth``, runs it with Redis and HAProxy). Two instances with one secret and one public URL
share their OAuth store: one memory store object, or two Redis clients of one (fakeredis)
server; a code issued by one is exchanged on the other, and a revocation on one is seen by the
other. Without a shared store, the other instance refuses the token with 401."""

from __future__ import annotations

from collections.abc import Callable

import httpx2
import pytest
from fakeredis import FakeServer
from fakeredis.aioredis import FakeRedis
from oauth_servers import REDIRECT, Instances, Served, mcp_post, register, sign_in, token

from odoo_mcp.adapter.http.oauth import RedisStore
from odoo_mcp.state.redis_store import RedisState

pytestmark = [pytest.mark.wire]

Pair = Callable[[Instances], tuple[Served, Served]]


def _memory(instances: Instances) -> tuple[Served, Served]:
    first = instances.start()
    second = instances.start(store=first.store, state=first.state, clock=first.clock,
                             public_url=first.mcp)  # fmt: skip
    return first, second


def _redis(instances: Instances) -> tuple[Served, Served]:
    server = FakeServer()

    def store() -> RedisStore:  # each replica its own client of the one server
        return RedisStore(FakeRedis(server=server, decode_responses=True))

    def state() -> RedisState:
        return RedisState(FakeRedis(server=server, decode_responses=True))

    first = instances.start(store=store(), state=state())
    # one resource: the public URL a balancer's clients reach
    return first, instances.start(store=store(), state=state(), public_url=first.mcp)


@pytest.mark.parametrize("pair", [_memory, _redis], ids=["memory", "redis"])
def test_a_code_of_one_replica_is_exchanged_on_another_and_a_revoke_seen_by_both(
    instances: Instances, pair: Pair
) -> None:
    first, second = pair(instances)
    client = register(first.base)["client_id"]
    code, verifier = sign_in(first.base, client)
    exchanged = token(
        second.base, grant_type="authorization_code", code=code, redirect_uri=REDIRECT,
        client_id=client, code_verifier=verifier,
    )  # fmt: skip
    assert exchanged.status_code == 200, exchanged.text
    tokens = exchanged.json()
    assert mcp_post(first, tokens["access_token"]).status_code == 200
    assert mcp_post(second, tokens["access_token"]).status_code == 200
    # the code is spent for both
    again = token(
        first.base, grant_type="authorization_code", code=code, redirect_uri=REDIRECT,
        client_id=client, code_verifier=verifier,
    )  # fmt: skip
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    revoked = httpx2.post(
        f"{first.base}/revoke",
        data={"token": tokens["access_token"], "client_id": client, "client_secret": ""},
    )
    assert revoked.status_code == 200, revoked.text
    refused = mcp_post(second, tokens["access_token"])
    assert refused.status_code == 401 and refused.json()["error"] == "invalid_token"
    renewed = token(
        second.base, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
        client_id=client,
    )  # fmt: skip
    assert renewed.status_code == 400 and renewed.json()["error"] == "invalid_grant"


def test_without_a_shared_store_another_replica_refuses_the_token_with_401(
    instances: Instances,
) -> None:
    """Each instance its own memory store (no ``state_url``): what one issued, the other does
    not know. As documented: give the replicas a shared ``ODOO_MCP_STATE_URL``."""
    first = instances.start()
    second = instances.start(public_url=first.mcp)
    client = register(first.base)["client_id"]
    code, verifier = sign_in(first.base, client)
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
            "client_id": client, "code_verifier": verifier}  # fmt: skip
    elsewhere = token(second.base, **form)
    assert elsewhere.status_code == 401 and elsewhere.json()["error"] == "invalid_client"
    exchanged = token(first.base, **form)
    assert exchanged.status_code == 200, exchanged.text
    access = exchanged.json()["access_token"]
    assert mcp_post(first, access).status_code == 200
    refused = mcp_post(second, access)
    assert refused.status_code == 401 and refused.json()["error"] == "invalid_token"
    assert "unknown, expired or revoked" in refused.json()["error_description"]
    assert 'error="invalid_token"' in refused.headers["www-authenticate"]
