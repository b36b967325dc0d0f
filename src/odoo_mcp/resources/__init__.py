"""SPEC-06: the ``odoo://`` resources (system, configuration, model metadata, records)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from odoo_mcp.resources.uris import ResourceRef, parse_uri

if TYPE_CHECKING:
    from odoo_mcp.resources.reader import RESOURCES, TEMPLATES, read_resource

__all__ = ["RESOURCES", "TEMPLATES", "ResourceRef", "parse_uri", "read_resource"]

#: deferred: cold start, issue 17 — the reader (and the tools it reuses) loads on first use;
#: ``odoo_mcp.resources.uris`` is needed earlier, by the error adapter
_DEFERRED = frozenset({"RESOURCES", "TEMPLATES", "read_resource"})


def __getattr__(name: str) -> object:
    """The reader's names, imported when first asked for (PEP 562)."""
    if name not in _DEFERRED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module("odoo_mcp.resources.reader"), name)
