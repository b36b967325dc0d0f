"""Where the kit finds its data: bundled in the wheel, or the repository checkout."""

from __future__ import annotations

from pathlib import Path

__all__ = ["features_dir", "find_target", "repo_root", "spec_dir", "targets_dir"]

_PACKAGE = Path(__file__).resolve().parent


def repo_root() -> Path:
    """The checkout the kit runs from (``conformance/odoo_mcp_conformance/..``)."""
    return _PACKAGE.parents[1]


def _data(name: str) -> Path:
    bundled = _PACKAGE / "_bundled" / name
    return bundled if bundled.is_dir() else repo_root() / name


def features_dir() -> Path:
    """The Gherkin features (``features/``)."""
    return _data("features")


def spec_dir() -> Path:
    """The requirement catalogue (``spec/``)."""
    return _data("spec")


def targets_dir() -> Path:
    """The targets shipped with the kit (``conformance/targets/``): the reference server's."""
    bundled = _PACKAGE / "_bundled" / "targets"
    return bundled if bundled.is_dir() else _PACKAGE.parent / "targets"


def find_target(name: str) -> Path:
    """A target file's path as given, else a shipped target by name (``reference``,
    ``reference-http``): an installed kit has no checkout to point ``--target`` into."""
    given = Path(name)
    if given.exists():
        return given
    for candidate in (targets_dir() / name, targets_dir() / f"{name}.toml"):
        if candidate.is_file():
            return candidate
    return given
