"""Issue 19: the fleet harness's HAProxy configuration, checked as text (HAProxy not run).

Stateful fleets stick on ``Mcp-Session-Id`` (learned from the response, matched on the
request); stateless ones have no stickiness; both health-check ``GET /health``, redispatch and
keep SSE streams open. docs/fleet.md shows the same directives.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _fleet_lb() -> ModuleType:
    # bench/ is scripts, not a package: load the generator from its file
    spec = importlib.util.spec_from_file_location("fleet_lb", ROOT / "bench" / "fleet_lb.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REPLICAS = ["127.0.0.1:9001", "127.0.0.1:9002"]


def _directives(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_stateful_sticks_on_the_session_header() -> None:
    lines = _directives(_fleet_lb().haproxy_config(9000, REPLICAS, sticky=True))
    assert "stick-table type string len 64 size 100k expire 30m" in lines
    assert "stick store-response res.hdr(mcp-session-id)" in lines
    assert "stick match req.hdr(mcp-session-id)" in lines


def test_stateless_has_no_stickiness() -> None:
    lines = _directives(_fleet_lb().haproxy_config(9000, REPLICAS, sticky=False))
    assert not [line for line in lines if line.startswith("stick")]
    assert "balance roundrobin" in lines


@pytest.mark.parametrize("sticky", [True, False])
def test_both_modes_check_health_redispatch_and_keep_streams(sticky: bool) -> None:
    lines = _directives(_fleet_lb().haproxy_config(9000, REPLICAS, sticky=sticky))
    assert "option httpchk GET /health" in lines
    assert "option redispatch" in lines
    assert "timeout server 1h" in lines and "timeout tunnel 1h" in lines
    assert "bind 127.0.0.1:9000" in lines
    servers = [line for line in lines if line.startswith("server ")]
    assert [s.split()[2] for s in servers] == REPLICAS
    assert all(" check " in s for s in servers)


def test_a_fleet_needs_a_replica() -> None:
    with pytest.raises(ValueError):
        _fleet_lb().haproxy_config(9000, [], sticky=True)


def test_the_deployment_page_shows_the_generated_config() -> None:
    # docs/fleet.md's block is the generator's output for two example replicas: no drift
    page = (ROOT / "docs" / "fleet.md").read_text(encoding="utf-8")
    expected = _fleet_lb().haproxy_config(
        8080,
        ["10.0.0.11:8080", "10.0.0.12:8080"],
        sticky=True,
        host="0.0.0.0",
        check_interval_ms=2000,
    )
    assert f"```text\n{expected}```" in page
