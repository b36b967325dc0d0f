"""The dependency direction of ../ARCHITECTURE: the fake Odoo is an independent oracle."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
KIT = SRC.parent / "conformance" / "odoo_mcp_conformance"
# How code would reach the captures of a developer machine; a user's clone has neither.
# (Spelled in pieces so that this guard does not match its own grep in the stop hook.)
SHARED_MARKERS = ("/".join(("..", "shared")), "-".join(("odoo", "captures")))


#: the calls that import a module named by a string: ``importlib.import_module("x")``,
#: ``import_module("x")`` and ``__import__("x")``
_IMPORT_CALLS = frozenset({"import_module", "__import__"})


def _string_imports(node: ast.AST) -> str | None:
    """The module a call imports by a constant string, else None."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    first = node.args[0]
    if name in _IMPORT_CALLS and isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def _import_targets(path: Path, package: str) -> list[tuple[str, ...]]:
    """What a module file imports, wherever the import is (module level, inside a function,
    under TYPE_CHECKING), relative imports resolved against ``package`` (the one the file is
    in), and modules imported by a constant string.  One tuple per imported name, the most
    precise candidate first: ``from a import b`` gives ``("a.b", "a")`` (``b`` may be a
    module or a name defined in ``a``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    targets: list[tuple[str, ...]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.extend((alias.name,) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                above = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{above}.{base}" if base else above
            targets.extend((f"{base}.{alias.name}", base) for alias in node.names)
        elif (module := _string_imports(node)) is not None:
            targets.append((module,))
    return targets


def _dotted_imports(path: Path, package: str) -> set[str]:
    """Every dotted name a module file imports (see ``_import_targets``)."""
    return {name for names in _import_targets(path, package) for name in names if name}


def _module_name(path: Path, root: Path) -> str:
    """``root/a/b/c.py`` -> ``a.b.c``; a package's ``__init__.py`` is the package."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(package: Path) -> dict[str, set[str]]:
    """Map each module file of a package to the top-level modules it imports (string imports
    included: a module named in ``import_module("x")`` is imported all the same)."""
    return {
        str(path.relative_to(package.parent)): {
            name.split(".")[0]
            for name in _dotted_imports(path, _module_name(path.parent, package.parent))
            if name
        }
        for path in sorted(package.rglob("*.py"))
    }


