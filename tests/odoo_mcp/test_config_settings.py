"""Issue 15: each setting is declared once (``config.SETTINGS``), and every reader agrees.

Loading, the CLI flags, the generated configuration reference and the kit's knowledge of the
spec's names are all checked against the one declaration per field.
"""

from __future__ import annotations

import importlib.util
import json
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any, get_args, get_origin

import pytest
from pydantic import BaseModel, SecretStr

from odoo_mcp import cli
from odoo_mcp.config import (
    CONFIG_PATH_VAR,
    ENV_VARS,
    SETTINGS,
    OdooMcpConfig,
    _declarations,
    load_config,
    setting_descriptions,
)
from odoo_mcp.setting import Setting
from odoo_mcp_conformance.settings import SPEC_SETTINGS, Kind
from odoo_mcp_conformance.steps.common import setting_value

ROOT = Path(__file__).resolve().parents[2]
#: (an OAuth secret too: the ``oauth`` sample turns it on, which needs one)
BASE = {"ODOO_URL": "http://odoo.test:8069", "ODOO_DB": "demo", "ODOO_API_KEY": "k-123",
        "ODOO_MCP_OAUTH_SECRET": "s" * 32}  # fmt: skip
FIELDS = OdooMcpConfig.model_fields
#: REQ-11-25 rows the server does not offer, and why (every other row is a field).
NOT_BUILT = {"deep_search_max_depth": "deep_search is SPEC-08, not built"}
#: the kit's settings that are not fields of this server: the file's own variable, and an
#: HTTP target's listen address (our ``host``, given by its flag in reference-http.toml)
KIT_ONLY = {"config_file", "http_host"}

#: a valid value, different from the default, as text (what a variable or a flag carries)
SAMPLES = {
    "odoo_url": "https://other.test", "odoo_db": "db2", "odoo_username": "someone",
    "odoo_password": "pw", "odoo_api_key": "k2", "odoo_protocol": "JSONRPC",
    "transport": "http", "mode": "Full", "log_level": "DEBUG", "http_auth": "On",
    "public_url": "https://mcp.example.com/mcp", "mcp_path": "/other",
    "search_max_limit": "900", "field_blocklist": "ab, cd",
    "state_url": "redis://127.0.0.1:6379/0", "method_blocklist": "copy, action_done",
    "enabled_toolsets": "core, contracts", "disabled_toolsets": "contracts",
    "trusted_proxies": "10.0.0.5, 10.1.0.0/16", "oauth": "On", "oauth_client_documents": "Off",
    "oauth_client_document_hosts": "intranet.example, docs.test",
}  # fmt: skip


def _kind(field: str) -> Kind:
    """The kit's kind of a server field, from its type (what a variable's text becomes)."""
    annotation = FIELDS[field].annotation
    args = [arg for arg in get_args(annotation) if arg is not type(None)]
    base = args[0] if get_origin(annotation) is not tuple and len(args) == 1 else annotation
    if get_origin(base) is tuple:
        return "int list" if get_args(base)[0] is int else "list"
    if base is bool:
        return "bool"
    if base is int:
        return "int"
    if base is float:
        return "number"
    return "text"


def _sample(field: str) -> str:
    if field in SAMPLES:
        return SAMPLES[field]
    kind = _kind(field)
    if kind == "bool":
        return "no" if FIELDS[field].default else "YES"
    return {"int list": "1,2,3", "list": "a.b, c.d", "int": "7", "number": "7"}.get(kind, "x")


def _channels() -> list[tuple[str, str, str]]:
    """Every way to reach every field: variables, file keys (flat and aliases), flags,
    ``--set``."""
    cases: list[tuple[str, str, str]] = []
    for field, setting in SETTINGS.items():
        cases += [(field, "env", name) for name in setting.env]
        cases += [(field, "file", key) for key in (field, *setting.aliases)]
        cases += [(field, "flag", setting.flag)] if setting.flag else []
        cases.append((field, "set", field))
    return cases


def _load(channel: str, name: str, raw: str, field: str, tmp_path: Path) -> OdooMcpConfig:
    env = {**BASE, "ODOO_USERNAME": "admin"}
    if channel == "env":
        return load_config(environ={**env, name: raw})
    if channel == "file":  # the environment would win over the file: leave this one out
        env = {key: value for key, value in env.items() if key not in SETTINGS[field].env}
        group, dot, key = name.partition(".")
        path = tmp_path / "config.json"
        path.write_text(json.dumps({group: {key: raw}} if dot else {name: raw}), "utf-8")
        return load_config(environ=env, config_path=path)
    argv = ["check", "--set", f"{field}={raw}"]
    if channel == "flag":
        switch = FIELDS[field].annotation is bool
        argv = ["check", name] if switch else ["check", name, raw]
    return cli.config_from_args(cli._parser().parse_args(argv), env)


@pytest.mark.req("REQ-11-25", "REQ-11-26", "REQ-11-27", "REQ-01-29")
@pytest.mark.parametrize(("field", "channel", "name"), _channels())
def test_each_declared_source_resolves_to_its_field(
    field: str, channel: str, name: str, tmp_path: Path
) -> None:
    raw = "true" if channel == "flag" and FIELDS[field].annotation is bool else _sample(field)
    got = getattr(_load(channel, name, raw, field, tmp_path), field)
    expected = getattr(load_config({field: raw}, environ={**BASE, "ODOO_USERNAME": "admin"}), field)
    assert got == expected
    assert got != FIELDS[field].default


