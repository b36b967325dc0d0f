"""Fixtures of the core tool tests: one fake Odoo per version, tool contexts for two users.

The fakes are built once per module (a build is the expensive part) and their faults cleared
after each test; ``ctx`` runs as admin, ``demo`` as the limited demo user.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from read_tools_env import VERSIONS, tool_context

from fake_odoo.handle import FakeOdoo
from odoo_mcp.context import ServerContext


@pytest.fixture(scope="module")
def fakes() -> dict[str, FakeOdoo]:
    return {version: FakeOdoo(version) for version in VERSIONS}


@pytest.fixture(params=VERSIONS)
def fake(fakes: dict[str, FakeOdoo], request: pytest.FixtureRequest) -> Iterator[FakeOdoo]:
    handle = fakes[request.param]
    yield handle
    handle.clear_faults()


@pytest.fixture
async def ctx(fake: FakeOdoo) -> AsyncIterator[ServerContext]:
    async with tool_context(fake) as context:
        yield context


@pytest.fixture
async def demo(fake: FakeOdoo) -> AsyncIterator[ServerContext]:
    async with tool_context(fake, login="demo") as context:
        yield context
