"""Shared pytest fixtures: the fake Odoo in process and served on a free loopback port.

``fake_odoo_version`` (module scope, "19.0" by default) picks the Odoo version; override it
per module with ``@pytest.mark.parametrize("fake_odoo_version", ["17.0"], indirect=True)``.
``fake_odoo`` is a fresh in-process ``FakeOdoo`` per test (use ``fake.app`` or
``fake_odoo.testing.in_process_client``); ``fake_odoo_server`` is one served ``FakeOdoo``
per module (``.url`` set), with faults, calls, sessions and clock cleared around each test.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from fake_odoo import FakeOdoo
from fake_odoo.testing import serve_fake_odoo
from suite_scopes import longest_first, scope_of

#: ``--req-results PATH``: the outcome of every ``@pytest.mark.req`` test, for the trace
pytest_plugins = ["odoo_mcp_conformance.unit_results"]


@pytest.fixture(scope="module")
def fake_odoo_version(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "19.0"))


@pytest.fixture
def fake_odoo(fake_odoo_version: str) -> FakeOdoo:
    return FakeOdoo(fake_odoo_version)


@pytest.fixture(scope="module")
def fake_odoo_served(fake_odoo_version: str) -> Iterator[FakeOdoo]:
    with serve_fake_odoo(fake_odoo_version) as fake:
        yield fake


def _tidy(fake: FakeOdoo, version: str) -> None:
    fake.clear_faults()
    fake.reset_calls()
    fake.expire_sessions()
    fake.set_clock(None)
    if fake.version != version:
        fake.reset(version=version)


@pytest.fixture
def fake_odoo_server(fake_odoo_served: FakeOdoo, fake_odoo_version: str) -> Iterator[FakeOdoo]:
    _tidy(fake_odoo_served, fake_odoo_version)
    yield fake_odoo_served
    _tidy(fake_odoo_served, fake_odoo_version)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With pytest-xdist (the README's command runs ``-n auto``): each file is a unit of work,
    and the files using the kit runs of tests/conformance/conftest.py are one unit
    (suite_scopes.py). xdist's ``loadgroup`` cannot do it with this pytest: it renames
    ``item._nodeid``, which pytest 9 no longer reads."""
    from xdist.scheduler import LoadScopeScheduling

    class SharedKitRunsTogether(LoadScopeScheduling):  # type: ignore[misc]
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            if not self.ordered:  # the queue is built: the longest units go out first
                longest_first(self.workqueue)
                self.ordered = True
            super()._assign_work_unit(node)

    return SharedKitRunsTogether(config, log)
