"""SPEC-11 §9-10: where configuration values come from, and how every problem is collected.

Sources, lowest first: defaults, the JSON file (flat keys; nested ``rate_limit{}``/``audit{}``
accepted as aliases, decision 4), environment variables (the spec's names, case-insensitive,
an empty variable counts as unset), then command-line overrides (REQ-11-27). Each field is
validated on its own so one bad value never hides another, then the cross-field checks of
REQ-11-28 run on whatever did validate. Which variable, file key or flag reaches which field
is never written here: it comes from the fields' declarations (a ``SettingsIndex``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from pydantic import TypeAdapter, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails

from odoo_mcp.connection.settings import ConnectionSettings
from odoo_mcp.setting import NameRule, SettingsIndex
from odoo_mcp.state.url import state_url_problem

__all__ = [
    "CONFIG_PATH_VAR",
    "ConfigError",
    "cross_field_problems",
    "did_you_mean",
    "gather",
    "name_problems",
    "validate_fields",
]

CONFIG_PATH_VAR: Final = "ODOO_MCP_CONFIG"
#: REQ-11-25 connection keys -> ConnectionSettings fields (composed, not duplicated)
_CONNECTION_KEYS: Final[Mapping[str, str]] = {
    "odoo_url": "url",
    "odoo_db": "database",
    "odoo_username": "username",
    "odoo_password": "password",
    "odoo_api_key": "api_key",
    "odoo_protocol": "protocol",
}
SECRET_FIELDS: Final = frozenset({"odoo_password", "odoo_api_key"})
#: REQ-11-25: the prefix of the server's own variables; any other name under it is a mistake
PREFIX: Final = "ODOO_MCP_"
#: ``ODOO_MCP_`` variables that are not settings and are no mistake: REQ-11-25's row of a
#: feature not built (deep_search is SPEC-08), and those of the conformance kit and the docs
#: build (conformance/, docs/_hooks/), which share a shell with the server.
OTHER_VARIABLES: Final = frozenset({
    "ODOO_MCP_DEEP_SEARCH_DEPTH",
    "ODOO_MCP_KIT_FEATURES",
    "ODOO_MCP_KIT_REPORT",
    "ODOO_MCP_KIT_HTTP_REPORT",
    "ODOO_MCP_KIT_SHARE_FORKSERVER",
    "ODOO_MCP_KIT_TIME_SCALE",
    # the kit's users of a real Odoo (``run --odoo-url``, conformance/.../real_odoo.py)
    "ODOO_MCP_KIT_ADMIN_LOGIN",
    "ODOO_MCP_KIT_ADMIN_PASSWORD",
    "ODOO_MCP_KIT_ADMIN_API_KEY",
    "ODOO_MCP_KIT_USER_LOGIN",
    "ODOO_MCP_KIT_USER_PASSWORD",
    "ODOO_MCP_KIT_USER_API_KEY",
    "ODOO_MCP_MUTATION_RESULTS",
    "ODOO_MCP_REPO_REF",
    "ODOO_MCP_REPO_URL",
    "ODOO_MCP_UNIT_RESULTS",
})  # fmt: skip


class ConfigError(Exception):
    """REQ-11-29: the configuration cannot start the server; ``problems`` lists every reason."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        count = len(self.problems)
        lines = [f"invalid configuration ({count} problem{'s' if count != 1 else ''}):"]
        lines += [f"  - {problem}" for problem in self.problems]
        super().__init__("\n".join(lines))


def gather(
    index: SettingsIndex,
    cli: Mapping[str, object] | None,
    environ: Mapping[str, str],
    config_path: str | Path | None,
    *,
    with_file: bool = True,
) -> tuple[dict[str, object], dict[str, str], list[str]]:
    """REQ-11-27: raw values by field name, where each came from, and source problems."""
    raw: dict[str, object] = {}
    origins: dict[str, str] = {}
    problems: list[str] = []
    upper = {key.upper(): (key, value) for key, value in sorted(environ.items(), reverse=True)}
    if with_file:
        path = config_path or upper.get(CONFIG_PATH_VAR, ("", ""))[1].strip()
        if path:
            _read_file(index, Path(path), raw, origins, problems)
    for name, setting in index.settings.items():
        for variable in setting.env:
            found = upper.get(variable)
            if found is not None and found[1].strip():
                raw[name], origins[name] = found[1], f"environment variable {found[0]}"
                break
    problems += _unknown_variables(index, upper)
    for name, value in (cli or {}).items():
        if name not in index.settings:
            hint = did_you_mean(name, index.settings)
            problems.append(f"unknown command-line setting '{name}'{hint}")
        elif value is not None:
            raw[name], origins[name] = value, "the command line"
    return raw, origins, problems


