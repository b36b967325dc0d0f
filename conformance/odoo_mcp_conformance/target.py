"""Target files: how the kit launches and configures an implementation under test.

A target is a TOML file (see ``conformance/targets/``). It gives the launch command (stdio) or
URL (streamable HTTP) with placeholders for the fake Odoo's coordinates, a static
environment, and a mapping from the kit's abstract *settings* (``mode``,
``model_blocklist``...) to the implementation's own environment variables and value syntax.
A scenario that needs a setting the target does not map, or a capability it does not claim,
is *not applicable* to that target, never passed.
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from odoo_mcp_conformance.settings import KIT_SETTINGS, SPEC_ENV_NAMES
from odoo_mcp_conformance.timing import scaled

__all__ = [
    "KIT_SETTINGS",
    "SPEC_ENV_NAMES",
    "Launch",
    "NotApplicable",
    "OdooCoordinates",
    "SettingMapping",
    "Target",
    "load_target",
]


class NotApplicable(Exception):
    """The target cannot be configured for what a scenario needs."""


class SettingMapping(BaseModel):
    """How one kit setting reaches the implementation: an environment variable or a flag."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    #: the environment variable that carries the value
    env: str = ""
    #: or a command-line flag: ``flag = "--mode"`` appends ``--mode <value>`` to the command
    flag: str = ""
    #: value translation, e.g. {"readonly" = "1"}; a value missing from a non-empty map is N/A
    values: dict[str, str] = Field(default_factory=dict)
    #: how lists are written
    list: Literal["csv", "json", "space"] = "csv"
    #: how booleans are written: [true, false]
    booleans: tuple[str, str] = Field(default=("true", "false"), alias="bool")

    @model_validator(mode="after")
    def _one_channel(self) -> SettingMapping:
        if bool(self.env) == bool(self.flag):
            raise ValueError("a setting maps to exactly one of `env` or `flag`")
        return self

    def render(self, name: str, value: str | bool | int | Sequence[str]) -> str:
        """The environment value for ``value``; NotApplicable if it has no translation."""
        if isinstance(value, bool):
            text = self.booleans[0] if value else self.booleans[1]
        elif isinstance(value, int):
            text = str(value)
        elif isinstance(value, str):
            text = value
        elif self.list == "json":
            text = json.dumps(list(value))
        else:
            text = (" " if self.list == "space" else ",").join(str(item) for item in value)
        if self.values:
            if text not in self.values:
                raise NotApplicable(f"the target has no value for {name}={text!r}")
            return self.values[text]
        return text


class TargetInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    description: str = ""
    transport: Literal["stdio", "http"] = "stdio"
    command: tuple[str, ...] = ()
    url: str = ""
    headers: dict[str, str] = Field(default_factory=dict)
    cwd: str = ""
    #: seconds a quiet machine gives the server to start (to listen, or to answer
    #: ``initialize``), and to answer one request; both are scaled by the run's measure of
    #: the machine's load (timing.py), so a busy runner waits longer instead of failing
    startup_timeout: float = Field(default=30.0, gt=0)
    call_timeout: float = Field(default=60.0, gt=0)
    #: the profile a run uses unless ``--profile`` says otherwise: ``spec`` judges on the seeds
    #: alone; ``reference`` (our own targets) also holds the reference server to our decisions
    profile: Literal["spec", "reference"] = "spec"
    #: a Python target's modules, imported once by the kit's fork server so that each launch
    #: ``{python} -m ...`` or ``{python} script`` skips them (see forkserver.py); only modules
    #: that neither read the environment nor start a thread when imported
    preload: tuple[str, ...] = ()


