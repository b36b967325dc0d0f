"""SPEC-03: the toolset registry orders, checks, registers and reports (REQ-03-04..12)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from pydantic import BaseModel

from odoo_mcp.connection.version import OdooVersion, parse_version
from odoo_mcp.context import ServerContext
from odoo_mcp.safety.annotations import CHANGES, READS
from odoo_mcp.tools.spec import ToolSpec
from odoo_mcp.toolsets import (
    ALL_TOOLSETS,
    AnySpec,
    BaseToolset,
    DuplicateToolError,
    ToolsetCycleError,
    ToolsetMetadata,
    ToolsetRegistry,
    all_tools,
)
from odoo_mcp.toolsets.registration import ToolsetCheckFailed, dependency_order

pytestmark = pytest.mark.anyio


class _Empty(BaseModel):
    pass


async def _noop(ctx: ServerContext, params: _Empty) -> _Empty:
    return _Empty()


def _tool(name: str, *, read_only: bool = True) -> AnySpec:
    hints = READS if read_only else CHANGES
    return ToolSpec(name=name, title=name, description=name, input_model=_Empty,
                    result_model=_Empty, handler=_noop, hints=hints)  # fmt: skip


class _Toolset(BaseToolset):
    def __init__(self, *tools: AnySpec, **metadata: Any) -> None:
        self._metadata = ToolsetMetadata(description="test", **metadata)
        self._tools = tools

    def metadata(self) -> ToolsetMetadata:
        return self._metadata

    def tools(self) -> Sequence[AnySpec]:
        return self._tools


class _Odoo:
    """What the registration asks of Odoo: its version and installed modules."""

    def __init__(self, version: str = "19.0", modules: Sequence[str] = (), fail: bool = False):
        self.odoo_version: OdooVersion | None = parse_version(version)
        self.modules, self.fail = set(modules), fail
        self.queries: list[list[Any]] = []

    async def search_read(
        self, model: str, domain: Sequence[Any], fields: Sequence[str]
    ) -> list[Mapping[str, Any]]:
        assert model == "ir.module.module" and list(fields) == ["name"]
        self.queries.append(list(domain))
        if self.fail:
            raise RuntimeError("AccessError: no access to modules")
        wanted = domain[0][2]
        return [{"name": name} for name in wanted if name in self.modules]


CORE = _Toolset(_tool("odoo_core_a"), name="core")


def _by_name(registry: ToolsetRegistry) -> dict[str, Any]:
    return {result.name: result for result in registry.report.results}


@pytest.mark.req("REQ-03-06")
def test_toolsets_come_after_what_they_depend_on() -> None:
    sales = _Toolset(name="sales", depends_on=("core",))
    crm = _Toolset(name="crm", depends_on=("sales", "core"))
    ordered = dependency_order([crm, sales, CORE])
    assert [t.metadata().name for t in ordered] == ["core", "sales", "crm"]


@pytest.mark.req("REQ-03-06")
def test_a_dependency_cycle_stops_the_start_and_names_it() -> None:
    a = _Toolset(name="a", depends_on=("b",))
    b = _Toolset(name="b", depends_on=("c",))
    c = _Toolset(name="c", depends_on=("a",))
    with pytest.raises(ToolsetCycleError, match="a -> b -> c -> a") as raised:
        ToolsetRegistry([CORE, a, b, c])
    assert raised.value.cycle == ("a", "b", "c", "a")


@pytest.mark.req("REQ-03-12")
def test_two_tools_of_one_name_stop_the_start_naming_both_toolsets() -> None:
    other = _Toolset(_tool("odoo_core_a"), name="other")
    with pytest.raises(DuplicateToolError, match=r"odoo_core_a: one in toolset core .* other"):
        ToolsetRegistry([CORE, other])


@pytest.mark.req("REQ-03-04", "REQ-03-07", "REQ-03-08", "REQ-03-09")
async def test_a_toolset_without_its_modules_is_skipped_with_the_reason() -> None:
    sales = _Toolset(_tool("odoo_sales_x"), name="sales", required_modules=("sale", "stock"),
                     depends_on=("core",))  # fmt: skip
    odoo = _Odoo(modules=["sale"])
    registry = ToolsetRegistry([CORE, sales])
    report = await registry.discover_and_register(odoo)  # type: ignore[arg-type]
    result = _by_name(registry)["sales"]
    assert (result.status, result.skip_reason) == ("skipped", "module 'stock' not installed")
    assert result.tools_registered == [] and registry.tool_names() == ("odoo_core_a",)
    assert (report.total_toolsets, report.registered_toolsets, report.total_tools) == (2, 1, 1)
    assert report.timestamp.endswith("Z") and "T" in report.timestamp
    # REQ-03-07 (1): one query, on name in [...] and state = installed
    assert odoo.queries == [[["name", "in", ["sale", "stock"]], ["state", "=", "installed"]]]


@pytest.mark.req("REQ-03-01", "REQ-03-03", "REQ-03-04", "REQ-03-07", "REQ-03-16")
async def test_with_its_modules_a_toolset_is_registered() -> None:
    sales = _Toolset(_tool("odoo_sales_x"), name="sales", required_modules=("sale",),
                     depends_on=("core",))  # fmt: skip
    registry = ToolsetRegistry([CORE, sales])
    await registry.discover_and_register(_Odoo(modules=["sale"]))  # type: ignore[arg-type]
    assert _by_name(registry)["sales"].tools_registered == ["odoo_sales_x"]
    assert registry.get_toolset_for_tool("odoo_sales_x") == "sales"
    assert [m.name for m in registry.get_registered_toolsets()] == ["core", "sales"]


@pytest.mark.req("REQ-03-07")
async def test_no_module_query_when_no_toolset_needs_a_module() -> None:
    odoo = _Odoo()
    await ToolsetRegistry([CORE]).discover_and_register(odoo)  # type: ignore[arg-type]
    assert odoo.queries == []


@pytest.mark.req("REQ-03-07", "REQ-03-08")
@pytest.mark.parametrize(
    ("version", "reason"),
    [("15.0", "Odoo 15.0 is older than 16.0"), ("19.0", "Odoo 19.0 is newer than 18.0"),
     ("17.0", None)],
)  # fmt: skip
async def test_the_odoo_version_must_be_in_the_toolsets_range(
    version: str, reason: str | None
) -> None:
    ranged = _Toolset(_tool("odoo_r_x"), name="r", min_odoo_version="16.0",
                      max_odoo_version="18.0")  # fmt: skip
    registry = ToolsetRegistry([ranged])
    await registry.discover_and_register(_Odoo(version))  # type: ignore[arg-type]
    assert _by_name(registry)["r"].skip_reason == reason


@pytest.mark.req("REQ-03-07")
async def test_a_toolset_whose_dependency_is_not_registered_is_skipped() -> None:
    sales = _Toolset(name="sales", depends_on=("core",))
    registry = ToolsetRegistry([CORE, sales], disabled=["core"])
    await registry.discover_and_register(_Odoo())  # type: ignore[arg-type]
    results = _by_name(registry)
    assert results["core"].skip_reason == "disabled by disabled_toolsets"
    assert results["sales"].skip_reason == "depends on toolset 'core', which is not registered"


@pytest.mark.req("REQ-03-07")
async def test_the_configuration_filters_toolsets() -> None:
    opt_in = _Toolset(name="shop", enabled_by_default=False)
    other = _Toolset(name="other")
    registry = ToolsetRegistry([CORE, opt_in, other], enabled=["core"])
    await registry.discover_and_register(_Odoo())  # type: ignore[arg-type]
    assert _by_name(registry)["other"].skip_reason == "not listed in enabled_toolsets"
    registry = ToolsetRegistry([CORE, opt_in, other])
    await registry.discover_and_register(_Odoo())  # type: ignore[arg-type]
    results = _by_name(registry)
    assert "decision 28" in (results["shop"].skip_reason or "")
    assert results["other"].status == "registered"


@pytest.mark.req("REQ-03-09")
async def test_a_check_odoo_refuses_is_a_failed_toolset_not_a_failed_start() -> None:
    sales = _Toolset(_tool("odoo_sales_x"), name="sales", required_modules=("sale",))
    registry = ToolsetRegistry([CORE, sales])
    await registry.discover_and_register(_Odoo(fail=True))  # type: ignore[arg-type]
    results = _by_name(registry)
    assert results["core"].status == "registered"
    assert results["sales"].status == "failed" and "AccessError" in (results["sales"].error or "")


async def test_the_mode_filter_decides_which_tools_register() -> None:
    """REQ-11-05: a tool the mode hides is not registered, its toolset still is."""
    toolset = _Toolset(_tool("odoo_core_a"), _tool("odoo_core_b", read_only=False), name="core")
    registry = ToolsetRegistry([toolset], visible=lambda spec: spec.hints.read_only)
    await registry.discover_and_register(_Odoo())  # type: ignore[arg-type]
    assert _by_name(registry)["core"].tools_registered == ["odoo_core_a"]


@pytest.mark.req("REQ-03-02", "REQ-03-05")
def test_the_servers_toolsets_are_an_explicit_list_with_the_catalogue_metadata() -> None:
    metadata = {t.metadata().name: t.metadata() for t in ALL_TOOLSETS}
    declared = {"name", "description", "version", "required_modules", "min_odoo_version",
                "max_odoo_version", "depends_on", "tags"}  # fmt: skip
    assert declared <= set(ToolsetMetadata.model_fields)
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", m.version) for m in metadata.values())
    assert all(m.description and m.tags for m in metadata.values())
    assert metadata["core"].required_modules == () and metadata["core"].depends_on == ()
    assert metadata["contracts"].required_modules == ("sale", "stock")
    assert metadata["contracts"].depends_on == ("core",)
    assert all(m.min_odoo_version == "14.0" for m in metadata.values())


@pytest.mark.req("REQ-03-11")
def test_core_tools_are_named_by_their_toolset() -> None:
    core = next(t for t in ALL_TOOLSETS if t.metadata().name == "core")
    assert all(spec.name.startswith("odoo_core_") for spec in core.tools())
    assert len({spec.name for spec in all_tools()}) == len(all_tools())


@pytest.mark.req("REQ-03-17")
async def test_a_recheck_odoo_cannot_answer_keeps_the_tools_served() -> None:
    sales = _Toolset(_tool("odoo_sales_x"), name="sales", required_modules=("sale",))
    registry = ToolsetRegistry([CORE, sales])
    await registry.discover_and_register(_Odoo(modules=["sale"]))  # type: ignore[arg-type]
    with pytest.raises(ToolsetCheckFailed, match="sales"):
        await registry.recheck(_Odoo(fail=True))  # type: ignore[arg-type]
    assert registry.tool_names() == ("odoo_core_a", "odoo_sales_x")
    assert _by_name(registry)["sales"].status == "registered"
    # a check that succeeds and finds the module gone changes the tools
    assert await registry.recheck(_Odoo(modules=[]))  # type: ignore[arg-type]
    assert registry.tool_names() == ("odoo_core_a",)
    assert not await registry.recheck(_Odoo(modules=[]))  # type: ignore[arg-type]
