"""Client ID metadata documents end to end, through ``odoo-mcp serve --transport http --oauth
on`` as a user starts it: the MCP SDK's own OAuth client names itself by its document's URL
(no registration), the server fetches the document from an HTTPS host and the person signs in
as the demo user; hostile documents get a page naming the refusal and never a redirect."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from document_host import Answer, DocumentHost, document_host
from mcp.client.auth import OAuthClientProvider
from mcp.shared.auth import OAuthClientMetadata
from oauth_servers import (
    DEMO_RIGHTS,
    REDIRECT,
    SECRET,
    Person,
    Storage,
    authorize_query,
    pkce,
    rights_through,
)
from pydantic import AnyUrl

from fake_odoo.handle import FakeOdoo
from http_servers import serve_http

pytestmark = [pytest.mark.anyio, pytest.mark.wire]


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DocumentHost]:
    with document_host(tmp_path_factory.mktemp("tls")) as served:
        yield served


@pytest.fixture(scope="module")
def base(fake: FakeOdoo, host: DocumentHost) -> Iterator[str]:
    """The server as a user starts it: documents on (the default), 127.0.0.1 allowed as the
    one non-public document host, the test CA trusted through ``SSL_CERT_FILE``."""
    assert fake.url is not None
    yield from serve_http(
        fake.url, "--oauth", "on", ODOO_MCP_OAUTH_SECRET=SECRET,
        ODOO_MCP_OAUTH_CLIENT_DOCUMENT_HOSTS="127.0.0.1", SSL_CERT_FILE=str(host.ca_file),
    )  # fmt: skip


def publish(host: DocumentHost, path: str, **extra: Any) -> str:
    url = host.url(path)
    body = {"client_id": url, "client_name": "Doc Client", "redirect_uris": [REDIRECT],
            "token_endpoint_auth_method": "none", **extra}  # fmt: skip
    host.answers[path] = Answer(body=json.dumps(body).encode())
    return url


def metadata(base: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx2.get(f"{base}/.well-known/oauth-authorization-server").json()
    return data


def test_the_server_says_it_takes_documents_and_public_clients(base: str) -> None:
    said = metadata(base)
    assert said["client_id_metadata_document_supported"] is True
    assert "none" in said["token_endpoint_auth_methods_supported"]
    assert said["registration_endpoint"] == f"{base}/register"  # registration stays


async def test_the_sdk_client_signs_in_by_its_document_url(base: str, host: DocumentHost) -> None:
    url = publish(host, "/sdk-client.json")
    person, storage = Person("demo", "demo"), Storage()
    auth = OAuthClientProvider(
        server_url=f"{base}/mcp",
        client_metadata=OAuthClientMetadata(
            client_name="Doc Client", redirect_uris=[AnyUrl(REDIRECT)],
            grant_types=["authorization_code", "refresh_token"], response_types=["code"],
        ),
        storage=storage, redirect_handler=person.redirect, callback_handler=person.callback,
        client_metadata_url=url,
    )  # fmt: skip
    async with httpx2.AsyncClient(auth=auth) as http:
        rights = await rights_through(f"{base}/mcp", http)
    assert storage.client is not None and storage.client.client_id == url  # no registration
    assert host.hits["/sdk-client.json"] >= 1
    # the consent names the client and the host its document comes from
    assert "Doc Client (its metadata at 127.0.0.1)" in person.page
    assert rights == DEMO_RIGHTS


def refusal_page(base: str, client_id: str, **query: str) -> httpx2.Response:
    _, challenge = pkce()
    return httpx2.get(f"{base}/authorize", params=authorize_query(client_id, challenge, **query))


def test_a_redirect_uri_the_document_does_not_list_gets_a_page(
    base: str, host: DocumentHost
) -> None:
    url = publish(host, "/other-redirect.json")
    answer = refusal_page(base, url, redirect_uri="http://127.0.0.1:9/elsewhere")
    assert answer.status_code == 400 and "location" not in answer.headers
    assert "refused" in answer.text


def test_a_document_on_a_host_not_allowed_private_is_never_fetched(
    base: str, host: DocumentHost
) -> None:
    """``localhost`` resolves to loopback and is not the allowed 127.0.0.1: refused before
    any connection, the page saying why."""
    path = "/by-name.json"
    url = host.url(path, host="localhost")
    host.answers[path] = Answer(body=json.dumps({"client_id": url}).encode())
    answer = refusal_page(base, url)
    assert answer.status_code == 400 and "location" not in answer.headers
    assert "non-public address" in answer.text and "127.0.0.1" not in answer.text
    assert host.hits[path] == 0


def test_a_document_naming_another_client_id_is_refused(base: str, host: DocumentHost) -> None:
    path = "/impostor.json"
    host.answers[path] = Answer(
        body=json.dumps(
            {"client_id": "https://claude.ai/oauth/client.json", "redirect_uris": [REDIRECT]}
        ).encode()
    )
    answer = refusal_page(base, host.url(path))
    assert answer.status_code == 400 and "location" not in answer.headers
    assert "client_id is not its own URL" in answer.text


def test_with_documents_off_a_url_client_id_is_unknown(fake: FakeOdoo, host: DocumentHost) -> None:
    assert fake.url is not None
    url = publish(host, "/off.json")
    for off in serve_http(
        fake.url, "--oauth", "on", ODOO_MCP_OAUTH_SECRET=SECRET,
        ODOO_MCP_OAUTH_CLIENT_DOCUMENTS="off", ODOO_MCP_OAUTH_CLIENT_DOCUMENT_HOSTS="127.0.0.1",
        SSL_CERT_FILE=str(host.ca_file),
    ):  # fmt: skip
        assert "client_id_metadata_document_supported" not in metadata(off)
        answer = refusal_page(off, url)
        assert answer.status_code == 400 and "not found" in answer.text
    assert host.hits["/off.json"] == 0
