"""Target files: launch rendering, the settings mapping, and N/A for what cannot be mapped."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from odoo_mcp_conformance.paths import repo_root
from odoo_mcp_conformance.target import NotApplicable, OdooCoordinates, load_target

TARGETS = repo_root() / "conformance" / "targets"
ODOO = OdooCoordinates(
    url="http://127.0.0.1:8069", db="demo", login="admin", password="admin", api_key="k3y"
)


def test_reference_target_renders_its_command_and_environment() -> None:
    launch = load_target(TARGETS / "reference.toml").render(
        ODOO, {"mode": "readonly", "field_blocklist": ["email", "phone"]}
    )
    env = dict(launch.env)
    assert launch.command == (sys.executable, "-m", "odoo_mcp", "serve")
    assert env["ODOO_URL"] == "http://127.0.0.1:8069" and env["ODOO_API_KEY"] == "k3y"
    assert env["ODOO_MCP_MODE"] == "readonly"
    assert env["ODOO_MCP_FIELD_BLOCKLIST"] == "email,phone"


def test_example_target_maps_values_and_list_syntax() -> None:
    target = load_target(TARGETS / "example-other.toml")
    launch = target.render(ODOO, {"mode": "full", "model_blocklist": ["res.partner", "x.y"]})
    env = dict(launch.env)
    assert env["OTHER_ACCESS"] == "rw"
    assert json.loads(env["OTHER_DENY_MODELS"]) == ["res.partner", "x.y"]
    assert env["OTHER_ODOO_TOKEN"] == "k3y"
    assert Path(launch.command[1]).resolve() == (
        repo_root() / "conformance" / "examples" / "other_env_server.py"
    )


def test_unmapped_spec_setting_goes_under_the_spec_name() -> None:
    """REQ-11-25 names every setting: leaving one out of the target cannot make it N/A."""
    target = load_target(TARGETS / "example-other.toml")
    env = dict(target.render(ODOO, {"rate_limit_rpm": 5, "rate_limit_enabled": True}).env)
    assert env["ODOO_MCP_RATE_LIMIT_RPM"] == "5"
    assert env["ODOO_MCP_RATE_LIMIT"] == "true"
    with pytest.raises(NotApplicable, match="subscription_poll_interval"):
        target.render(ODOO, {"subscription_poll_interval": 1})
    with pytest.raises(NotApplicable, match="contracts"):
        target.check_capability("contracts")


def test_raw_environment_bypasses_the_mapping() -> None:
    target = load_target(TARGETS / "example-other.toml")
    launch = target.render(ODOO, {"mode": "full"}, raw_env={"ODOO_MCP_MODE": "full"})
    env = dict(launch.env)
    assert env["OTHER_ACCESS"] == "rw"
    assert env["ODOO_MCP_MODE"] == "full"


def test_value_outside_the_value_map_is_not_applicable(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        '[target]\nname = "t"\ncommand = ["x"]\n'
        '[settings]\nmode = { env = "M", values = { readonly = "1" } }\n'
    )
    with pytest.raises(NotApplicable, match="mode='full'"):
        load_target(path).render(ODOO, {"mode": "full"})


def test_extends_merges_over_the_parent(tmp_path: Path) -> None:
    child = tmp_path / "child.toml"
    child.write_text(
        f'extends = "{(TARGETS / "reference.toml").as_posix()}"\n'
        '[target]\nname = "child"\ncommand = ["{python}", "{target_dir}/broken.py"]\n'
    )
    target = load_target(child)
    launch = target.render(ODOO, {"mode": "full"})
    assert target.name == "child"
    assert launch.command == (sys.executable, f"{tmp_path}/broken.py")
    assert dict(launch.env)["ODOO_MCP_MODE"] == "full"  # settings inherited


def test_unknown_placeholder_is_a_target_error(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('[target]\nname = "t"\ncommand = ["{nope}"]\n')
    with pytest.raises(ValueError, match="unknown placeholder 'nope'"):
        load_target(path).render(ODOO, {})


def test_example_server_translates_the_other_names() -> None:
    sys.path.insert(0, str(repo_root() / "conformance" / "examples"))
    try:
        from other_env_server import translate  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    out = translate(
        {
            "OTHER_ODOO_HOST": "http://h",
            "OTHER_ACCESS": "ro",
            "OTHER_HIDDEN_FIELDS": '["email"]',
            "ODOO_MCP_MODE": "full",  # the reference's own names must not leak through
            "PATH": "/bin",
        }
    )
    assert out["ODOO_URL"] == "http://h" and out["ODOO_MCP_MODE"] == "readonly"
    assert out["ODOO_MCP_FIELD_BLOCKLIST"] == "email" and out["PATH"] == "/bin"


def test_a_setting_may_be_a_command_line_flag(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        '[target]\nname = "t"\ncommand = ["srv", "serve"]\n'
        '[settings]\nmode = { flag = "--access" }\n'
        'model_blocklist = { flag = "--deny", list = "json" }\n'
    )
    launch = load_target(path).render(ODOO, {"mode": "full", "model_blocklist": ["a.b"]})
    assert launch.command == ("srv", "serve", "--access", "full", "--deny", '["a.b"]')
    assert "ODOO_MCP_MODE" not in dict(launch.env)


def test_a_setting_maps_to_one_channel(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('[target]\nname = "t"\n[settings]\nmode = { env = "M", flag = "--m" }\n')
    with pytest.raises(ValueError, match="exactly one"):
        load_target(path)
