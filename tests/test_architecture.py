"""The dependency direction of ../ARCHITECTURE: the fake Odoo is an independent oracle."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
KIT = SRC.parent / "conformance" / "odoo_mcp_conformance"
# How code would reach the captures of a developer machine; a user's clone has neither.
# (Spelled in pieces so that this guard does not match its own grep in the stop hook.)
SHARED_MARKERS = ("/".join(("..", "shared")), "-".join(("odoo", "captures")))


def _imported_modules(package: Path) -> dict[str, set[str]]:
    """Map each module file of a package to the top-level modules it imports."""
    found: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(package.parent))] = names
    return found


def test_fake_odoo_never_imports_the_server() -> None:
    server = {"odoo_mcp", "odoo_mcp_demo", "odoo_mcp_conformance"}
    offenders = {
        module: names & server
        for module, names in _imported_modules(SRC / "fake_odoo").items()
        if names & server
    }
    assert offenders == {}


def test_server_never_imports_the_fake() -> None:
    # odoo_mcp_demo (``odoo-mcp demo``) joins the server to the fake; odoo_mcp.cli loads it by
    # name only when that command runs, so no import statement of odoo_mcp names it.
    forbidden = {"fake_odoo", "odoo_mcp_demo", "odoo_mcp_conformance"}
    offenders = {
        module: names & forbidden
        for module, names in _imported_modules(SRC / "odoo_mcp").items()
        if names & forbidden
    }
    assert offenders == {}


def test_the_demo_launcher_is_the_bridge() -> None:
    # The one place that imports both; the kit still judges servers only through MCP.
    imported = set().union(*_imported_modules(SRC / "odoo_mcp_demo").values())
    assert {"odoo_mcp", "fake_odoo"} <= imported
    assert "odoo_mcp_conformance" not in imported


def test_the_scan_sees_imports() -> None:
    # Guard against a scan that silently finds nothing (wrong path, empty tree).
    modules = _imported_modules(SRC / "fake_odoo")
    assert len(modules) >= 5
    assert any("starlette" in names for names in modules.values())


def test_nothing_reads_the_shared_folder_at_run_time() -> None:
    root = SRC.parent
    offenders = [
        str(path.relative_to(root))
        for folder in ("src", "tests", "bench", "conformance")
        for path in (root / folder).rglob("*.py")
        if path != Path(__file__).resolve()
        and any(marker in path.read_text(encoding="utf-8") for marker in SHARED_MARKERS)
    ]
    assert offenders == []


def test_the_kit_judges_only_through_mcp() -> None:
    # The kit never imports the server; it imports the fake only to serve it (plugin.py),
    # then talks to it through the HTTP control API like any other client.
    modules = _imported_modules(KIT)
    assert len(modules) >= 10
    assert {
        m: n & {"odoo_mcp", "odoo_mcp_demo"}
        for m, n in modules.items()
        if n & {"odoo_mcp", "odoo_mcp_demo"}
    } == {}
    assert sorted(m for m, n in modules.items() if "fake_odoo" in n) == [
        "odoo_mcp_conformance/plugin.py"
    ]
