"""A fake served without its control API (``FakeOdoo(control=False)``, ``serve --no-control``):
``/__fake__/`` answers what any unknown URL answers, as on a real Odoo; the RPC routes work."""

from __future__ import annotations

import xmlrpc.client
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from fake_odoo import FakeOdoo, cli
from fake_odoo.server import BackgroundServer

pytestmark = pytest.mark.wire


@pytest.fixture(scope="module", params=["19.0", "17.0"])
def served(request: pytest.FixtureRequest) -> Iterator[FakeOdoo]:
    fake = FakeOdoo(request.param, control=False)
    with BackgroundServer(fake):
        yield fake


def test_control_routes_are_unknown_urls(served: FakeOdoo) -> None:
    """Every control route answers exactly what an unknown path answers: the 404 page."""
    with httpx2.Client(base_url=str(served.url)) as http:
        unknown = http.get("/no/such/page")
        assert unknown.status_code == 404
        for method, path in [
            ("GET", "/__fake__/info"),
            ("GET", "/__fake__/calls"),
            ("POST", "/__fake__/reset"),
            ("POST", "/__fake__/call"),
            ("DELETE", "/__fake__/faults"),
        ]:
            response = http.request(method, path, json={} if method == "POST" else None)
            assert response.status_code == 404, path
            assert response.headers["content-type"] == unknown.headers["content-type"], path
            assert "credentials" not in response.text
        # the HTML page is the same but for the per-request CSRF token of Odoo 17's page
        info = http.get("/__fake__/info")
        assert len(info.text) == len(unknown.text)


def test_xmlrpc_still_served(served: FakeOdoo) -> None:
    admin = served.credentials()["admin"]
    common = xmlrpc.client.ServerProxy(f"{served.url}/xmlrpc/2/common")
    objects = xmlrpc.client.ServerProxy(f"{served.url}/xmlrpc/2/object")
    try:
        version: Any = common.version()
        assert version["server_version"] == served.version
        uid = common.authenticate(served.db.name, "admin", admin["password"], {})
        assert uid == admin["uid"]
        count = objects.execute_kw(
            served.db.name, uid, admin["password"], "res.partner", "search_count", [[]], {}
        )
        assert isinstance(count, int)
        assert count > 0
    finally:
        common("close")()
        objects("close")()


def test_the_control_api_is_still_served_by_default() -> None:
    fake = FakeOdoo("19.0")
    assert fake.control
    with BackgroundServer(fake), httpx2.Client(base_url=str(fake.url)) as http:
        assert http.get("/__fake__/info").json()["database"] == fake.db.name


class _Stopped:
    def run(self, sockets: object) -> None:
        """Serve nothing: the test only looks at the fake ``main`` built."""


@pytest.mark.parametrize(("flags", "control"), [(["--no-control"], False), ([], True)])
def test_cli_flag(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    control: bool,
) -> None:
    """``fake-odoo serve --no-control`` builds the fake without its control API."""
    built: list[FakeOdoo] = []

    def make_server(fake: FakeOdoo, sock: object, log_level: str = "warning") -> _Stopped:
        fake.url = "http://127.0.0.1:0"
        built.append(fake)
        return _Stopped()

    monkeypatch.setattr(cli, "make_server", make_server)
    assert cli.main(["serve", "--port", "0", *flags]) == 0
    assert [fake.control for fake in built] == [control]
    assert ("control API: none" in capsys.readouterr().out) is not control


def test_help_says_what_no_control_is_for(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    entry = text.split("--no-control ", 2)[-1].split(" --", 1)[0]
    assert "/__fake__/" in entry
    assert "real Odoo" in entry
