"""Constants and helpers of the wire tests (admin credentials of the demo dataset)."""

from __future__ import annotations

import xmlrpc.client
from collections.abc import Callable

ADMIN_UID = 2
ADMIN_LOGIN = "admin"
ADMIN_PASSWORD = "admin"
TEST_KEY = "wire-test-api-key-0123456789abcdef"

ProxyFactory = Callable[[str], xmlrpc.client.ServerProxy]


def execute_kw(
    proxy: ProxyFactory, path: str, model: str, method: str, *args: object, **kwargs: object
) -> object:
    """One admin ``execute_kw`` call on ``path``."""
    server = proxy(path)
    return server.execute_kw("demo", ADMIN_UID, ADMIN_PASSWORD, model, method, list(args), kwargs)
