"""A ServerContext on the in-process fake Odoo, for the read-side core tool tests.

The protocol is the version's default (16 xmlrpc, 17 jsonrpc, 19 json2, decision 6). The call
log is cleared once the connection is up, so ``fake.call_counts()`` counts the tool's calls.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fake_odoo.demo import ADMIN_API_KEY, DEMO_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport
from odoo_mcp.connection import ConnectionManager, ConnectionSettings
from odoo_mcp.context import ServerContext
from odoo_mcp.formatting import FormatOptions
from odoo_mcp.registry import ModelRegistry
from odoo_mcp.safety import SafetyPolicy

VERSIONS = ("16.0", "17.0", "19.0")
DEFAULT_PROTOCOL = {"16.0": "xmlrpc", "17.0": "jsonrpc", "19.0": "json2"}


async def _no_sleep(delay: float) -> None:
    """No backoff in these tests."""


@asynccontextmanager
async def tool_context(
    fake: FakeOdoo, *, login: str = "admin", policy: SafetyPolicy | None = None
) -> AsyncIterator[ServerContext]:
    # JSON-2 (19's default) needs an API key; the older protocols log in with the password.
    key = {"admin": ADMIN_API_KEY, "demo": DEMO_API_KEY}[login]
    values = {"url": IN_PROCESS_URL, "database": "demo", "username": login, "password": login}
    settings = ConnectionSettings.model_validate({**values, "api_key": key})
    manager = ConnectionManager(
        settings, transport=FakeOdooTransport(app=fake.app), sleep=_no_sleep
    )
    async with manager:
        assert manager.protocol == DEFAULT_PROTOCOL[fake.version]
        fake.reset_calls()
        yield ServerContext(
            odoo=manager,
            registry=ModelRegistry(manager),
            policy=policy or SafetyPolicy(),
            formatting=FormatOptions(),
        )
