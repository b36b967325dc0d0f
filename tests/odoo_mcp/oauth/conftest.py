"""OAuth sign-in tests: a served fake Odoo, and fresh server instances per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from oauth_servers import Instances, Served

from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import serve_fake_odoo


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOdoo]:
    with serve_fake_odoo("19.0") as served:
        yield served


@pytest.fixture
def instances(fake: FakeOdoo) -> Iterator[Instances]:
    made = Instances(fake)
    yield made
    for stop in reversed(made.stops):
        stop()


@pytest.fixture
def served(instances: Instances) -> Served:
    """A fresh instance with its own memory state (lockout, store, clock)."""
    return instances.start()