class Capabilities(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    protocols: tuple[str, ...] = ("xmlrpc", "jsonrpc", "json2")
    #: optional behaviours the implementation claims (scenarios tagged ``@needs_<name>``)
    features: tuple[str, ...] = ()


class OdooCoordinates(BaseModel):
    """Where the fake Odoo is and whom to log in as: the launch placeholders."""

    model_config = ConfigDict(frozen=True)

    url: str
    db: str
    login: str
    password: str
    api_key: str


class Launch(BaseModel):
    """A fully rendered launch: what the driver starts or connects to."""

    model_config = ConfigDict(frozen=True)

    transport: Literal["stdio", "http"]
    command: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    url: str
    headers: tuple[tuple[str, str], ...]
    cwd: str | None
    startup_timeout: float
    call_timeout: float = 60.0


class Target(BaseModel):
    """A parsed target file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    target: TargetInfo
    env: dict[str, str] = Field(default_factory=dict)
    settings: dict[str, SettingMapping] = Field(default_factory=dict)
    #: the command-line flag of a setting, for the scenarios on where settings come from
    #: (a flag beats the environment, REQ-11-27); a setting not listed has no flag to test
    command_line: dict[str, str] = Field(default_factory=dict)
    capabilities: Capabilities = Capabilities()
    #: directory of the target file, for ``{target_dir}``
    base_dir: str = ""

    @property
    def name(self) -> str:
        return self.target.name

    def check_capability(self, feature: str) -> None:
        if feature not in self.capabilities.features:
            raise NotApplicable(f"the target does not claim the capability {feature!r}")

    def check_protocol(self, protocol: str) -> None:
        if protocol not in self.capabilities.protocols:
            raise NotApplicable(f"the target does not support the Odoo protocol {protocol!r}")

    def headers_for(self, odoo: OdooCoordinates) -> dict[str, str]:
        """The target's HTTP headers filled for these coordinates (another user's token)."""
        return {key: self._fill(value, odoo) for key, value in self.target.headers.items()}

    def _fill(self, text: str, odoo: OdooCoordinates) -> str:
        values = {"odoo_login": odoo.login, "odoo_api_key": odoo.api_key,
                  "odoo_password": odoo.password, "odoo_db": odoo.db,
                  "odoo_url": odoo.url}  # fmt: skip
        return text.format_map(values)

    def render(
        self,
        odoo: OdooCoordinates,
        settings: Mapping[str, str | bool | int | Sequence[str]],
        extra: Mapping[str, str] | None = None,
        raw_env: Mapping[str, str] | None = None,
        command_line: Mapping[str, str] | None = None,
    ) -> Launch:
        """The launch for these coordinates and settings; NotApplicable when unmappable.

        A setting the target does not map goes under its REQ-11-25 name (``SPEC_ENV_NAMES``);
        ``raw_env`` is sent exactly as given, whatever the mapping: scenarios that test how
        the spec's own variables are parsed use it.
        """
        values = {
            "python": sys.executable,
            "odoo_url": odoo.url,
            "odoo_db": odoo.db,
            "odoo_login": odoo.login,
            "odoo_password": odoo.password,
            "odoo_api_key": odoo.api_key,
            "target_dir": self.base_dir,
            # an HTTP target's port is chosen when the driver starts it
            "port": "{port}",
            **(extra or {}),
        }

        def fill(text: str) -> str:
            try:
                return text.format_map(values)
            except KeyError as exc:
                raise ValueError(f"target {self.name}: unknown placeholder {exc}") from exc

        env = {key: fill(value) for key, value in self.env.items()}
        flags: list[str] = []
        for name, value in sorted(settings.items()):
            mapping = self.settings.get(name)
            if mapping is None and name in SPEC_ENV_NAMES:
                mapping = SettingMapping(env=SPEC_ENV_NAMES[name])
            if mapping is None:
                raise NotApplicable(f"the target does not map the setting {name!r}")
            if mapping.flag:
                flags += [mapping.flag, mapping.render(name, value)]
            else:
                env[mapping.env] = mapping.render(name, value)
        env.update(raw_env or {})
        for name, value in sorted((command_line or {}).items()):
            flag = self.command_line.get(name)
            if flag is None:
                raise NotApplicable(f"the target has no command-line flag for {name!r}")
            flags += [flag, value]
        info = self.target
        return Launch(
            transport=info.transport,
            command=(*(fill(part) for part in info.command), *flags),
            env=tuple(sorted(env.items())),
            url=fill(info.url),
            headers=tuple(sorted((k, fill(v)) for k, v in info.headers.items())),
            cwd=fill(info.cwd) or None,
            startup_timeout=scaled(info.startup_timeout),
            call_timeout=scaled(info.call_timeout),
        )


def _merge(base: dict[str, object], override: Mapping[str, object]) -> dict[str, object]:
    merged = dict(base)
    for key, value in override.items():
        current = merged.get(key)
        if isinstance(current, dict) and isinstance(value, Mapping):
            merged[key] = _merge(current, value)
        else:
            merged[key] = value
    return merged


def _read(path: Path) -> dict[str, object]:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    parent = data.pop("extends", None)
    if isinstance(parent, str):
        data = _merge(_read((path.parent / parent).resolve()), data)
    return data


def load_target(path: Path) -> Target:
    """Parse a target file (``extends = "other.toml"`` merges over another target)."""
    path = path.resolve()
    data = _read(path)
    data["base_dir"] = str(path.parent)
    return Target.model_validate(data)