def _unknown_variables(index: SettingsIndex, upper: Mapping[str, tuple[str, str]]) -> list[str]:
    """REQ-11-29: an ``ODOO_MCP_`` variable the server does not read is a mistake (a typo
    would otherwise leave its setting at the default without a word): one problem each, with
    the variable it probably meant."""
    known = {variable: name for name, s in index.settings.items() for variable in s.env}
    problems: list[str] = []
    for variable, (given, value) in sorted(upper.items()):
        if not variable.startswith(PREFIX) or not value.strip():
            continue
        if variable in known or variable == CONFIG_PATH_VAR or variable in OTHER_VARIABLES:
            continue
        problems.append(f"unknown environment variable {given}{_meant(index, variable, known)}")
    return problems


def _meant(index: SettingsIndex, variable: str, known: Mapping[str, str]) -> str:
    """The variable an unknown ``ODOO_MCP_`` one probably meant: the one of the setting it
    names (``ODOO_MCP_RATE_LIMIT_ENABLED`` is ``rate_limit_enabled``: ``ODOO_MCP_RATE_LIMIT``),
    else the closest name."""
    field = variable.removeprefix(PREFIX).lower()
    for candidate in (field, field.removeprefix("odoo_mcp_")):
        if candidate in index.settings:
            variables = index.env(candidate)
            if not variables:
                return f" ({candidate} has no variable: set it in the config file)"
            return f" (did you mean {variables[0]}?)"
    # compared without the prefix they share, or every name would look close
    names = {name.removeprefix(PREFIX): name for name in [*known, CONFIG_PATH_VAR]}
    import difflib  # a refusal's hint only (issue 41: not loaded by every start)

    close = difflib.get_close_matches(variable.removeprefix(PREFIX), list(names), n=1)
    return f" (did you mean {names[close[0]]}?)" if close else ""


