"""Where the kit finds its data: bundled in the wheel, or the repository checkout."""

from __future__ import annotations

from pathlib import Path

__all__ = ["features_dir", "repo_root", "spec_dir"]

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
