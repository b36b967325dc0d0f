"""SPEC-11 §9-10: configuration sources, precedence, validation and redaction."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odoo_mcp.config import ConfigError, OdooMcpConfig, load_config
from odoo_mcp.safety import Mode

BASE = {"ODOO_URL": "http://odoo.test:8069", "ODOO_DB": "demo", "ODOO_API_KEY": "k-123"}


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def problems_of(cli: dict[str, object] | None = None, **kwargs: object) -> tuple[str, ...]:
    with pytest.raises(ConfigError) as caught:
        load_config(cli, **kwargs)  # type: ignore[arg-type]
    return caught.value.problems


def test_defaults_follow_the_spec() -> None:
    config = load_config(environ=BASE)
    assert config.mode is Mode.READONLY
    assert (config.transport, config.host, config.port, config.mcp_path) == (
        "stdio", "127.0.0.1", 8080, "/mcp"
    )  # fmt: skip
    assert (config.rate_limit_enabled, config.rate_limit_rpm, config.rate_limit_rph) == (
        False, 60, 1000
    )  # fmt: skip
    assert (config.audit_enabled, config.audit_log_reads, config.audit_log_writes) == (
        False, False, True
    )  # fmt: skip
    assert (config.search_default_limit, config.search_max_limit) == (80, 500)
    assert config.model_allowlist == ()


def test_flags_beat_env_which_beats_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, {"mode": "full", "port": 9000, "host": "0.0.0.0", "odoo_db": "f"})
    env = {**BASE, "ODOO_MCP_MODE": "restricted", "ODOO_MCP_PORT": "9100"}
    config = load_config({"mode": "readonly"}, environ=env, config_path=path)
    assert config.mode is Mode.READONLY  # flag over env over file
    assert config.port == 9100  # env over file
    assert config.host == "0.0.0.0"  # file over default
    assert config.odoo_db == "demo"  # env over file


def test_the_file_comes_from_odoo_mcp_config_unless_a_flag_names_one(tmp_path: Path) -> None:
    first = write(tmp_path, {"port": 1111})
    second = tmp_path / "second.json"
    second.write_text('{"port": 2222}', encoding="utf-8")
    env = {**BASE, "ODOO_MCP_CONFIG": str(first)}
    assert load_config(environ=env).port == 1111
    assert load_config(environ=env, config_path=second).port == 2222


def test_none_flags_are_not_given_flags() -> None:
    assert load_config({"port": None}, environ={**BASE, "ODOO_MCP_PORT": "7"}).port == 7


def test_nested_objects_are_aliases_of_the_flat_keys(tmp_path: Path) -> None:
    path = write(tmp_path, {
        "rate_limit": {"enabled": True, "calls_per_minute": 30, "calls_per_hour": 500,
                       "burst": 5, "read_calls_per_minute": 20, "write_calls_per_minute": 3},
        "audit": {"enabled": True, "log_file": "/tmp/a.jsonl", "log_reads": True,
                  "log_writes": False, "log_deletes": False},
    })  # fmt: skip
    config = load_config(environ=BASE, config_path=path)
    limits = config.rate_limits()
    assert (limits.enabled, limits.calls_per_minute, limits.calls_per_hour, limits.burst) == (
        True, 30, 500, 5
    )  # fmt: skip
    assert (limits.read_calls_per_minute, limits.write_calls_per_minute) == (20, 3)
    audit = config.audit_settings()
    assert (audit.enabled, str(audit.log_file), audit.log_reads, audit.log_writes) == (
        True, "/tmp/a.jsonl", True, False
    )  # fmt: skip


def test_flat_and_nested_keys_that_disagree_are_a_problem(tmp_path: Path) -> None:
    path = write(tmp_path, {"rate_limit_rpm": 10, "rate_limit": {"calls_per_minute": 20}})
    assert any("give different values" in p for p in problems_of(environ=BASE, config_path=path))
    same = write(tmp_path, {"rate_limit_rpm": 10, "rate_limit": {"calls_per_minute": 10}})
    assert load_config(environ=BASE, config_path=same).rate_limit_rpm == 10


def test_company_ids_read_both_variable_names() -> None:
    assert load_config(environ={**BASE, "ODOO_MCP_COMPANY_IDS": "1,2,3"}).odoo_company_ids == (
        1, 2, 3
    )  # fmt: skip
    both = {**BASE, "ODOO_COMPANY_IDS": "4", "ODOO_MCP_COMPANY_IDS": "1,2"}
    assert load_config(environ=both).odoo_company_ids == (4,)


def test_the_current_company_leads_allowed_company_ids() -> None:
    env = {**BASE, "ODOO_COMPANY_IDS": "1,2,3", "ODOO_COMPANY_ID": "2"}
    settings_ = load_config(environ=env).connection_settings()
    assert settings_.company_ids == (2, 1, 3)
    assert settings_.base_context()["allowed_company_ids"] == [2, 1, 3]


def test_list_variables_are_comma_separated() -> None:
    env = {**BASE, "ODOO_MCP_MODEL_ALLOWLIST": "res.partner, sale.order,,product.product"}
    assert load_config(environ=env).model_allowlist == ("res.partner", "sale.order",
                                                        "product.product")  # fmt: skip


@pytest.mark.parametrize(("text", "value"), [
    ("true", True), ("TRUE", True), ("1", True), ("Yes", True),
    ("false", False), ("0", False), ("NO", False),
])  # fmt: skip
def test_boolean_variables_accept_the_spec_words(text: str, value: bool) -> None:
    assert load_config(environ={**BASE, "ODOO_MCP_STRIP_HTML": text}).strip_html is value


@pytest.mark.parametrize("text", ["on", "y", "2", "maybe"])
def test_other_boolean_words_are_refused(text: str) -> None:
    [problem] = problems_of(environ={**BASE, "ODOO_MCP_AUDIT": text})
    assert problem.startswith("audit_enabled (ODOO_MCP_AUDIT): expected one of true/1/yes")


def test_variable_names_are_case_insensitive_and_empty_means_unset() -> None:
    env = {**BASE, "odoo_mcp_mode": "full", "ODOO_MCP_PORT": " "}
    config = load_config(environ=env)
    assert (config.mode, config.port) == (Mode.FULL, 8080)


def test_every_problem_is_reported_together(tmp_path: Path) -> None:
    path = write(tmp_path, {"mode": "yolo", "prot": 1})
    env = {
        "ODOO_URL": "ftp://odoo.test", "ODOO_MCP_PORT": "70000",
        "ODOO_MCP_MODEL_ALLOWLIST": "res.partner", "ODOO_MCP_MODEL_BLOCKLIST": "ir.cron",
        "ODOO_MCP_WRITE_ALLOWLIST": "sale.order",
        "ODOO_MCP_RATE_LIMIT": "true", "ODOO_MCP_RATE_LIMIT_RPM": "0",
    }  # fmt: skip
    problems = problems_of(environ=env, config_path=path)
    expected = [
        "unknown key 'prot' (did you mean 'port'?)",  # unknown file key
        "odoo_db is required",  # (2)
        "port (ODOO_MCP_PORT): Input should be less than or equal to 65535",  # (7)
        "mode (ODOO_MCP_MODE): Input should be 'readonly', 'restricted' or 'full'",  # (4)
        "no credentials",  # (3)
        "odoo_url (ODOO_URL): ODOO_URL must start with http:// or https://",  # (1)
        "cannot both be set",  # (5)
        "names models missing from model_allowlist: sale.order",  # (6)
        "rate_limit_rpm (ODOO_MCP_RATE_LIMIT_RPM) must be > 0",  # (8)
    ]
    for text in expected:
        assert sum(text in p for p in problems) == 1, (text, problems)
    assert len(problems) == len(expected)
    assert "invalid configuration (9 problems):" in str(ConfigError(problems))


def test_a_problem_says_where_the_value_came_from(tmp_path: Path) -> None:
    path = write(tmp_path, {"port": 0})
    [problem] = problems_of(environ=BASE, config_path=path)
    assert problem.endswith("got 0 (from config file key 'port')")


def test_a_password_needs_a_username() -> None:
    env = {"ODOO_URL": "http://h", "ODOO_DB": "d", "ODOO_PASSWORD": "pw"}
    assert problems_of(environ=env) == (
        "ODOO_PASSWORD is set but ODOO_USERNAME is not: a password needs a login",
    )


def test_connection_checks_come_from_connection_settings() -> None:
    env = {**BASE, "ODOO_USERNAME": "", "ODOO_PROTOCOL": "xmlrpc"}
    assert problems_of(environ=env) == ("protocol xmlrpc needs ODOO_USERNAME",)


@pytest.mark.parametrize(("data", "fragment"), [
    ("{not json", "not valid JSON at line 1"),
    ("[1, 2]", "the top level must be a JSON object"),
    ('{"audit": true}', "'audit' must be a JSON object"),
    ('{"audit": {"file": "x"}}', "unknown key 'audit.file'"),
])  # fmt: skip
def test_bad_config_files_are_problems(tmp_path: Path, data: str, fragment: str) -> None:
    path = tmp_path / "c.json"
    path.write_text(data, encoding="utf-8")
    [problem] = problems_of(environ=BASE, config_path=path)
    assert fragment in problem


def test_a_missing_config_file_is_a_problem(tmp_path: Path) -> None:
    [problem] = problems_of(environ=BASE, config_path=tmp_path / "none.json")
    assert "cannot be read" in problem


def test_an_unknown_flag_is_a_problem_naming_the_closest_setting() -> None:
    """REQ-11-29: a --set typo gets the same "did you mean" as a config file key."""
    assert problems_of({"prot": 1}, environ=BASE) == (
        "unknown command-line setting 'prot' (did you mean 'port'?)",
    )
    assert problems_of({"zzz": 1}, environ=BASE) == ("unknown command-line setting 'zzz'",)


def test_the_default_limit_cannot_exceed_the_maximum() -> None:
    env = {**BASE, "ODOO_MCP_SEARCH_LIMIT": "600"}
    assert problems_of(environ=env) == (
        "search_default_limit (600) is above search_max_limit (500)",
    )


def test_the_settings_class_reads_only_the_spec_names(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in BASE.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("MODE", "full")
    monkeypatch.setenv("PORT", "1")
    config = OdooMcpConfig()  # type: ignore[call-arg]
    assert (config.mode, config.port) == (Mode.READONLY, 8080)
    monkeypatch.setenv("ODOO_MCP_MODE", "restricted")
    assert OdooMcpConfig().mode is Mode.RESTRICTED  # type: ignore[call-arg]


def test_derived_settings_carry_the_safety_lists() -> None:
    env = {**BASE, "ODOO_MCP_MODE": "restricted", "ODOO_MCP_WRITE_ALLOWLIST": "sale.order"}
    policy = load_config(environ=env).safety_policy()
    assert policy.mode is Mode.RESTRICTED
    assert policy.write_allowlist == {"sale.order"}


_secret = st.text(alphabet="abcdefXYZ0123456789!#%", min_size=6, max_size=24).map(
    lambda s: "S3CR3T" + s
)


@settings(max_examples=60, deadline=None)
@given(password=_secret, api_key=_secret, userinfo=st.booleans())
def test_secrets_never_appear_in_describe_or_errors(
    password: str, api_key: str, userinfo: bool
) -> None:
    url = "http://admin:S3CR3Turl@odoo.test" if userinfo else "http://odoo.test"
    env = {"ODOO_URL": url, "ODOO_DB": "d", "ODOO_USERNAME": "admin",
           "ODOO_PASSWORD": password, "ODOO_API_KEY": api_key}  # fmt: skip
    config = load_config(environ=env)
    shown = json.dumps(config.describe()) + repr(config) + str(config)
    assert "S3CR3T" not in shown
    assert config.connection_settings().secrets()[0] == ("api_key", api_key)
    with pytest.raises(ConfigError) as caught:
        load_config(environ={**env, "ODOO_MCP_PORT": "0"}, config_path=None)
    assert "S3CR3T" not in str(caught.value)


def test_dotted_field_blocklist_entries_are_a_configuration_error() -> None:
    values = {
        "odoo_url": "http://odoo.test",
        "odoo_db": "demo",
        "odoo_api_key": "k",
        "field_blocklist": "email,res.partner.phone",
    }
    with pytest.raises(ConfigError) as caught:
        load_config(values, environ={})
    assert any("res.partner.phone would block nothing" in p for p in caught.value.problems)


def test_reconnect_settings_give_the_backoff() -> None:
    base = {"odoo_url": "http://odoo.test", "odoo_db": "demo", "odoo_api_key": "k"}
    assert load_config(base, environ={}).reconnect_backoff() == (1.0, 2.0, 4.0)
    env = {"ODOO_MCP_RECONNECT_ATTEMPTS": "2", "ODOO_MCP_RECONNECT_BACKOFF": "0.5"}
    assert load_config(base, environ=env).reconnect_backoff() == (0.5, 1.0)
    assert load_config(base, environ={"ODOO_MCP_RECONNECT_ATTEMPTS": "0"}).reconnect_backoff() == ()


def test_http_auth_cannot_be_off_on_a_public_host() -> None:
    """REQ-HTTP-18: auth is on by default off loopback, and cannot be turned off there."""
    base = {"odoo_url": "http://odoo.test", "odoo_db": "demo", "odoo_api_key": "k"}
    assert load_config({**base, "transport": "http"}, environ={}).host == "127.0.0.1"
    public = load_config({**base, "transport": "http", "host": "0.0.0.0"}, environ={})
    assert public.http_auth_enabled
    assert not load_config({**base, "transport": "http"}, environ={}).http_auth_enabled
    with pytest.raises(ConfigError) as caught:
        load_config(
            {**base, "transport": "http", "host": "0.0.0.0", "http_auth": "off"}, environ={}
        )
    assert any("needs a loopback host" in p for p in caught.value.problems)
    with pytest.raises(ConfigError):
        load_config({**base, "public_url": "mcp.example.com"}, environ={})
    with pytest.raises(ConfigError):
        load_config({**base, "transport": "sse"}, environ={})


def test_every_setting_is_described() -> None:
    """REQ-11-25: the configuration reference has a description for every setting."""
    from odoo_mcp.config import OdooMcpConfig, setting_descriptions

    descriptions = setting_descriptions()
    assert set(descriptions) == set(OdooMcpConfig.model_fields)
    assert all(len(text) > 10 for text in descriptions.values())
    assert "added to the built-in blocklist" in descriptions["model_blocklist"]


def test_the_sse_transport_is_one_problem() -> None:
    """REQ-11-29: one message per problem (decision 34's refusal was reported twice)."""
    [problem] = problems_of({"transport": "sse"}, environ=BASE)
    assert problem.startswith("transport sse (ODOO_MCP_TRANSPORT) is not offered")


@pytest.mark.parametrize(("variable", "value", "expected"), [
    ("ODOO_MCP_MODEL_BLOCKLIST", "RES.PARTNER",
     "'RES.PARTNER' is not a model name: Odoo model names are lowercase "
     "(did you mean 'res.partner'?)"),
    ("ODOO_MCP_MODEL_BLOCKLIST", '["res.partner"]',
     "a list is comma-separated names, not JSON (REQ-11-30): did you mean 'res.partner'?"),
    ("ODOO_MCP_MODEL_BLOCKLIST", "[]", "not JSON (REQ-11-30): leave it empty for none"),
    ("ODOO_MCP_MODEL_ALLOWLIST", '["res.partner", "sale.order"]',
     "not JSON (REQ-11-30): did you mean 'res.partner,sale.order'?"),
    ("ODOO_MCP_MODEL_BLOCKLIST", "res.partner;sale.order",
     "'res.partner;sale.order' is not a model name: list entries are separated by commas "
     "(did you mean 'res.partner,sale.order'?)"),
    ("ODOO_MCP_WRITE_ALLOWLIST", "sale.order crm.lead",
     "list entries are separated by commas (did you mean 'sale.order,crm.lead'?)"),
    ("ODOO_MCP_FIELD_BLOCKLIST", "Email",
     "'Email' is not a field name: Odoo field names are lowercase (did you mean 'email'?)"),
    ("ODOO_MCP_FIELD_BLOCKLIST", "'email'",
     "quotes and brackets are not part of a name (did you mean 'email'?)"),
    ("ODOO_MCP_METHOD_BLOCKLIST", "unlink-all",
     "'unlink-all' is not a method name: a method name has letters, digits and '_'"),
    ("ODOO_MCP_INTROSPECT_MODELS", "Sale.Order",
     "Odoo model names are lowercase (did you mean 'sale.order'?)"),
    ("ODOO_MCP_ENABLED_TOOLSETS", "Core",
     "'Core' is not a toolset name: toolset names are lowercase (did you mean 'core'?)"),
])  # fmt: skip
def test_a_list_entry_that_cannot_be_a_name_is_a_problem(
    variable: str, value: str, expected: str
) -> None:
    """REQ-11-30: a list that would block (or allow) nothing is refused, with its likely fix."""
    [problem] = problems_of(environ={**BASE, variable: value})
    assert expected in problem, problem
    assert problem.endswith(f"(from environment variable {variable})")


def test_each_bad_entry_of_a_list_is_its_own_problem() -> None:
    """REQ-11-29: one line per problem, the good entries left alone."""
    env = {**BASE, "ODOO_MCP_MODEL_BLOCKLIST": "RES.PARTNER, sale.order, Crm.Lead"}
    problems = problems_of(environ=env)
    assert [p.split(":")[1].split(" is not")[0].strip() for p in problems] == [
        "'RES.PARTNER'", "'Crm.Lead'"
    ]  # fmt: skip


def test_names_in_a_json_file_list_are_checked_too(tmp_path: Path) -> None:
    """REQ-11-26/30: a real JSON list in the file is a list; its entries must still be names."""
    path = write(tmp_path, {"model_blocklist": ["crm.lead", "Sale.Order"]})
    [problem] = problems_of(environ=BASE, config_path=path)
    assert "did you mean 'sale.order'?" in problem
    assert problem.endswith("(from config file key 'model_blocklist')")
    good = write(tmp_path, {"model_blocklist": ["crm.lead", "x_custom.model_2"]})
    assert load_config(environ=BASE, config_path=good).model_blocklist == (
        "crm.lead", "x_custom.model_2"
    )  # fmt: skip


def test_the_settings_class_refuses_bad_names_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """REQ-11-30: ``OdooMcpConfig()`` from the environment applies the same rule."""
    for key, value in BASE.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("ODOO_MCP_FIELD_BLOCKLIST", "Email")
    with pytest.raises(ValueError, match="did you mean 'email'"):
        OdooMcpConfig()  # type: ignore[call-arg]


@pytest.mark.parametrize("text", ["yes-please", "enabled", "true!"])
def test_a_boolean_that_is_not_one_of_the_spec_words_is_a_problem(text: str) -> None:
    """REQ-11-31: only true/1/yes and false/0/no, whatever the case."""
    [problem] = problems_of(environ={**BASE, "ODOO_MCP_RATE_LIMIT": text})
    assert problem.startswith("rate_limit_enabled (ODOO_MCP_RATE_LIMIT): expected one of")


@pytest.mark.parametrize(("variable", "expected"), [
    ("ODOO_MCP_FIELD_BLOKLIST", "(did you mean ODOO_MCP_FIELD_BLOCKLIST?)"),
    ("ODOO_MCP_RATE_LIMIT_ENABLED", "(did you mean ODOO_MCP_RATE_LIMIT?)"),
    ("odoo_mcp_audit_log_file", "(did you mean ODOO_MCP_AUDIT_FILE?)"),
    ("ODOO_MCP_ODOO_URL", "(did you mean ODOO_URL?)"),
    ("ODOO_MCP_CONFIGG", "(did you mean ODOO_MCP_CONFIG?)"),
    ("ODOO_MCP_RATE_LIMIT_READ_RPM",
     "(rate_limit_read_rpm has no variable: set it in the config file)"),
    ("ODOO_MCP_WHATEVER", ""),
])  # fmt: skip
def test_an_unknown_odoo_mcp_variable_is_a_problem_naming_the_likely_one(
    variable: str, expected: str
) -> None:
    """REQ-11-29: a misspelt variable would leave its setting at the default without a word."""
    [problem] = problems_of(environ={**BASE, variable: "email"})
    assert problem == f"unknown environment variable {variable} {expected}".rstrip()


def test_variables_outside_the_prefix_or_empty_are_not_judged() -> None:
    """REQ-11-25: only the server's own prefix is claimed; an empty variable is unset."""
    env = {**BASE, "ODOO_MCP_TYPO": " ", "ODOO_OTHER": "x", "MCP_MODE": "x"}
    assert load_config(environ=env).mode is Mode.READONLY


def test_every_odoo_mcp_variable_the_project_names_is_known() -> None:
    """REQ-11-25/29: a variable the docs, the image or the kit use never stops a start."""
    root = Path(__file__).resolve().parents[2]
    places = [root / name for name in ("README.md", "Dockerfile", "compose.yaml")]
    for folder in ("src", "conformance", "docs", "features", "bench"):
        places += [p for p in (root / folder).rglob("*") if p.suffix in {".py", ".md", ".toml",
                   ".feature", ".yaml", ".yml", ".json"}]  # fmt: skip
    named = {
        match
        for place in places
        if place.is_file() and place.name != "config_sources.py"  # its examples of typos
        for match in re.findall(r"ODOO_MCP_[A-Z0-9_]*[A-Z0-9]", place.read_text("utf-8"))
    }
    assert "ODOO_MCP_STATE_URL" in named and "ODOO_MCP_KIT_FEATURES" in named
    problems = problems_of(environ={**BASE, **dict.fromkeys(named, "x")})
    assert not any("unknown environment variable" in p for p in problems), problems
