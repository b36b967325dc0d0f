"""Client ID metadata documents: the URL and document rules, and the fetch's refusals, against
a real HTTPS host on 127.0.0.1 (``document_host``); every refusal leaves the client unknown."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from document_host import Answer, DocumentHost, document_host

from odoo_mcp.adapter.http.oauth.documents import (
    MAX_DOCUMENT,
    ClientDocuments,
    DocumentRefused,
    _client_of,
    client_label,
    document_url_problem,
    public_address,
    ttl_of,
)

pytestmark = pytest.mark.anyio

REDIRECT = "http://127.0.0.1:9/callback"


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DocumentHost]:
    with document_host(tmp_path_factory.mktemp("tls")) as served:
        yield served


def document(client_id: str, **extra: Any) -> bytes:
    body = {"client_id": client_id, "client_name": "Doc Client", "redirect_uris": [REDIRECT],
            "token_endpoint_auth_method": "none", **extra}  # fmt: skip
    return json.dumps(body).encode()


def put(host: DocumentHost, path: str, **answer: Any) -> str:
    """Serve a document (its own URL as client_id unless ``body`` says otherwise)."""
    url = host.url(path)
    body = answer.pop("body", None)
    host.answers[path] = Answer(body=document(url) if body is None else body, **answer)
    return url


def documents(host: DocumentHost, **settings: Any) -> ClientDocuments:
    settings.setdefault("private_hosts", frozenset({"127.0.0.1"}))
    return ClientDocuments(verify=host.context(), **settings)


# -- the rules ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("client_id", "problem"),
    [
        ("http://client.example/meta.json", "https"),
        ("https://client.example", "path"),
        ("https://client.example/", "path"),
        ("https://client.example/meta.json#x", "fragment"),
        ("https://user:pw@client.example/meta.json", "user or password"),
        ("https://client.example/a/../meta.json", ". or .."),
        ("https://client.example/./meta.json", ". or .."),
        ("https:///meta.json", "no host"),
        ("https://client.example:99999/meta.json", "parse"),
    ],
)
def test_a_client_id_that_is_no_document_url_is_refused(client_id: str, problem: str) -> None:
    said = document_url_problem(client_id)
    assert said is not None and problem in said


def test_a_document_url_is_accepted() -> None:
    assert document_url_problem("https://client.example/oauth/meta.json") is None
    assert document_url_problem("https://client.example:8443/meta?v=2") is None


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
     "0.0.0.0", "224.0.0.1", "192.0.2.1", "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1",
     "::ffff:10.0.0.1", "ff02::1"],
)  # fmt: skip
def test_non_public_addresses_are_not_public(address: str) -> None:
    assert not public_address(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"])
def test_public_addresses_are_public(address: str) -> None:
    assert public_address(address)


@pytest.mark.parametrize(
    ("cache_control", "ttl"),
    [(None, 300.0), ("max-age=60", 60.0), ("public, max-age=7200", 7200.0),
     ("max-age=999999999", 86400.0), ("no-store", 0.0), ("no-cache, max-age=60", 0.0)],
)  # fmt: skip
def test_a_document_is_kept_as_its_answer_says(cache_control: str | None, ttl: float) -> None:
    assert ttl_of(cache_control) == ttl


URL = "https://client.example/meta.json"


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (document("https://other.example/meta.json"), "not its own URL"),
        (document(URL, client_secret="s3cret"), "client secret"),
        (document(URL, client_secret_expires_at=0), "client secret"),
        (document(URL, token_endpoint_auth_method="client_secret_basic"), "shared secret"),
        (document(URL, token_endpoint_auth_method="client_secret_post"), "shared secret"),
        (document(URL, token_endpoint_auth_method="private_key_jwt"), "not supported"),
        (document(URL, redirect_uris=[]), "no redirect_uris"),
        (document(URL, redirect_uris="http://127.0.0.1/cb"), "no redirect_uris"),
        (document(URL, redirect_uris=["http://evil.example/cb"]), "plain http"),
        (document(URL, redirect_uris=["javascript:alert(1)"]), "not a redirect"),
        (document(URL, client_name="x" * 201), "client_name"),
        (document(URL, grant_types=["client_credentials"]), "authorization_code"),
        (b"[1, 2]", "not a JSON object"),
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
    ],
)
def test_a_document_breaking_the_rules_is_refused(body: bytes, why: str) -> None:
    with pytest.raises(DocumentRefused, match=why):
        _client_of(URL, body)


def test_an_accepted_document_becomes_a_public_client() -> None:
    client = _client_of(URL, document(URL, grant_types=["authorization_code", "implicit"]))
    assert client.client_id == URL and client.token_endpoint_auth_method == "none"
    assert [str(u) for u in client.redirect_uris or ()] == [REDIRECT]
    assert client.grant_types == ["authorization_code"] and client.response_types == ["code"]


def test_the_consent_names_the_host_vouching_for_a_document_client() -> None:
    assert client_label(URL, "Claude") == "Claude (its metadata at client.example)"
    assert client_label("k3Yx-random", "Claude") == "Claude"
    assert client_label(URL, None) == "An unnamed MCP client (its metadata at client.example)"


# -- the fetch ---------------------------------------------------------------------------


async def test_a_document_is_fetched_checked_and_kept(host: DocumentHost) -> None:
    url = put(host, "/kept.json", headers={"Content-Type": "application/json"})
    docs = documents(host)
    first, second = await docs.client(url), await docs.client(url)
    assert first is not None and second is first
    assert first.client_name == "Doc Client"
    assert host.hits["/kept.json"] == 1  # kept for its 5 minutes


async def test_a_no_store_document_is_fetched_each_time(host: DocumentHost) -> None:
    url = put(host, "/nostore.json", headers={"Content-Type": "application/json",
                                              "Cache-Control": "no-store"})  # fmt: skip
    docs = documents(host)
    assert await docs.client(url) is not None and await docs.client(url) is not None
    assert host.hits["/nostore.json"] == 2


async def test_a_kept_document_is_fetched_again_once_stale(host: DocumentHost) -> None:
    url = put(host, "/stale.json", headers={"Content-Type": "application/json",
                                            "Cache-Control": "max-age=60"})  # fmt: skip
    now = [1000.0]
    docs = documents(host, clock=lambda: now[0])
    await docs.client(url)
    now[0] += 61
    await docs.client(url)
    assert host.hits["/stale.json"] == 2


async def test_a_flood_naming_one_document_fetches_it_once(host: DocumentHost) -> None:
    url = put(host, "/flood.json", delay=0.2)
    docs = documents(host)
    found = await asyncio.gather(*(docs.client(url) for _ in range(25)))
    assert all(client is not None for client in found)
    assert host.hits["/flood.json"] == 1


async def test_a_host_resolving_to_loopback_is_not_fetched(
    host: DocumentHost, caplog: pytest.LogCaptureFixture
) -> None:
    url = put(host, "/private.json")
    docs = documents(host, private_hosts=frozenset())
    assert await docs.client(url) is None
    assert host.hits["/private.json"] == 0  # refused before any connection
    refusal = docs.refusal(url)
    assert refusal is not None and "non-public address" in refusal
    assert "ODOO_MCP_OAUTH_CLIENT_DOCUMENT_HOSTS" in refusal
    assert "resolves to 127.0.0.1" in caplog.text  # the address for the operator's log


async def test_one_private_address_among_public_ones_is_enough_to_refuse(
    host: DocumentHost,
) -> None:
    async def rebinding(host_name: str, port: int) -> list[str]:
        return ["93.184.216.34", "10.0.0.7"]

    docs = ClientDocuments(resolver=rebinding)
    assert await docs.client("https://client.example/meta.json") is None
    refusal = docs.refusal("https://client.example/meta.json") or ""
    # refused, and the page (shown to anybody) does not say where an inside name points
    assert "non-public address" in refusal and "10.0.0.7" not in refusal


async def test_the_connection_goes_to_the_address_that_was_checked(host: DocumentHost) -> None:
    """The name is resolved once, checked, and that address is dialled; TLS still verifies
    the name (``docs.test`` is in the certificate, not in any DNS)."""
    asked: list[str] = []

    async def resolver(host_name: str, port: int) -> list[str]:
        asked.append(host_name)
        return ["127.0.0.1"]

    path = "/pinned.json"
    url = host.url(path, host="docs.test")
    host.answers[path] = Answer(body=document(url))
    docs = documents(host, private_hosts=frozenset({"docs.test"}), resolver=resolver)
    client = await docs.client(url)
    assert client is not None and client.client_id == url
    assert asked == ["docs.test"] and host.hits[path] == 1


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (Answer(302, b"", {"Location": "https://127.0.0.1:1/elsewhere.json"}),
         "HTTP 302 (redirects are not followed)"),
        (Answer(404, b"{}"), "HTTP 404"),
        (Answer(200, b"<html>", {"Content-Type": "text/html"}), "not JSON"),
        (Answer(200, b"{" + b" " * MAX_DOCUMENT + b"}"), f"over {MAX_DOCUMENT} bytes"),
    ],
)  # fmt: skip
async def test_an_answer_that_is_no_document_is_refused(
    host: DocumentHost, answer: Answer, why: str
) -> None:
    path = f"/refused-{answer.status}-{len(answer.body)}.json"
    host.answers[path] = answer
    docs = documents(host)
    assert await docs.client(host.url(path)) is None
    assert why in (docs.refusal(host.url(path)) or "")


async def test_a_refusal_is_remembered_for_a_while(host: DocumentHost) -> None:
    host.answers["/gone.json"] = Answer(404, b"{}")
    docs = documents(host)
    for _ in range(3):
        assert await docs.client(host.url("/gone.json")) is None
    assert host.hits["/gone.json"] == 1


async def test_an_untrusted_certificate_is_refused(host: DocumentHost) -> None:
    url = put(host, "/untrusted.json")
    docs = ClientDocuments(private_hosts=frozenset({"127.0.0.1"}))  # the system's CAs only
    assert await docs.client(url) is None
    assert "TLS" in (docs.refusal(url) or "")


async def test_a_slow_host_is_given_up_on(host: DocumentHost) -> None:
    url = put(host, "/slow.json", delay=2.0)
    docs = documents(host, timeout=0.3)
    assert await docs.client(url) is None
    assert "no answer within 0.3 seconds" in (docs.refusal(url) or "")


async def test_an_unresolvable_host_is_refused() -> None:
    async def nowhere(host_name: str, port: int) -> list[str]:
        raise OSError("Name or service not known")

    docs = ClientDocuments(resolver=nowhere)
    assert await docs.client("https://nowhere.example/meta.json") is None
    assert "does not resolve" in (docs.refusal("https://nowhere.example/meta.json") or "")
