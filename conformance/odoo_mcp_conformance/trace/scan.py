"""Where requirements are implemented (docstring tags) and tested (feature-file tags)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from odoo_mcp_conformance.catalogue import REQ_ID

__all__ = ["CodeTag", "ScenarioTags", "scan_code", "scan_features"]


@dataclass(frozen=True, order=True)
class CodeTag:
    req_id: str
    path: str
    line: int
    name: str

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line} {self.name}"


@dataclass(frozen=True, order=True)
class ScenarioTags:
    feature: str
    scenario: str
    line: int
    requirements: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.feature}: {self.scenario}"


_Documented = ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
#: a tag with the shorthands docstrings use: ``REQ-04a-02/03/13`` and ``REQ-04-35..37``
_TAG = re.compile(r"REQ-(\d{2}[a-z]?|[A-Z]+)-(\d{2})((?:/\d{2})*)(?:\.\.(\d{2}))?")


def expand_tags(text: str) -> list[str]:
    """Every id a text names, shorthands expanded (``REQ-11-04/05`` names 04 and 05)."""
    found: list[str] = []
    for match in _TAG.finditer(text):
        prefix, first, more, last = match.groups()
        numbers = [int(first), *(int(n) for n in more.split("/") if n)]
        if last:
            numbers += range(int(first) + 1, int(last) + 1)
        found += [f"REQ-{prefix}-{n:02d}" for n in numbers]
    return found


def _docstrings(tree: ast.Module) -> Iterable[tuple[str, int, str]]:
    """(qualified name, line, docstring) of the classes and functions.

    A module's docstring summarises what the module is about; the code that implements a
    requirement is the function or class whose docstring names it, so only those count.
    """

    def visit(node: ast.AST, prefix: str) -> Iterable[tuple[str, int, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                doc = ast.get_docstring(child, clean=False)
                if doc:
                    yield name, child.lineno, doc
                yield from visit(child, name + ".")

    yield from visit(tree, "")


def scan_code(directories: Iterable[Path], relative_to: Path) -> list[CodeTag]:
    """REQ ids named in docstrings (AST scan: comments and strings elsewhere don't count)."""
    tags: set[CodeTag] = set()
    for directory in directories:
        for path in sorted(directory.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            try:
                shown = path.resolve().relative_to(relative_to.resolve()).as_posix()
            except ValueError:
                shown = path.as_posix()
            for name, line, doc in _docstrings(tree):
                for req_id in expand_tags(doc):
                    tags.add(CodeTag(req_id, shown, line, name))
    return sorted(tags)


def scan_features(directory: Path) -> list[ScenarioTags]:
    """Scenarios with their REQ tags (feature-level tags apply to every scenario)."""
    found: list[ScenarioTags] = []
    for path in sorted(directory.rglob("*.feature")):
        feature_tags: set[str] = set()
        pending: set[str] = set()
        in_feature = False
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line = raw.strip()
            if line.startswith("@"):
                pending |= {tag.lstrip("@") for tag in line.split() if tag.startswith("@")}
            elif line.startswith("Feature:"):
                feature_tags, pending, in_feature = pending, set(), True
            elif line.startswith(("Scenario:", "Scenario Outline:", "Example:")) and in_feature:
                tags = {t for t in feature_tags | pending if REQ_ID.fullmatch(t)}
                name = line.split(":", 1)[1].strip()
                found.append(ScenarioTags(path.name, name, number, tuple(sorted(tags))))
                pending = set()
            elif line.startswith("Rule:"):
                pending = set()
    return found
