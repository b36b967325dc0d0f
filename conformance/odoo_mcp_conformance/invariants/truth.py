"""What the invariants judge against: the fake's own field types, and the scenario's blocklists.

The kit never takes the server's word for what a field is: it asks the fake Odoo itself
(``fields_get`` as the superuser, through the control API, not logged) and keeps the answer
for the run. The blocklists in force are the built-in ones (SPEC-11 REQ-11-08, REQ-11-13:
always applied) and those the scenario configured; a scenario whose configuration the kit
cannot read (a configuration file, a raw environment variable, a command-line flag) is
judged on the built-in lists alone and on no configurable rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from odoo_mcp_conformance.control import ControlError
from odoo_mcp_conformance.real_odoo import OdooBackend

__all__ = ["DEFAULT_FIELD_BLOCKLIST", "DEFAULT_MODEL_BLOCKLIST", "FieldTypes", "Scope"]

#: SPEC-11 REQ-11-08's default model blocklist, always applied on top of the user's.
#: ``res.users`` is on it for writes only (REQ-11-09: reading is permitted).
DEFAULT_MODEL_BLOCKLIST = frozenset(
    {
        "ir.config_parameter", "ir.cron", "base.automation", "ir.rule", "ir.model.access",
        "ir.mail_server", "fetchmail.server", "payment.provider",
    }
)  # fmt: skip
#: SPEC-11 REQ-11-13's default field blocklist, matched by bare field name on any model.
DEFAULT_FIELD_BLOCKLIST = frozenset(
    {
        "password", "password_crypt", "oauth_access_token", "oauth_provider_id", "api_key",
        "api_key_ids", "totp_secret", "totp_enabled", "signature",
    }
)  # fmt: skip


class FieldTypes:
    """Field types per model as the fake Odoo reports them, asked once per model and run."""

    def __init__(self, control: OdooBackend) -> None:
        self.control = control
        self._known: dict[tuple[str, str], Mapping[str, str]] = {}
        self._version_seen: Any = None

    def of(self, model: str) -> Mapping[str, str]:
        """``{field: type}`` of ``model``; empty when the fake has no such model."""
        version = str(self._version())
        key = (version, model)
        if key not in self._known:
            try:
                described = self.control.call(model, "fields_get", attributes=["type"])
            except ControlError:
                described = {}
            self._known[key] = {
                name: str(spec.get("type", ""))
                for name, spec in (described or {}).items()
                if isinstance(spec, dict)
            }
        return self._known[key]

    def new_scenario(self) -> None:
        """A scenario may have reset the fake to another version: ask it again."""
        self._version_seen = None

    def _version(self) -> Any:
        # types are kept per version, and the version is asked once per scenario
        if self._version_seen is None:
            self._version_seen = self.control.info().get("version", "")
        return self._version_seen


@dataclass(frozen=True)
class Scope:
    """What one scenario configured, as far as the kit can know it."""

    model_blocklist: frozenset[str] = frozenset()
    model_allowlist: frozenset[str] = frozenset()
    field_blocklist: frozenset[str] = frozenset()
    #: every setting the invariants read is known (none came by a channel the kit does not
    #: read: a configuration file, raw environment variables, command-line flags)
    known: bool = True
    strip_html: bool = True
    default_limit: int | None = 80
    max_limit: int | None = 500

    @classmethod
    def of(
        cls,
        settings: Mapping[str, Any],
        raw_env: Mapping[str, str],
        command_line: Mapping[str, str],
    ) -> Scope:
        known = not raw_env and not command_line and "config_file" not in settings

        def names(key: str) -> frozenset[str]:
            value = settings.get(key) or ()
            return frozenset([value] if isinstance(value, str) else map(str, value))

        def number(key: str, default: int) -> int | None:
            if not known:
                return None
            value = settings.get(key, default)
            try:
                return int(value)
            except (TypeError, ValueError):
                return None

        strip = settings.get("strip_html", True)
        return cls(
            model_blocklist=names("model_blocklist"),
            model_allowlist=names("model_allowlist"),
            field_blocklist=names("field_blocklist"),
            known=known,
            strip_html=known and strip not in (False, "false", "0", "no", "off"),
            default_limit=number("search_default_limit", 80),
            max_limit=number("search_max_limit", 500),
        )

    def model_blocked(self, model: str) -> str:
        """Why ``model`` may not be read ("" when it may): the list that blocks it."""
        if model in DEFAULT_MODEL_BLOCKLIST:
            return "the built-in model blocklist (SPEC-11 REQ-11-08)"
        if model in self.model_blocklist:
            return "the configured model_blocklist"
        if self.model_allowlist and model not in self.model_allowlist:
            return "the configured model_allowlist (it is not on it)"
        return ""

    def field_blocked(self, name: str) -> str:
        """Why a field of this name may not be shown ("" when it may)."""
        if name in DEFAULT_FIELD_BLOCKLIST:
            return "the built-in field blocklist (SPEC-11 REQ-11-13)"
        if name in self.field_blocklist:
            return "the configured field_blocklist"
        return ""
