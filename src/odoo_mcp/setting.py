"""SPEC-11 §9-10: where one setting is read from, declared once, on its field.

A field of ``OdooMcpConfig`` carries its name, type, default and docstring; a ``Setting`` in
its ``Annotated`` metadata adds the rest: environment variables, configuration-file aliases
and command-line flag. Loading, the CLI, the generated reference and the tests all read these
declarations (``config.SETTINGS``), so a setting is never described in two places.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

__all__ = ["NameRule", "Setting", "SettingsIndex"]


@dataclass(frozen=True, slots=True, init=False)
class Setting:
    """How a setting is reached from outside the server (besides its JSON key and ``--set``).

    ``env`` lists the environment variables, the spec's (REQ-11-25) name first; ``aliases``
    are more configuration-file keys, ``group.key`` for a key inside a nested object
    (decision 4); ``flag`` is its command-line flag, a switch when the setting is a boolean.
    """

    env: tuple[str, ...]
    aliases: tuple[str, ...]
    flag: str | None

    def __init__(self, *env: str, aliases: Iterable[str] = (), flag: str | None = None) -> None:
        object.__setattr__(self, "env", env)
        object.__setattr__(self, "aliases", tuple(aliases))
        object.__setattr__(self, "flag", flag)


NO_SOURCE: Final = Setting()


@dataclass(frozen=True, slots=True)
class NameRule:
    """REQ-11-28/30: what each entry of a list of names (models, fields, methods, toolsets)
    must look like; an entry that cannot be such a name is a configuration error.

    Declared in a list field's ``Annotated`` metadata next to its ``Setting``. ``kind`` names
    the thing in messages ("model"), ``pattern`` is the whole entry's shape, ``shape`` says it
    in words, and ``lowercase`` (when names are lowercase) says so for an entry that is not.
    """

    kind: str
    pattern: re.Pattern[str]
    shape: str
    lowercase: str | None = None

    def accepts(self, entry: str) -> bool:
        """REQ-11-30: the entry is one name of this kind."""
        return self.pattern.fullmatch(entry) is not None


@dataclass(frozen=True, slots=True)
class SettingsIndex:
    """REQ-11-25: the declarations by field name, and the lookups loading needs."""

    settings: Mapping[str, Setting]

    def env(self, name: str) -> tuple[str, ...]:
        """REQ-11-25: the environment variables of one setting, canonical first."""
        return self.settings.get(name, NO_SOURCE).env

    def label(self, name: str) -> str:
        """REQ-11-29: how a problem names a setting: its key and its variable."""
        names = self.env(name)
        return f"{name} ({names[0]})" if names else name

    def file_keys(self) -> dict[str, str]:
        """REQ-11-26: every top-level file key (the field names, then flat aliases) -> field."""
        keys = {name: name for name in self.settings}
        for name, setting in self.settings.items():
            keys.update({alias: name for alias in setting.aliases if "." not in alias})
        return keys

    def nested(self) -> dict[str, dict[str, str]]:
        """REQ-11-26: the nested file objects (decision 4), ``group -> key -> field``."""
        groups: dict[str, dict[str, str]] = {}
        for name, setting in self.settings.items():
            for alias in setting.aliases:
                group, dot, key = alias.partition(".")
                if dot:
                    groups.setdefault(group, {})[key] = name
        return groups

    def flags(self) -> dict[str, str]:
        """REQ-11-27: command-line flag -> field."""
        return {s.flag: name for name, s in self.settings.items() if s.flag is not None}