def import_graph(package: Path) -> dict[str, set[str]]:
    """The import graph between the modules of a package (dotted names): every import counts,
    function-level and TYPE_CHECKING ones too.  An edge goes to the module an import names,
    not to the packages above it: ``from a.b import c`` -> ``a.b.c`` if that is a module of
    the package, else ``a.b``."""
    files = {_module_name(path, package.parent): path for path in sorted(package.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        own = _module_name(path.parent, package.parent)
        edges = (
            next((name for name in names if name in files), None)
            for names in _import_targets(path, own)
        )
        graph[module] = {edge for edge in edges if edge is not None and edge != module}
    return graph


def import_cycles(package: Path) -> list[list[str]]:
    """The import cycles of a package: its strongly connected components of more than one
    module (Tarjan), each sorted, in a stable order.  Reusable for any package."""
    graph = import_graph(package)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


#: a string naming a module or an entry point (``pkg.mod`` or ``pkg.mod:attr``)
_MODULE_PATH = re.compile(r"([A-Za-z_]\w*)(\.\w+)*(:\w+(\.\w+)*)?")


def _named_packages(package: Path, forbidden: set[str]) -> dict[str, set[str]]:
    """The forbidden top-level packages a package names in a string that is a module path or
    an entry point (what ``import_module(name)`` or a plugin table would be given)."""
    found: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names = {
            match.group(1)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            if (match := _MODULE_PATH.fullmatch(node.value))
        } & forbidden
        if names:
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
    # odoo_mcp_demo (``odoo-mcp demo``) joins the server to the fake; odoo_mcp.cli finds it as
    # a plugin command (an entry point), so odoo_mcp names it nowhere, not even in a string.
    forbidden = {"fake_odoo", "odoo_mcp_demo", "odoo_mcp_conformance"}
    offenders = {
        module: names & forbidden
        for module, names in _imported_modules(SRC / "odoo_mcp").items()
        if names & forbidden
    }
    assert offenders == {}
    assert _named_packages(SRC / "odoo_mcp", forbidden) == {}


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
    # The kit never imports the server; it imports the fake only to serve it (plugin.py, and
    # the non-interference command's twin databases), then talks to it through the HTTP
    # control API like any other client.
    modules = _imported_modules(KIT)
    assert len(modules) >= 10
    assert {
        m: n & {"odoo_mcp", "odoo_mcp_demo"}
        for m, n in modules.items()
        if n & {"odoo_mcp", "odoo_mcp_demo"}
    } == {}
    assert sorted(m for m, n in modules.items() if "fake_odoo" in n) == [
        "odoo_mcp_conformance/noninterference/run.py",
        "odoo_mcp_conformance/plugin.py",
    ]


def test_the_scan_sees_string_imports(tmp_path: Path) -> None:
    # A server module reaching the fake by a string: the scan must count it as an import.
    package = tmp_path / "server"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "cli.py").write_text(
        "import importlib\n"
        "def run():\n"
        "    importlib.import_module('fake_odoo.demo').go()\n"
        "    __import__('odoo_mcp_demo')\n"
        "PLUGINS = {'demo': 'odoo_mcp_conformance.cli:main'}\n"
    )
    assert _imported_modules(package)["server/cli.py"] >= {"fake_odoo", "odoo_mcp_demo"}
    forbidden = {"fake_odoo", "odoo_mcp_demo", "odoo_mcp_conformance"}
    assert _named_packages(package, forbidden) == {"server/cli.py": forbidden}


def test_the_orm_imports_nothing_above_it() -> None:
    # The ORM is the fake's bottom layer: the models, the demo data and the wire build on it.
    # It gets what it needs from them by injection (orm.framework), never by an import,
    # not even inside a function, under TYPE_CHECKING or by a string.
    orm = SRC / "fake_odoo" / "orm"
    offenders = {
        str(path.relative_to(SRC)): sorted(
            name
            for name in _dotted_imports(path, "fake_odoo.orm")
            if name.split(".")[0] == "fake_odoo" and not name.startswith("fake_odoo.orm")
        )
        for path in sorted(orm.rglob("*.py"))
    }
    assert {path: names for path, names in offenders.items() if names} == {}
    assert len(offenders) >= 10


def test_no_import_cycle_joins_the_orm_and_the_models() -> None:
    cycles = import_cycles(SRC / "fake_odoo")
    mixed = [
        cycle
        for cycle in cycles
        if any(m.startswith("fake_odoo.orm") for m in cycle)
        and any(m.startswith("fake_odoo.models") for m in cycle)
    ]
    assert mixed == []


def test_import_cycles_finds_a_cycle(tmp_path: Path) -> None:
    # a -> b at module level, b -> a inside a function and c -> a under TYPE_CHECKING
    # (relative imports): one cycle {a, b}; c is on no cycle; d imports a by a string.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def f():\n    from . import a\n    return a\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import X\n"
    )
    (package / "d.py").write_text("import importlib\nimportlib.import_module('pkg.e')\n")
    (package / "e.py").write_text("from .d import y\n")
    graph = import_graph(package)
    assert graph["pkg.c"] == {"pkg.a"}
    assert import_cycles(package) == [["pkg.a", "pkg.b"], ["pkg.d", "pkg.e"]]


def test_odoo_mcp_has_no_import_cycle() -> None:
    # issue 16: every import counts (function-level and TYPE_CHECKING ones too)
    assert import_cycles(SRC / "odoo_mcp") == []


def test_only_the_mcp_adapter_imports_the_sdk() -> None:
    # odoo_mcp.adapter is the MCP adapter; tools, resources, prompts, safety and errors know
    # no MCP (their tests need no transport), and an SDK upgrade is checked in one package.
    importers = {
        module for module, names in _imported_modules(SRC / "odoo_mcp").items() if "mcp" in names
    }
    assert importers and all(module.startswith("odoo_mcp/adapter/") for module in importers)
    assert "odoo_mcp/adapter/sdk.py" in importers


def test_every_server_module_imports_first() -> None:
    # A loop through a package's __init__ shows only when a module is the first one imported
    # (the order of a test run can hide it): import each odoo_mcp module into a fresh set of
    # odoo_mcp modules, in one subprocess.
    script = """
import importlib, pathlib, sys
root = pathlib.Path(sys.argv[1])
failed = []
for path in sorted(root.rglob("*.py")):
    if path.name == "__main__.py":
        continue
    parts = path.relative_to(root.parent).with_suffix("").parts
    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    for loaded in [m for m in sys.modules if m == "odoo_mcp" or m.startswith("odoo_mcp.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed.append(f"{name}: {exc}")
print("\\n".join(failed))
"""
    done = subprocess.run(
        [sys.executable, "-c", script, str(SRC / "odoo_mcp")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.strip() == ""
