"""Decision 37: the ``state_url`` setting is shown without its password."""

from __future__ import annotations

import pytest

from mcp_servers import fake_config
from odoo_mcp.state import redacted


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://u:pw@cache:6379/0", "redis://u:***@cache:6379/0"),
        ("rediss://:pw@cache/1", "rediss://:***@cache/1"),
        ("redis://cache:6379/0", "redis://cache:6379/0"),
        ("unix:///run/redis.sock", "unix:///run/redis.sock"),
    ],
)
def test_a_state_url_is_shown_without_its_password(url: str, shown: str) -> None:
    assert redacted(url) == shown


def test_the_effective_configuration_hides_the_state_password() -> None:
    described = fake_config(state_url="redis://u:pw@cache:6379/0").describe()
    assert described["state_url"] == "redis://u:***@cache:6379/0"
