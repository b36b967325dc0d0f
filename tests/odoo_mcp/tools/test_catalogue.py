"""Issue 41: the core tools are listed from the catalogue kept with the package, and loaded
from their modules on first use; the catalogue is what the modules would list."""

from __future__ import annotations

import dataclasses
import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic.version import VERSION as PYDANTIC_VERSION

from odoo_mcp.adapter.tools import tool_definition
from odoo_mcp.tools import catalogue
from odoo_mcp.tools.catalogue import (
    CATALOGUE,
    CORE_MODULES,
    DeferredToolSpec,
    StaleCatalogue,
    core_tools,
)
from odoo_mcp.tools.spec import ToolSpec
from odoo_mcp.toolsets.core import CoreToolset

STALE = "src/odoo_mcp/tools/catalogue.json is out of date: run python -m odoo_mcp.tools.catalogue"


def _module_specs() -> list[ToolSpec[Any, Any]]:
    return [spec for module in CORE_MODULES for spec in importlib.import_module(module).TOOLS]


def _written() -> dict[str, Any]:
    written: dict[str, Any] = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    return written


def _without_schemas(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in tool.items() if not k.endswith("_schema")} for tool in tools]


def test_the_catalogue_is_what_the_tool_modules_list() -> None:
    built = catalogue.build_catalogue()
    written = _written()
    # what no pydantic version changes: names, titles, descriptions, hints, _meta, modules
    assert _without_schemas(written["tools"]) == _without_schemas(built["tools"]), STALE
    if written["pydantic"] == PYDANTIC_VERSION:  # the schemas, as this pydantic writes them
        assert CATALOGUE.read_text(encoding="utf-8") == catalogue.render(built), STALE
    else:  # written by another pydantic: the start serves the modules' own specs instead
        assert not any(isinstance(spec, DeferredToolSpec) for spec in core_tools())


def test_under_another_pydantic_or_unreadable_the_modules_are_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = {**_written(), "pydantic": "1.0"}
    for text in (json.dumps(other), "{not json", None):
        path = tmp_path / "catalogue.json"
        path.unlink(missing_ok=True)
        if text is not None:
            path.write_text(text, encoding="utf-8")
        monkeypatch.setattr(catalogue, "CATALOGUE", path)
        core_tools.cache_clear()
        try:
            served = core_tools()
        finally:
            core_tools.cache_clear()
        assert list(served) == _module_specs()
        assert not any(isinstance(spec, DeferredToolSpec) for spec in served)


def test_a_listed_core_tool_is_the_tool_its_module_defines() -> None:
    listed = CoreToolset().tools()
    defined = _module_specs()
    assert [spec.name for spec in listed] == [spec.name for spec in defined]
    current = _written()["pydantic"] == PYDANTIC_VERSION
    for deferred, spec in zip(listed, defined, strict=True):
        assert isinstance(deferred, DeferredToolSpec) == current
        assert tool_definition(deferred).model_dump() == tool_definition(spec).model_dump()
        for field in dataclasses.fields(ToolSpec):  # loaded: every field is the module's
            assert getattr(deferred, field.name) == getattr(spec, field.name), field.name
        assert deferred.owner_module() == spec.owner_module()


@pytest.mark.parametrize(
    "change",
    [
        {"hints": {"read_only": True, "destructive": False, "idempotent": True}},
        {"description": "another text"},
        {"name": "odoo_core_no_such_tool"},
    ],
)
def test_a_tool_listed_otherwise_than_its_module_defines_it_is_refused(
    change: dict[str, Any],
) -> None:
    # fails closed: a write tool listed read-only would be visible, and read, in read-only mode
    entry = next(e for e in _written()["tools"] if e["name"] == "odoo_core_unlink")
    deferred = DeferredToolSpec({**entry, **change})
    with pytest.raises(StaleCatalogue, match=r"run python -m odoo_mcp\.tools\.catalogue"):
        deferred.handler  # noqa: B018 (the first use loads)
    with pytest.raises(StaleCatalogue):
        deferred.operation_of(None)
    assert DeferredToolSpec(entry).load().name == "odoo_core_unlink"  # unchanged: loads


@pytest.mark.parametrize(
    "field", [f.name for f in dataclasses.fields(ToolSpec) if f.default is not dataclasses.MISSING]
)
def test_a_field_with_a_default_is_the_modules_on_its_first_read(field: str) -> None:
    # ToolSpec's defaults (operation=None, ...) are never what a deferred spec answers
    specs = {spec.name: spec for spec in _module_specs()}
    for entry in _written()["tools"]:
        first_read = getattr(DeferredToolSpec(entry), field)
        assert first_read == getattr(specs[entry["name"]], field), (entry["name"], field)


def test_one_set_of_core_tools_per_process() -> None:
    assert core_tools() is core_tools()
    assert CoreToolset().tools() is CoreToolset().tools()


def test_listing_imports_no_tool_module_and_a_first_use_imports_its_own() -> None:
    # in a child: this process has imported the tool modules already
    code = (
        "import json, sys\n"
        "from odoo_mcp.tools import catalogue\n"
        "# the catalogue's own pydantic, so that the check holds whichever one is installed\n"
        "catalogue.PYDANTIC_VERSION = json.loads(catalogue.CATALOGUE.read_text())['pydantic']\n"
        "from odoo_mcp.adapter.tools import tool_definition\n"
        "from odoo_mcp.toolsets.core import CoreToolset\n"
        "specs = {spec.name: spec for spec in CoreToolset().tools()}\n"
        "for spec in specs.values():\n"
        "    tool_definition(spec); spec.kind; spec.owner_module()\n"
        "mods = lambda: sorted(m for m in sys.modules if m.startswith('odoo_mcp.tools.core_'))\n"
        "print(mods())\n"
        "specs['odoo_core_fields_get'].input_model\n"
        "print(mods())\n"
    )
    before, after = subprocess.check_output([sys.executable, "-c", code], text=True).splitlines()
    assert before == "[]"  # no tool module, nor their shared helpers (issue 41)
    assert "'odoo_mcp.tools.core_meta'" in after
    assert "'odoo_mcp.tools.core_read'" not in after and "core_write" not in after


def test_the_check_mode_fails_on_a_stale_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = tmp_path / "catalogue.json"
    stale.write_text("[]\n", encoding="utf-8")
    monkeypatch.setattr(catalogue, "CATALOGUE", stale)
    monkeypatch.setattr(sys, "argv", ["catalogue", "--check"])
    assert catalogue.main() == 1
    assert "out of date" in capsys.readouterr().out
    monkeypatch.setattr(sys, "argv", ["catalogue"])  # writing it brings it up to date
    assert catalogue.main() == 0
    monkeypatch.setattr(sys, "argv", ["catalogue", "--check"])
    assert catalogue.main() == 0
    assert stale.read_text(encoding="utf-8") == CATALOGUE.read_text(encoding="utf-8")