def _read_file(
    index: SettingsIndex,
    path: Path,
    raw: dict[str, object],
    origins: dict[str, str],
    problems: list[str],
) -> None:
    """REQ-11-26: a JSON object of flat keys; decision 4: nested objects as aliases."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        problems.append(f"config file {path}: cannot be read ({exc.strerror or exc})")
        return
    except json.JSONDecodeError as exc:
        problems.append(f"config file {path}: not valid JSON at line {exc.lineno}, col {exc.colno}")
        return
    except UnicodeDecodeError:
        problems.append(f"config file {path}: not UTF-8 text")
        return
    if not isinstance(data, dict):
        problems.append(f"config file {path}: the top level must be a JSON object")
        return
    given: dict[str, tuple[str, object]] = {}
    keys, nested = index.file_keys(), index.nested()
    for key, value in data.items():
        if key in nested and isinstance(value, dict):
            for sub, item in value.items():
                flat = nested[key].get(sub)
                if flat is None:
                    problems.append(_unknown(path, f"{key}.{sub}", nested[key]))
                else:
                    _put(path, given, flat, f"{key}.{sub}", item, problems)
        elif key in nested:
            problems.append(f"config file {path}: '{key}' must be a JSON object")
        elif key in keys:
            _put(path, given, keys[key], key, value, problems)
        else:
            problems.append(_unknown(path, key, keys))
    for name, (key, value) in given.items():
        raw[name], origins[name] = value, f"config file key '{key}'"


def _put(
    path: Path,
    given: dict[str, tuple[str, object]],
    name: str,
    key: str,
    value: object,
    problems: list[str],
) -> None:
    if name in given and given[name][1] != value:
        problems.append(f"config file {path}: '{given[name][0]}' and '{key}' give different values")
    given.setdefault(name, (key, value))


def _unknown(path: Path, key: str, known: Iterable[str]) -> str:
    hint = did_you_mean(key.split(".")[-1], known)
    return f"config file {path}: unknown key '{key}'{hint}"


def did_you_mean(given: str, known: Iterable[str], *, quote: str = "'") -> str:
    """REQ-11-29: `` (did you mean 'x'?)`` naming the closest known name, or nothing."""
    import difflib  # a refusal's hint only (issue 41: not loaded by every start)

    close = difflib.get_close_matches(given, list(known), n=1)
    return f" (did you mean {quote}{close[0]}{quote}?)" if close else ""


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}
_PUNCTUATION: Final = re.compile(r"[\[\]{}\"'`]")
_SEPARATORS: Final = re.compile(r"[;\s]+")


def name_problems(
    index: SettingsIndex,
    fields: Mapping[str, FieldInfo],
    values: Mapping[str, object],
    origins: Mapping[str, str] | None = None,
) -> list[str]:
    """REQ-11-30: every entry of a list of names must be one name of its kind (its field's
    ``NameRule``); one line per entry that is not, with the name it probably meant.

    A list written as JSON (``["res.partner"]``) is one problem for the whole value: list
    values are comma-separated (decision 38)."""
    problems: list[str] = []
    for name, info in fields.items():
        rule = next((item for item in info.metadata if isinstance(item, NameRule)), None)
        entries = values.get(name)
        if rule is None or not isinstance(entries, tuple | list) or not entries:
            continue
        where = f" (from {origins[name]})" if origins and name in origins else ""
        label = index.label(name)
        texts = [str(entry) for entry in entries]
        if texts[0].lstrip().startswith("[") or texts[-1].rstrip().endswith("]"):
            fixed = ",".join(
                part for part in (_PUNCTUATION.sub("", t).strip() for t in texts) if part
            )
            meant = f"did you mean '{fixed}'?" if fixed else "leave it empty for none"
            problems.append(
                f"{label}: a list is comma-separated names, not JSON (REQ-11-30): {meant}{where}"
            )
            continue
        problems += [
            f"{label}: {problem}{where}"
            for problem in (_entry_problem(rule, text) for text in texts)
            if problem is not None
        ]
    return problems


def _entry_problem(rule: NameRule, entry: str) -> str | None:
    """REQ-11-30: why ``entry`` is not a name of ``rule``'s kind, and what it may have meant."""
    if rule.accepts(entry):
        return None
    reasons: list[str] = []
    fixed = entry.strip()
    if _PUNCTUATION.search(fixed):
        reasons.append("quotes and brackets are not part of a name")
        fixed = _PUNCTUATION.sub("", fixed).strip()
    if _SEPARATORS.search(fixed):
        reasons.append("list entries are separated by commas")
        fixed = ",".join(_SEPARATORS.split(fixed))
    if rule.lowercase and fixed != fixed.lower():
        reasons.append(rule.lowercase)
        fixed = fixed.lower()
    if not entry.strip():
        return f"an empty {rule.kind} name"
    parts = fixed.split(",")
    hint = f" (did you mean '{fixed}'?)" if all(rule.accepts(part) for part in parts) else ""
    reason = "; ".join(reasons) or f"a {rule.kind} name has {rule.shape}"
    return f"{entry!r} is not a {rule.kind} name: {reason}{hint}"


def validate_fields(
    index: SettingsIndex,
    fields: Mapping[str, FieldInfo],
    raw: Mapping[str, object],
    origins: Mapping[str, str],
) -> tuple[dict[str, object], list[str]]:
    """REQ-11-28: each field validated alone, so every bad value is reported."""
    values: dict[str, object] = {}
    problems: list[str] = []
    for name, info in fields.items():
        if name not in raw:
            if info.is_required():
                variable = index.env(name)[0]
                problems.append(f"{name} is required: set {variable} or config file key '{name}'")
            else:
                values[name] = info.get_default(call_default_factory=True)
            continue
        adapter = _ADAPTERS.get(name)
        if adapter is None:
            adapter = _ADAPTERS[name] = TypeAdapter(info.rebuild_annotation())
        try:
            values[name] = adapter.validate_python(raw[name])
        except ValidationError as exc:
            label = index.label(name)
            problems += [_problem(name, label, e, raw[name], origins[name]) for e in exc.errors()]
    return values, problems


def _problem(name: str, label: str, error: ErrorDetails, value: object, origin: str) -> str:
    message = str(error["msg"]).removeprefix("Value error, ")
    shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
    got = "" if name in SECRET_FIELDS else f", got {shown}"
    return f"{label}: {message}{got} (from {origin})"


