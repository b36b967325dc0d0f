"""Fixtures of the wire tests: clients that know nothing of the fake (stdlib, httpx2)."""

from __future__ import annotations

import xmlrpc.client
from collections.abc import Iterator

import httpx2
import pytest
from wire_helpers import ADMIN_UID, TEST_KEY, ProxyFactory

from fake_odoo import FakeOdoo


@pytest.fixture
def proxy(fake_odoo_server: FakeOdoo) -> Iterator[ProxyFactory]:
    """``proxy("/xmlrpc/2/object")``: stdlib ServerProxy objects, all closed afterwards."""
    opened: list[xmlrpc.client.ServerProxy] = []

    def make(path: str) -> xmlrpc.client.ServerProxy:
        server = xmlrpc.client.ServerProxy(f"{fake_odoo_server.url}{path}")
        opened.append(server)
        return server

    yield make
    for server in opened:
        server("close")()


@pytest.fixture
def http(fake_odoo_server: FakeOdoo) -> Iterator[httpx2.Client]:
    with httpx2.Client(base_url=str(fake_odoo_server.url)) as client:
        yield client


@pytest.fixture
def api_key(fake_odoo_server: FakeOdoo) -> str:
    """A bearer key of the admin, minted from outside (the dataset's own keys are not needed)."""
    fake_odoo_server.call(
        "res.users.apikeys", "create", {"name": "wire tests", "user_id": ADMIN_UID, "key": TEST_KEY}
    )
    return TEST_KEY