def test_every_field_is_declared_once_and_no_name_is_shared() -> None:
    assert list(SETTINGS) == list(FIELDS)
    assert dict(ENV_VARS) == {name: setting.env for name, setting in SETTINGS.items()}
    variables = [name for setting in SETTINGS.values() for name in setting.env]
    aliases = [alias for setting in SETTINGS.values() for alias in setting.aliases]
    flags = [setting.flag for setting in SETTINGS.values() if setting.flag]
    assert len(variables) == len(set(variables)) and CONFIG_PATH_VAR not in variables
    assert len(aliases) == len(set(aliases)) and not set(aliases) & set(FIELDS)
    assert len(flags) == len(set(flags)) and "--config" not in flags
    assert all(variable.startswith("ODOO_") for variable in variables)


def test_secrets_have_no_flag() -> None:
    """A flag would show the secret in the process list: environment or file only."""
    secrets = {name for name, info in FIELDS.items() if SecretStr in get_args(info.annotation)}
    assert secrets == {"odoo_password", "odoo_api_key"}
    assert all(SETTINGS[name].flag is None for name in secrets)


def test_a_field_without_its_declaration_is_refused() -> None:
    class Undeclared(BaseModel):
        declared: Annotated[int, Setting("ODOO_MCP_X")] = 1
        forgotten: int = 2

    with pytest.raises(TypeError, match=r"Undeclared|forgotten"):
        _declarations(Undeclared.model_fields)
    assert _declarations({"declared": Undeclared.model_fields["declared"]}) == {
        "declared": Setting("ODOO_MCP_X")
    }


@pytest.mark.req("REQ-11-25")
def test_the_kits_spec_table_is_the_servers_view() -> None:
    """The kit keeps the spec's names (it judges other servers and never imports ours); our
    declarations must say the same thing about every setting both know."""
    shared = set(SPEC_SETTINGS) & set(FIELDS)
    for name in shared:
        fact, setting = SPEC_SETTINGS[name], SETTINGS[name]
        assert fact.kind == _kind(name), name
        if fact.env is not None:
            assert setting.env[0] == fact.env, name
        else:  # ours: the spec names none, and ours must not be another spec name
            spec_names = {f.env for f in SPEC_SETTINGS.values()}
            assert not set(setting.env) & spec_names, name
    missing = set(SPEC_SETTINGS) - set(FIELDS)
    assert missing == set(NOT_BUILT) | KIT_ONLY
    assert SPEC_SETTINGS["config_file"].env == CONFIG_PATH_VAR
    # our own settings outside the spec's table: none may hide a spec name
    for name in set(FIELDS) - set(SPEC_SETTINGS):
        assert SETTINGS[name].env == () or SETTINGS[name].env[0].startswith("ODOO_MCP_")


@pytest.mark.req("REQ-11-25", "REQ-11-27")
@pytest.mark.parametrize("target", ["reference.toml", "reference-http.toml"])
def test_our_targets_map_settings_to_our_declared_names(target: str) -> None:
    data = tomllib.loads((ROOT / "conformance" / "targets" / target).read_text("utf-8"))
    by_flag = {setting.flag: name for name, setting in SETTINGS.items() if setting.flag}
    for name, mapping in data.get("settings", {}).items():
        if "env" in mapping:
            declared = CONFIG_PATH_VAR if name == "config_file" else SETTINGS[name].env[0]
            assert mapping["env"] == declared, name
        else:
            assert mapping["flag"] in by_flag, name
    for name, flag in data.get("command_line", {}).items():
        assert SETTINGS[name].flag == flag


@pytest.mark.parametrize(
    ("name", "raw", "value"),
    [
        ("odoo_company_ids", "1, 2", [1, 2]),
        ("model_blocklist", "a.b, ,c.d", ["a.b", "c.d"]),
        ("stateless_http", "Yes", True),
        ("odoo_timeout", "3", 3),
        ("reconnect_backoff_base", "0.1", "0.1"),
        ("mode", "full", "full"),
    ],
)
def test_the_kit_reads_a_feature_value_by_its_kind(name: str, raw: str, value: object) -> None:
    assert setting_value(name, raw) == value


def test_a_bad_number_in_a_feature_file_fails_in_the_kit() -> None:
    with pytest.raises(ValueError):
        setting_value("subscription_poll_interval", "soon")


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "_reference_hooks", ROOT / "docs/_hooks/reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.req("REQ-11-25")
def test_the_reference_page_lists_each_setting_once_with_its_sources() -> None:
    page: str = _hooks().configuration_page()
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert len(rows) == len(SETTINGS)
    descriptions = setting_descriptions()
    for (name, setting), row in zip(SETTINGS.items(), rows, strict=True):
        assert row.startswith(f"| `{name}`"), row
        assert all(f"`{variable}`" in row for variable in setting.env), row
        assert all(f"`{alias}`" in row for alias in setting.aliases), row
        assert setting.flag is None or f"`{setting.flag}`" in row, row
        assert descriptions[name].split()[0] in row
    assert "deep_search" not in page


def test_help_describes_every_flag_and_start_up_does_not_read_the_source(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["serve", "--help"], environ={})
    assert done.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())
    for setting in SETTINGS.values():
        assert setting.flag is None or (setting.flag in shown and setting.env[0] in shown)

    def forbidden() -> Any:
        raise AssertionError("the source is parsed without --help")

    monkeypatch.setattr(cli, "setting_descriptions", forbidden)
    assert cli._parser().parse_args(["serve", "--stateless"]).stateless_http == "true"
