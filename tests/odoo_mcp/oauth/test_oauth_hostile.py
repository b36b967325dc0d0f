"""OAuth sign-in, hostile input: each gets a clear refusal and nothing else (no redirect to a
URI the client did not register, no token, no Odoo session)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from oauth_servers import (
    REDIRECT,
    Instances,
    Served,
    authorize_query,
    code_from,
    form_fields,
    mcp_post,
    open_signin,
    pkce,
    post_signin,
    register,
    sign_in,
    token,
    tokens_for,
)

from odoo_mcp.adapter.http.auth import MAX_FAILED_AUTH

pytestmark = [pytest.mark.wire]


def test_the_challenge_points_to_the_metadata(served: Served) -> None:
    """RFC 9728 §5.1: the 401 names the protected resource metadata; it names this server
    as the resource and its authorization server (RFC 8414: S256 only, registration and
    revocation endpoints)."""
    answer = mcp_post(served, None)
    assert answer.status_code == 401
    metadata_url = f"{served.base}/.well-known/oauth-protected-resource/mcp"
    assert f'resource_metadata="{metadata_url}"' in answer.headers["www-authenticate"]
    resource = httpx2.get(metadata_url).json()
    assert resource["resource"] == served.mcp
    assert resource["authorization_servers"] == [f"{served.base}/"]
    server = httpx2.get(f"{served.base}/.well-known/oauth-authorization-server").json()
    assert server["code_challenge_methods_supported"] == ["S256"]
    assert server["registration_endpoint"] == f"{served.base}/register"
    assert server["revocation_endpoint"] == f"{served.base}/revoke"
    assert server["grant_types_supported"] == ["authorization_code", "refresh_token"]


@pytest.mark.parametrize(
    "uri",
    ["javascript:alert(1)", "http://evil.example/cb", "https://good.example/cb#frag",
     "data:text/html,hi", "https://user:pw@good.example/cb"],
)  # fmt: skip
def test_registration_refuses_dangerous_redirect_uris(served: Served, uri: str) -> None:
    answer = httpx2.post(
        f"{served.base}/register", json={"client_name": "x", "redirect_uris": [uri]}
    )
    assert answer.status_code == 400
    assert answer.json()["error"] in ("invalid_redirect_uri", "invalid_client_metadata")


def test_an_unregistered_redirect_uri_gets_a_page_never_a_redirect(served: Served) -> None:
    client = register(served.base)
    _, challenge = pkce()
    query = authorize_query(
        client["client_id"], challenge, redirect_uri="https://evil.example/steal"
    )
    answer = httpx2.get(f"{served.base}/authorize", params=query)
    assert answer.status_code == 400 and "location" not in answer.headers
    assert answer.headers["content-type"].startswith("text/html")
    assert "not registered" in answer.text and "evil.example" in answer.text


def test_a_loopback_redirect_uri_takes_any_port(served: Served) -> None:
    """RFC 8252 §7.3: a native app (the MCP Inspector) registers ``http://127.0.0.1:9/
    callback`` and listens on another port at each sign-in; the code goes to that port."""
    client = register(served.base)
    other = REDIRECT.replace(":9/", ":5555/")
    verifier, challenge = pkce()
    with httpx2.Client() as web:
        query = authorize_query(client["client_id"], challenge, redirect_uri=other)
        answer = post_signin(web, open_signin(web, served.base, query), "demo", "demo")
    assert answer.status_code == 303 and answer.headers["location"].startswith(other + "?")
    code = parse_qs(urlsplit(answer.headers["location"]).query)["code"][0]
    form = dict(grant_type="authorization_code", code=code, client_id=client["client_id"],
                code_verifier=verifier)  # fmt: skip
    assert token(served.base, **form, redirect_uri=REDIRECT).status_code == 400  # not its URI
    assert token(served.base, **form, redirect_uri=other).status_code == 200


@pytest.mark.parametrize(
    "uri",
    [
        "http://127.0.0.1:5555/elsewhere",  # another path
        "http://127.0.0.1:5555/callback?x=1",  # another query
        "http://localhost:5555/callback",  # a name, not the loopback IP literal
        "http://127.0.0.2:9/callback",  # another address
    ],
)
def test_only_the_port_of_a_loopback_redirect_uri_may_differ(served: Served, uri: str) -> None:
    client = register(served.base)
    _, challenge = pkce()
    query = authorize_query(client["client_id"], challenge, redirect_uri=uri)
    answer = httpx2.get(f"{served.base}/authorize", params=query)
    assert answer.status_code == 400 and "location" not in answer.headers
    assert "not registered" in answer.text


def test_a_non_loopback_redirect_uri_keeps_its_port(served: Served) -> None:
    client = register(served.base, "https://app.example:8443/callback")
    _, challenge = pkce()
    for uri in ("https://app.example:9443/callback", "https://app.example/callback"):
        query = authorize_query(client["client_id"], challenge, redirect_uri=uri)
        answer = httpx2.get(f"{served.base}/authorize", params=query)
        assert answer.status_code == 400 and "location" not in answer.headers, uri


def test_an_unknown_client_gets_a_page(served: Served) -> None:
    _, challenge = pkce()
    answer = httpx2.get(f"{served.base}/authorize", params=authorize_query("nobody", challenge))
    assert answer.status_code == 400 and "location" not in answer.headers
    assert answer.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize(
    "change",
    [{"code_challenge": ""}, {"code_challenge_method": "plain"}, {"code_challenge": "short"}],
)
def test_authorization_without_s256_pkce_is_refused(served: Served, change: dict[str, str]) -> None:
    """To the registered redirect URI only (RFC 6749 §4.1.2.1), with an error, no code."""
    client = register(served.base)
    _, challenge = pkce()
    query = {**authorize_query(client["client_id"], challenge), **change}
    if not change.get("code_challenge", "x"):
        del query["code_challenge"]
    answer = httpx2.get(f"{served.base}/authorize", params=query)
    assert answer.status_code == 302
    location = answer.headers["location"]
    assert location.startswith(REDIRECT + "?")
    got = parse_qs(urlsplit(location).query)
    assert got["error"] == ["invalid_request"] and "code" not in got


def test_a_wrong_code_verifier_is_refused(served: Served) -> None:
    client = register(served.base)
    code, _ = sign_in(served.base, client["client_id"])
    answer = token(
        served.base, grant_type="authorization_code", code=code, redirect_uri=REDIRECT,
        client_id=client["client_id"], code_verifier="w" * 60,
    )  # fmt: skip
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_grant"


def test_a_replayed_code_is_refused_and_ends_its_grant(served: Served) -> None:
    client = register(served.base)
    code, verifier = sign_in(served.base, client["client_id"])
    form = dict(grant_type="authorization_code", code=code, redirect_uri=REDIRECT,
                client_id=client["client_id"], code_verifier=verifier)  # fmt: skip
    first = token(served.base, **form)
    assert first.status_code == 200
    again = token(served.base, **form)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    # RFC 6749 §4.1.2: the tokens the code gave are revoked
    assert mcp_post(served, first.json()["access_token"]).status_code == 401


def test_an_expired_code_is_refused(served: Served) -> None:
    client = register(served.base)
    code, verifier = sign_in(served.base, client["client_id"])
    served.clock.offset += served.config.oauth_code_lifetime + 1
    answer = token(
        served.base, grant_type="authorization_code", code=code, redirect_uri=REDIRECT,
        client_id=client["client_id"], code_verifier=verifier,
    )  # fmt: skip
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_grant"


def test_a_code_of_another_client_is_refused(served: Served) -> None:
    client, other = register(served.base), register(served.base)
    code, verifier = sign_in(served.base, client["client_id"])
    answer = token(
        served.base, grant_type="authorization_code", code=code, redirect_uri=REDIRECT,
        client_id=other["client_id"], code_verifier=verifier,
    )  # fmt: skip
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_grant"


def test_an_expired_access_token_is_refused(served: Served) -> None:
    tokens = tokens_for(served.base)
    assert mcp_post(served, tokens["access_token"]).status_code == 200
    served.clock.offset += served.config.oauth_access_lifetime + 1
    answer = mcp_post(served, tokens["access_token"])
    assert answer.status_code == 401 and answer.json()["error"] == "invalid_token"
    assert "resource_metadata=" in answer.headers["www-authenticate"]


def test_a_made_up_access_token_is_refused(served: Served) -> None:
    answer = mcp_post(served, "odoo-mcp-at." + "A" * 43)
    assert answer.status_code == 401 and answer.json()["error"] == "invalid_token"


def test_a_token_for_another_resource_is_refused(instances: Instances) -> None:
    """RFC 8707: two servers sharing one state and secret; a token issued for one is refused
    by the other (its audience), and an authorization for a foreign resource is refused."""
    first = instances.start()
    second = instances.start(store=first.store, state=first.state, clock=first.clock)
    tokens = tokens_for(first.base)
    assert mcp_post(first, tokens["access_token"]).status_code == 200
    answer = mcp_post(second, tokens["access_token"])
    assert answer.status_code == 401 and "another resource" in answer.json()["error_description"]
    client = register(first.base)
    _, challenge = pkce()
    query = authorize_query(client["client_id"], challenge, resource="https://other.example/mcp")
    refused = httpx2.get(f"{first.base}/authorize", params=query)
    assert refused.status_code == 302
    assert parse_qs(urlsplit(refused.headers["location"]).query)["error"] == ["invalid_target"]


@pytest.mark.parametrize("csrf", [None, "", "wrong-token"])
def test_a_sign_in_without_its_csrf_token_is_refused(served: Served, csrf: str | None) -> None:
    client = register(served.base)
    _, challenge = pkce()
    with httpx2.Client() as web:
        fields = open_signin(web, served.base, authorize_query(client["client_id"], challenge))
        answer = post_signin(web, fields, "demo", "demo", csrf=csrf)  # type: ignore[arg-type]
        assert answer.status_code == 403 and "location" not in answer.headers
        # single use: the authorization is gone, the right token no longer works either
        again = post_signin(web, fields, "demo", "demo")
        assert again.status_code == 400 and "location" not in again.headers
        assert web.get(fields["action"], params={"request": fields["request"]}).status_code == 400


def test_a_sign_in_form_is_single_use(served: Served) -> None:
    client = register(served.base)
    _, challenge = pkce()
    with httpx2.Client() as web:
        fields = open_signin(web, served.base, authorize_query(client["client_id"], challenge))
        code_from(post_signin(web, fields, "demo", "demo"))
        replay = post_signin(web, fields, "demo", "demo")
    assert replay.status_code == 400 and "location" not in replay.headers


def test_failed_sign_ins_count_in_the_bearer_lockout(served: Served) -> None:
    """Decision 29: the same limit per address as refused Bearer tokens; a wrong password
    shows the form again (a new CSRF token), then 429."""
    client = register(served.base)
    _, challenge = pkce()
    statuses = []
    with httpx2.Client() as web:
        fields = open_signin(web, served.base, authorize_query(client["client_id"], challenge))
        for attempt in range(MAX_FAILED_AUTH + 1):
            # each a new guess: one guess repeated is refused from memory, costing Odoo nothing
            guess = f"not-the-password-{attempt}"
            answer = post_signin(web, fields, "demo", guess)
            statuses.append(answer.status_code)
            assert "location" not in answer.headers
            assert "id=secret" in answer.text and guess not in answer.text
            fresh = form_fields(answer.text)
            assert fresh["csrf"] != fields["csrf"]
            fields = fresh
    assert statuses == [401] * MAX_FAILED_AUTH + [429]
    # and an unknown Bearer token from the same address is now refused without asking Odoo
    assert mcp_post(served, "demo:0123456789abcdef").status_code == 429


def test_a_refresh_token_is_rotated_and_a_reused_one_ends_the_grant(served: Served) -> None:
    tokens = tokens_for(served.base)
    form = dict(grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                client_id=tokens["client_id"])  # fmt: skip
    renewed = token(served.base, **form)
    assert renewed.status_code == 200, renewed.text
    fresh = renewed.json()
    assert fresh["refresh_token"] != tokens["refresh_token"]
    assert mcp_post(served, fresh["access_token"]).status_code == 200
    reused = token(served.base, **form)
    assert reused.status_code == 400 and reused.json()["error"] == "invalid_grant"
    # OAuth 2.1 §4.3.1: a reused refresh token means a stolen one: the grant ends
    assert mcp_post(served, fresh["access_token"]).status_code == 401
    again = token(served.base, **{**form, "refresh_token": fresh["refresh_token"]})
    assert again.status_code == 400


def test_revocation_ends_the_grant(served: Served) -> None:
    tokens = tokens_for(served.base)
    answer = httpx2.post(
        f"{served.base}/revoke",
        # the SDK's revocation request requires the field, empty for a public client
        data={"token": tokens["refresh_token"], "client_id": tokens["client_id"],
              "client_secret": ""},
    )  # fmt: skip
    assert answer.status_code == 200, answer.text
    assert mcp_post(served, tokens["access_token"]).status_code == 401
    refreshed = token(
        served.base, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
        client_id=tokens["client_id"],
    )  # fmt: skip
    assert refreshed.status_code == 400
