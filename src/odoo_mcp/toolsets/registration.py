"""SPEC-03 REQ-03-04..12: the toolset registry: order, check, register, report.

At start-up (after Odoo is connected, before the first request) the registry orders the
toolsets by their dependencies, checks each one's prerequisites against the configuration and
the connected Odoo, registers the tools of those that can run and records why the others were
skipped. The report is logged and served by ``odoo://system/toolsets`` and
``odoo_core_list_toolsets``. After a reconnection the check runs again: if the tools that
can run change, the dispatcher tells clients (REQ-03-17/18).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Literal

from odoo_mcp.connection import OdooCalls
from odoo_mcp.connection.version import OdooVersion, parse_version
from odoo_mcp.toolsets.base import AnySpec, BaseToolset, ToolsetMetadata
from odoo_mcp.toolsets.report import RegistrationReport, ToolsetRegistrationResult

__all__ = [
    "DuplicateToolError",
    "RegistrationReport",
    "ToolsetCheckFailed",
    "ToolsetCycleError",
    "ToolsetRegistrationResult",
    "ToolsetRegistry",
    "dependency_order",
]

logger = logging.getLogger(__name__)

#: REQ-11-04/05: whether the mode lets the server register a tool
ToolFilter = Callable[[AnySpec], bool]


class ToolsetCycleError(ValueError):
    """REQ-03-06: toolsets depend on each other in a cycle; the start stops."""

    def __init__(self, cycle: Sequence[str]) -> None:
        self.cycle = tuple(cycle)
        super().__init__(f"toolset dependency cycle: {' -> '.join(cycle)}")


class ToolsetCheckFailed(RuntimeError):
    """REQ-03-09: a prerequisite check Odoo could not answer (the report says which)."""

    def __init__(self, report: RegistrationReport) -> None:
        self.report = report
        failed = [r.name for r in report.results if r.status == "failed"]
        super().__init__(f"toolset check failed for {', '.join(failed)}")


class DuplicateToolError(ValueError):
    """REQ-03-12: two tools share one name; the start stops and names both owners."""


def dependency_order(toolsets: Iterable[BaseToolset]) -> list[BaseToolset]:
    """REQ-03-06: the toolsets ordered so that each comes after those it depends on.

    Ties keep the declared order. A dependency on a toolset that does not exist is left to
    the prerequisite check (the dependant is skipped); a cycle raises ``ToolsetCycleError``
    naming it.
    """
    by_name = {toolset.metadata().name: toolset for toolset in toolsets}
    ordered: list[BaseToolset] = []
    state: dict[str, Literal["visiting", "done"]] = {}

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == "done" or name not in by_name:
            return
        if state.get(name) == "visiting":
            raise ToolsetCycleError([*path[path.index(name) :], name])
        state[name] = "visiting"
        for dependency in by_name[name].metadata().depends_on:
            visit(dependency, [*path, name])
        state[name] = "done"
        ordered.append(by_name[name])

    for name in by_name:
        visit(name, [])
    return ordered


def _version_key(text: str) -> tuple[int, int]:
    version = parse_version(text)
    return version.major, version.minor


def version_problem(metadata: ToolsetMetadata, version: OdooVersion | None) -> str | None:
    """REQ-03-07 (2): why the connected version is outside the toolset's range, or None.

    An unknown version (every probe failed, REQ-02a-09) is not held against a toolset.
    """
    if version is None or version.level == "unknown":
        return None
    found = (version.major, version.minor)
    if found < _version_key(metadata.min_odoo_version):
        return f"Odoo {version} is older than {metadata.min_odoo_version}"
    if metadata.max_odoo_version and found > _version_key(metadata.max_odoo_version):
        return f"Odoo {version} is newer than {metadata.max_odoo_version}"
    return None


class ToolsetRegistry:
    """REQ-03-04: discovers (from an explicit list), orders, checks and registers toolsets.

    ``enabled`` and ``disabled`` are the configuration's ``enabled_toolsets`` (an allowlist;
    empty means every toolset enabled by default) and ``disabled_toolsets`` (a blocklist).
    ``visible`` is the mode's filter: a tool it hides is never registered (REQ-11-05).
    """

    def __init__(
        self,
        toolsets: Iterable[BaseToolset],
        *,
        enabled: Iterable[str] = (),
        disabled: Iterable[str] = (),
        visible: ToolFilter = lambda spec: True,
    ) -> None:
        self.toolsets = dependency_order(toolsets)  # a cycle stops the start here
        self.enabled = frozenset(enabled)
        self.disabled = frozenset(disabled)
        self.visible = visible
        self._owners: dict[str, str] = {}
        self._tools: dict[str, AnySpec] = {}
        self.report = RegistrationReport(
            results=[],
            total_toolsets=len(self.toolsets),
            registered_toolsets=0,
            total_tools=0,
            timestamp=_now(),
        )
        self._check_unique_names()

    def _check_unique_names(self) -> None:
        """REQ-03-12: tool names are unique across every toolset the configuration enables
        (checked before Odoo is asked anything, so that a clash never depends on modules).
        A toolset left out by the configuration is not even loaded (the contracts' schemas
        cost start-up time)."""
        owners: dict[str, tuple[str, str]] = {}
        for toolset in self.toolsets:
            if self.config_problem(toolset.metadata()) is not None:
                continue
            name = toolset.metadata().name
            for spec in toolset.tools():
                owner = (name, spec.owner_module())
                if spec.name in owners:
                    first = owners[spec.name]
                    raise DuplicateToolError(
                        f"two tools are named {spec.name}: one in toolset {first[0]} "
                        f"({first[1]}), one in toolset {owner[0]} ({owner[1]})"
                    )
                owners[spec.name] = owner

    # -- the configuration's part of REQ-03-07, known before Odoo is reached ---------------

    def config_problem(self, metadata: ToolsetMetadata) -> str | None:
        """REQ-03-07 (4): why the configuration leaves this toolset out, or None."""
        if metadata.name in self.disabled:
            return "disabled by disabled_toolsets"
        if self.enabled and metadata.name not in self.enabled:
            return "not listed in enabled_toolsets"
        if not self.enabled and not metadata.enabled_by_default:
            return "enabled only on request: add it to enabled_toolsets (decision 28)"
        return None

    # -- registration -----------------------------------------------------------------------

    async def recheck(self, odoo: OdooCalls) -> bool:
        """REQ-03-17: check again after a reconnection; True when the registered tools
        changed. A check Odoo could not answer (a ``failed`` toolset) changes nothing: the
        tools served so far stay until a check succeeds, instead of vanishing on a hiccup."""
        before = (self._tools, self._owners, self.report)
        report = await self.discover_and_register(odoo)
        if any(result.status == "failed" for result in report.results):
            self._tools, self._owners, self.report = before
            raise ToolsetCheckFailed(report)
        return set(self._tools) != set(before[0])

    async def discover_and_register(self, odoo: OdooCalls) -> RegistrationReport:
        """REQ-03-04/07/08: check every toolset in dependency order; register what can run.

        One ``ir.module.module`` query answers the module check of every candidate toolset
        (none when no candidate needs a module). A toolset whose check cannot be made (Odoo
        refuses the query) is ``failed`` with the error; the start goes on without it.
        """
        candidates = [t for t in self.toolsets if self.config_problem(t.metadata()) is None]
        needed = sorted({m for t in candidates for m in t.metadata().required_modules})
        installed: frozenset[str] | None = frozenset()
        module_error: str | None = None
        if needed:
            try:
                installed = await installed_modules(odoo, needed)
            except Exception as exc:  # the check failed: the toolsets needing it are failed
                installed, module_error = None, f"could not read installed modules: {exc}"
        results: list[ToolsetRegistrationResult] = []
        registered: set[str] = set()
        tools: dict[str, AnySpec] = {}
        owners: dict[str, str] = {}
        for toolset in self.toolsets:
            metadata = toolset.metadata()
            reason = self._problem(metadata, odoo.odoo_version, installed, registered)
            if reason is None and installed is None and metadata.required_modules:
                results.append(_failed(metadata.name, module_error))
                continue
            if reason is not None:
                logger.info("toolset %s skipped: %s", metadata.name, reason)
                results.append(
                    ToolsetRegistrationResult(
                        name=metadata.name,
                        status="skipped",
                        tools_registered=[],
                        skip_reason=reason,
                    )
                )
                continue
            names = self._register(toolset, tools, owners)
            registered.add(metadata.name)
            results.append(
                ToolsetRegistrationResult(
                    name=metadata.name, status="registered", tools_registered=names
                )
            )
        self._tools, self._owners = tools, owners
        self.report = RegistrationReport(
            results=results,
            total_toolsets=len(results),
            registered_toolsets=len(registered),
            total_tools=len(tools),
            timestamp=_now(),
        )
        logger.info(
            "toolsets: %d of %d registered, %d tools (%s)",
            self.report.registered_toolsets,
            self.report.total_toolsets,
            self.report.total_tools,
            ", ".join(f"{r.name} {r.status}" for r in results),
        )
        return self.report

    def _problem(
        self,
        metadata: ToolsetMetadata,
        version: OdooVersion | None,
        installed: frozenset[str] | None,
        registered: set[str],
    ) -> str | None:
        """REQ-03-07: the first unmet prerequisite, in the spec's order (modules, version,
        dependencies), after the configuration's filters."""
        reason = self.config_problem(metadata)
        if reason is not None:
            return reason
        if installed is not None:
            missing = [m for m in metadata.required_modules if m not in installed]
            if missing:
                names = ", ".join(f"'{m}'" for m in missing)
                return f"module{'s' if len(missing) > 1 else ''} {names} not installed"
        reason = version_problem(metadata, version)
        if reason is not None:
            return reason
        for dependency in metadata.depends_on:
            if dependency not in registered:
                return f"depends on toolset '{dependency}', which is not registered"
        return None

    def _register(
        self, toolset: BaseToolset, tools: dict[str, AnySpec], owners: dict[str, str]
    ) -> list[str]:
        """REQ-03-03: register the toolset's tools the mode lets through; their names."""
        name = toolset.metadata().name
        names = []
        for spec in toolset.tools():
            if self.visible(spec):
                tools[spec.name] = spec
                owners[spec.name] = name
                names.append(spec.name)
        return names

    # -- queries ----------------------------------------------------------------------------

    def tools(self) -> list[AnySpec]:
        """The registered tools, in registration order."""
        return list(self._tools.values())

    def tool_names(self) -> tuple[str, ...]:
        """REQ-03-19: the registered tools' names."""
        return tuple(self._tools)

    def get_registered_toolsets(self) -> list[ToolsetMetadata]:
        """REQ-03-04: the metadata of every registered toolset, in dependency order."""
        done = {r.name for r in self.report.results if r.status == "registered"}
        return [t.metadata() for t in self.toolsets if t.metadata().name in done]

    def get_toolset_for_tool(self, tool: str) -> str | None:
        """REQ-03-04: the toolset that registered a tool, or None."""
        return self._owners.get(tool)

    def tools_by_toolset(self) -> Mapping[str, list[str]]:
        """REQ-03-19: each registered toolset's tool names."""
        grouped: dict[str, list[str]] = {}
        for tool, owner in self._owners.items():
            grouped.setdefault(owner, []).append(tool)
        return grouped


async def installed_modules(odoo: OdooCalls, names: Sequence[str]) -> frozenset[str]:
    """REQ-03-07 (1): which of these modules Odoo has installed (one ``ir.module.module``
    search_read on ``name in [...]`` and ``state = installed``)."""
    rows = await odoo.search_read(
        "ir.module.module", [["name", "in", list(names)], ["state", "=", "installed"]], ["name"]
    )
    return frozenset(str(row.get("name")) for row in rows)


def _failed(name: str, error: str | None) -> ToolsetRegistrationResult:
    logger.warning("toolset %s failed: %s", name, error)
    return ToolsetRegistrationResult(name=name, status="failed", tools_registered=[], error=error)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
