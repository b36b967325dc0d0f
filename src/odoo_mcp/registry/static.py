"""REQ-07-08: the static registry file (``static_registry_path``), read once at start-up.

The file is what SPEC-07's generator writes: ``version``, ``generated_at``,
``generator_version``, ``source`` and ``models``. Per field, the optional ``default``,
``groups``, ``compute`` and ``depends`` of REQ-07-01 are read too: live Odoo does not report
the first three, so a static file is their only source. Unknown keys are ignored (a newer
generator may write more); a missing or mistyped key is a start-up error.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from odoo_mcp.config import ConfigError
from odoo_mcp.registry.fields import FieldInfo

__all__ = [
    "StaticField",
    "StaticMethod",
    "StaticModel",
    "StaticRegistry",
    "load_static_registry",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class StaticField(_Frozen):
    """REQ-07-08: one field of the file (``label`` is Odoo's ``string``)."""

    type: str
    label: str = ""
    required: bool = False
    readonly: bool = False
    store: bool = True
    help: str | None = None
    relation: str | None = None
    selection: tuple[tuple[str, str], ...] | None = None
    default: str | int | float | bool | None = None
    groups: str | None = None
    compute: bool | None = None
    depends: tuple[str, ...] = ()

    def to_field_info(self, name: str) -> FieldInfo:
        """REQ-07-01: the field in the registry's own shape."""
        return FieldInfo(
            name=name,
            type=self.type,
            string=self.label,
            required=self.required,
            readonly=self.readonly,
            store=self.store,
            help=self.help or None,
            relation=self.relation or None,
            selection=self.selection,
            default=self.default,
            groups=self.groups or None,
            compute=self.compute,
            depends=self.depends,
        )


class StaticMethod(_Frozen):
    """REQ-07-01: a method's first docstring line and whether it takes keyword arguments."""

    description: str = ""
    accepts_kwargs: bool = False
    decorator: str | None = None


class StaticModel(_Frozen):
    """REQ-07-08: one model of the file."""

    name: str = ""
    description: str = ""
    transient: bool = False
    fields: dict[str, StaticField] = Field(default_factory=dict)
    methods: dict[str, StaticMethod] = Field(default_factory=dict)
    states: tuple[tuple[str, str], ...] | None = None
    parent_models: tuple[str, ...] = ()
    has_chatter: bool = False

    def field_infos(self) -> dict[str, FieldInfo]:
        """REQ-07-01: every field of the model as a ``FieldInfo``."""
        return {name: spec.to_field_info(name) for name, spec in self.fields.items()}


class StaticRegistry(_Frozen):
    """REQ-07-08: the whole file."""

    version: str
    generated_at: str
    generator_version: str
    source: str = "ast_parse"
    models: dict[str, StaticModel]


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "(top level)"
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"


def load_static_registry(path: str | Path | None) -> StaticRegistry | None:
    """REQ-07-08: read and check the static registry file; None when none is configured.

    A file that cannot be read or does not have REQ-07-08's shape stops the start with a
    ConfigError naming the path and the problem.
    """
    if path is None or str(path) == "":
        return None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            [f"static_registry_path {path}: cannot be read ({exc.strerror})"]
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            [f"static_registry_path {path}: not JSON ({exc.msg} at line {exc.lineno})"]
        ) from None
    try:
        return StaticRegistry.model_validate(data)
    except ValidationError as exc:
        raise ConfigError([f"static_registry_path {path}: {_problem(exc)}"]) from None
