"""Fixtures of the non-interference test: the twin servers, built once per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from noninterference.harness import TwinServers, twin_servers


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[tuple[str, str], TwinServers]]:
    with twin_servers() as built:
        yield built
