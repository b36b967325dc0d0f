"""Target files: launch rendering, the settings mapping, and N/A for what cannot be mapped."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from odoo_mcp_conformance.cli import main
from odoo_mcp_conformance.needed_settings import unmapped_claimed_settings
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
    # a setting of no spec variable that it does not map (the stdio example serves no HTTP)
    with pytest.raises(NotApplicable, match="public_url"):
        target.render(ODOO, {"public_url": "https://mcp.example.com"})
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


def _claiming_subscriptions(tmp_path: Path, mapped: bool) -> Path:
    """A target over the reference claiming subscriptions, with or without the poll interval."""
    text = (TARGETS / "reference.toml").read_text()
    if not mapped:
        text = "\n".join(
            line for line in text.splitlines() if not line.startswith("subscription_poll_interval")
        )
    path = tmp_path / "reference.toml"
    path.write_text(text.replace('"{target_dir}', f'"{TARGETS}'))
    return path


def test_a_claimed_capability_needs_every_setting_its_scenarios_name(tmp_path: Path) -> None:
    """Issue 38: claiming subscriptions without mapping subscription_poll_interval (no spec
    variable) would have made all its scenarios not applicable; it is a target error."""
    features = repo_root() / "features"
    unmapped = unmapped_claimed_settings(
        load_target(_claiming_subscriptions(tmp_path, mapped=False)), features
    )
    assert unmapped == [
        "target reference claims 'subscriptions' but maps no subscription_poll_interval (its "
        "[settings] table): the scenarios of a claimed capability are judged, never left not "
        "applicable"
    ]
    mapped = load_target(_claiming_subscriptions(tmp_path, mapped=True))
    assert unmapped_claimed_settings(mapped, features) == []


@pytest.mark.parametrize("name", ["reference.toml", "reference-http.toml", "example-other.toml"])
def test_the_shipped_targets_map_what_their_claims_need(name: str) -> None:
    target = load_target(TARGETS / name)
    assert unmapped_claimed_settings(target, repo_root() / "features") == []


def test_run_stops_before_any_scenario_on_such_a_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The run says it in one line and exits 2 (a broken set-up, not a verdict)."""
    target = _claiming_subscriptions(tmp_path, mapped=False)
    code = main(["run", "--target", str(target), "--report-dir", str(tmp_path / "report")])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: target reference claims 'subscriptions' but maps no ")
    assert not (tmp_path / "report" / "report.json").exists()