def cross_field_problems(index: SettingsIndex, values: Mapping[str, Any]) -> list[str]:
    """REQ-11-28: URL, database, credentials, list exclusivity, limits (checks 1-3, 5, 6, 8)."""
    label = index.label
    problems = _connection_problems(index, values)
    allow, block = values.get("model_allowlist") or (), values.get("model_blocklist") or ()
    if allow and block:
        problems.append(
            f"{label('model_allowlist')} and {label('model_blocklist')} cannot both be set: "
            "use one (decision 3; the built-in blocklist applies in any case)"
        )
    outside = sorted(set(values.get("write_allowlist") or ()) - set(allow))
    if allow and outside:
        problems.append(
            f"{label('write_allowlist')} names models missing from "
            f"model_allowlist: {', '.join(outside)}"
        )
    if values.get("rate_limit_enabled"):
        for name, floor in (("rate_limit_rpm", 1), ("rate_limit_rph", 1), ("rate_limit_burst", 1)):
            if name in values and values[name] < floor:
                problems.append(f"{label(name)} must be > 0 when rate limiting is on")
    dotted = sorted(name for name in values.get("field_blocklist") or () if "." in name)
    if dotted:
        problems.append(
            f"{label('field_blocklist')} takes bare field names, blocked on "
            f"every model (REQ-11-13): {', '.join(dotted)} would block nothing"
        )
    if values.get("transport") == "sse":
        problems.append(
            f"transport sse ({index.env('transport')[0]}) is not offered: MCP replaced the SSE "
            "transport with streamable HTTP (protocol 2025-03-26); use transport http "
            "(decision 34)"
        )
    loopback = values.get("host", "127.0.0.1") in ("127.0.0.1", "localhost", "::1")
    if values.get("transport") == "http" and not loopback and values.get("http_auth") == "off":
        problems.append(
            f"http_auth off ({index.env('http_auth')[0]}) needs a loopback host, not "
            f"{values.get('host')} ({index.env('host')[0]}): without authentication every "
            "caller would act as the server's own Odoo user (REQ-HTTP-18)"
        )
    state_url = values.get("state_url")
    state_problem = state_url_problem(str(state_url)) if state_url else None
    if state_problem is not None:
        problems.append(f"{label('state_url')} {state_problem} (decision 37)")
    public_url = values.get("public_url")
    if public_url is not None and not str(public_url).startswith(("http://", "https://")):
        problems.append(f"{label('public_url')} must be an http(s) URL: {public_url}")
    default, top = values.get("search_default_limit"), values.get("search_max_limit")
    if default is not None and top is not None and default > top:
        problems.append(f"search_default_limit ({default}) is above search_max_limit ({top})")
    return problems


def _connection_problems(index: SettingsIndex, values: Mapping[str, Any]) -> list[str]:
    """REQ-11-28 (1)-(3): through ConnectionSettings, whose checks stay in one place."""
    problems: list[str] = []
    username, password = values.get("odoo_username"), values.get("odoo_password")
    no_credentials = values.get("odoo_api_key") is None and not (username and password)
    names = ("odoo_username", "odoo_password", "odoo_api_key")
    login, secret, key = (index.env(name)[0] for name in names)
    if no_credentials and password and not username:
        problems.append(f"{secret} is set but {login} is not: a password needs a login")
    elif no_credentials:
        problems.append(f"no credentials: set {login} and {secret}, or {key}")
    data = {
        target: values[source] for source, target in _CONNECTION_KEYS.items() if source in values
    }
    # A missing URL or database is reported already; placeholders let the other checks run.
    placeholders = {"url": "http://placeholder.invalid", "database": "placeholder"}
    for target, placeholder in placeholders.items():
        data.setdefault(target, placeholder)
    try:
        ConnectionSettings.model_validate(data)
        return problems
    except ValidationError as exc:
        errors = exc.errors()
    field_errors = [error for error in errors if error["loc"]]
    for error in field_errors:
        target = str(error["loc"][0])
        source = next(s for s, t in _CONNECTION_KEYS.items() if t == target)
        message = str(error["msg"]).removeprefix("Value error, ")
        problems.append(f"{index.label(source)}: {message}")
        data[target] = placeholders.get(target, data.get(target))
    if field_errors:  # the model-level checks only run once every field is valid
        try:
            ConnectionSettings.model_validate(data)
            errors = []
        except ValidationError as exc:
            errors = exc.errors()
    if not no_credentials:
        problems += [
            str(error["msg"]).removeprefix("Value error, ") for error in errors if not error["loc"]
        ]
    return problems
