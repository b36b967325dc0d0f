"""Issue 41: the core tools as listed, kept with the package.

A start answers its first ``tools/list`` from ``catalogue.json``: each core tool's name,
title, description, hints, ``_meta`` and both schemas, without importing the tool modules
(their pydantic models, handlers and what only they use) or building a schema. On 2 idle
cores that was ~17 ms of import and ~9 ms of schemas of a ~600 ms start.

A core tool is a :class:`DeferredToolSpec`: a ``ToolSpec`` whose listed facts come from the
catalogue and whose other fields (models, handler, operation, ...) are its module's, imported
on the first use of any of them (a tool's first call). ``catalogue.json`` is generated from the
modules (``python -m odoo_mcp.tools.catalogue``); ``tests/odoo_mcp/tools/test_catalogue.py``
fails when it differs from what they would list, so it cannot drift from the code. It records
the pydantic version that wrote its schemas: under another one (an upgrade changes how
schemas are written), or when it cannot be read, the modules are imported and their specs
served as before, slower and never stale.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import sys
from pathlib import Path
from typing import Any, Final

from pydantic.version import VERSION as PYDANTIC_VERSION

from odoo_mcp.safety.annotations import ToolHints
from odoo_mcp.tools.spec import ToolSpec

__all__ = ["CORE_MODULES", "DeferredToolSpec", "StaleCatalogue", "build_catalogue", "core_tools"]

#: the modules of the core tools, in the order the core toolset lists them
CORE_MODULES: Final = (
    "odoo_mcp.tools.core_read",
    "odoo_mcp.tools.core_meta",
    "odoo_mcp.tools.core_models",
    "odoo_mcp.tools.core_toolsets",
    "odoo_mcp.tools.core_write",
    "odoo_mcp.tools.core_execute",
)
CATALOGUE: Final = Path(__file__).with_name("catalogue.json")
#: the fields a listing holds; every other field of a ``ToolSpec`` is loaded from the module
_LISTED: Final = frozenset({"name", "title", "description", "hints", "meta"})


class StaleCatalogue(RuntimeError):
    """The catalogue lists a core tool otherwise than its module defines it."""


class DeferredToolSpec(ToolSpec[Any, Any]):
    """Issue 41: a core tool listed from the catalogue, loaded from its module on first use.

    ``ToolSpec`` is a frozen dataclass; the listed fields are set here. Every other field is
    a ``_FromModule`` on this class: its first read imports the module and copies the module's
    spec in, after which the instance's own value is read as any attribute (a descriptor
    without ``__set__`` yields to the instance). It also hides ``ToolSpec``'s defaults
    (``operation=None``...), which would otherwise be read before a load. Equality, hashing
    and ``repr`` read every field, so they load it too."""

    module: str
    #: REQ-11-17: the listed inputSchema (validation) and outputSchema (serialization)
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]

    def __init__(self, entry: dict[str, Any]) -> None:
        hints = entry["hints"]
        listed = {
            "name": entry["name"],
            "title": entry["title"],
            "description": entry["description"],
            "hints": ToolHints(hints["read_only"], hints["destructive"], hints["idempotent"]),
            "meta": entry["meta"],
            "module": entry["module"],
            "input_schema": entry["input_schema"],
            "output_schema": entry["output_schema"],
        }
        for name, value in listed.items():
            object.__setattr__(self, name, value)

    def owner_module(self) -> str:
        return self.module

    def load(self) -> ToolSpec[Any, Any]:
        """Import the tool's module and take its spec's fields (idempotent).

        Fails closed: the hints listed decided the tool's visibility and a read-only tool's
        operation (SPEC-11's modes), so a catalogue that no longer says what the module does
        (edited code, the catalogue not written again) refuses the tool's use."""
        tools: list[ToolSpec[Any, Any]] = importlib.import_module(self.module).TOOLS
        spec = next((tool for tool in tools if tool.name == self.name), None)
        if spec is None or any(getattr(spec, f) != getattr(self, f) for f in sorted(_LISTED)):
            raise StaleCatalogue(
                f"{CATALOGUE.name} does not list {self.name} as {self.module} defines it: "
                "run python -m odoo_mcp.tools.catalogue"
            )
        for field in dataclasses.fields(ToolSpec):
            if field.name not in _LISTED:
                object.__setattr__(self, field.name, getattr(spec, field.name))
        return spec


class _FromModule:
    """A field of a ``DeferredToolSpec`` not in the catalogue: its first read loads the spec."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: DeferredToolSpec | None, owner: type | None = None) -> Any:
        if instance is None:
            return self
        instance.load()
        return instance.__dict__[self.name]


for _field in dataclasses.fields(ToolSpec):
    if _field.name not in _LISTED:
        setattr(DeferredToolSpec, _field.name, _FromModule(_field.name))


@functools.cache
def core_tools() -> tuple[ToolSpec[Any, Any], ...]:
    """REQ-03-15: the core tools, from the catalogue (nothing of their modules imported);
    one set per process, as the modules' own ``TOOLS`` lists are, so each loads once. The
    modules' own specs when the catalogue was written under another pydantic or is
    unreadable."""
    try:
        catalogue = json.loads(CATALOGUE.read_text(encoding="utf-8"))
        if catalogue["pydantic"] == PYDANTIC_VERSION:
            return tuple(DeferredToolSpec(entry) for entry in catalogue["tools"])
    except (OSError, ValueError, KeyError, TypeError):  # a damaged install: the slow way
        pass
    return tuple(_module_specs())


def _module_specs() -> list[ToolSpec[Any, Any]]:
    specs: list[ToolSpec[Any, Any]] = []
    for module in CORE_MODULES:
        specs.extend(importlib.import_module(module).TOOLS)
    return specs


def build_catalogue() -> dict[str, Any]:
    """What the core tool modules list: the catalogue ``core_tools`` reads, rebuilt."""
    entries = [
        {
            "name": spec.name,
            "title": spec.title,
            "description": spec.description,
            "hints": dataclasses.asdict(spec.hints),
            "meta": spec.meta,
            "module": module,
            "input_schema": spec.input_model.model_json_schema(mode="validation"),
            "output_schema": spec.result_model.model_json_schema(mode="serialization"),
        }
        for module in CORE_MODULES
        for spec in importlib.import_module(module).TOOLS
    ]
    return {"pydantic": PYDANTIC_VERSION, "tools": entries}


def render(catalogue: dict[str, Any]) -> str:
    """The catalogue's text: stable, readable in a diff."""
    return json.dumps(catalogue, indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    """``python -m odoo_mcp.tools.catalogue [--check]``: write the catalogue (or check it)."""
    text = render(build_catalogue())
    if "--check" in sys.argv[1:]:
        current = CATALOGUE.read_text(encoding="utf-8") if CATALOGUE.exists() else ""
        if current != text:
            print(f"{CATALOGUE} is out of date: run python -m odoo_mcp.tools.catalogue")
            return 1
        return 0
    CATALOGUE.write_text(text, encoding="utf-8")
    print(f"wrote {CATALOGUE}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
