"""REQ-07-14/15: static registry file and live Odoo, merged; every conflict logged at debug.

Live wins on fields and adds the fields the file lacks; a field the file has and Odoo does
not report is left out (the module is not installed or the user may not see it, so the tools
must not accept it). Attributes Odoo never reports (default, groups, and compute where Odoo
lists no dependencies) are kept from the file. The file wins for method descriptions; live
wins for states.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from odoo_mcp.registry.fields import FieldInfo

if TYPE_CHECKING:  # the static file's models load with a file (issue 41: a start without one)
    from odoo_mcp.registry.static import StaticMethod
    from odoo_mcp.registry.workflows import MethodDoc

__all__ = ["merge_fields", "merge_methods", "merge_states"]

logger = logging.getLogger(__name__)

#: the attributes both sources describe; a difference on one of them is a conflict
_COMPARED: Final = (
    "type",
    "string",
    "required",
    "readonly",
    "store",
    "help",
    "relation",
    "selection",
    "depends",
)


def merge_fields(
    model: str, static: Mapping[str, FieldInfo], live: Mapping[str, FieldInfo]
) -> dict[str, FieldInfo]:
    """REQ-07-14/15: live fields, completed by what only the static file knows."""
    merged: dict[str, FieldInfo] = {}
    for name, field in live.items():
        known = static.get(name)
        if known is None:
            merged[name] = field
            continue
        for attribute in _COMPARED:
            ours, theirs = getattr(known, attribute), getattr(field, attribute)
            if ours != theirs:
                logger.debug(
                    "registry: %s.%s %s: live %r wins over static %r",
                    model,
                    name,
                    attribute,
                    theirs,
                    ours,
                )
        merged[name] = field.model_copy(
            update={
                "default": known.default,
                "groups": known.groups,
                "compute": field.compute if field.compute is not None else known.compute,
            }
        )
    for name in static.keys() - live.keys():
        logger.debug("registry: %s.%s is in the static file but not in Odoo: left out", model, name)
    return merged


def merge_methods(
    model: str, static: Mapping[str, StaticMethod], table: Sequence[MethodDoc]
) -> list[MethodDoc]:
    """REQ-07-14/15: the static file wins for a method's description; the rest adds."""
    # deferred: cold start, issue 17 (the workflow table is for resources and prompts)
    from odoo_mcp.registry.workflows import MethodDoc

    merged: list[MethodDoc] = []
    for method in table:
        known = static.get(method.name)
        if known is None:
            merged.append(method)
            continue
        if known.description and known.description != method.description:
            logger.debug(
                "registry: %s.%s description: static %r wins over %r",
                model,
                method.name,
                known.description,
                method.description,
            )
        merged.append(
            MethodDoc(
                name=method.name,
                description=known.description or method.description,
                accepts_kwargs=known.accepts_kwargs,
            )
        )
    listed = {method.name for method in table}
    merged += [
        MethodDoc(name=name, description=spec.description, accepts_kwargs=spec.accepts_kwargs)
        for name, spec in sorted(static.items())
        if name not in listed
    ]
    return merged


def merge_states(
    model: str,
    static: Sequence[tuple[str, str]] | None,
    live: Sequence[tuple[str, str]] | None,
) -> tuple[tuple[str, str], ...] | None:
    """REQ-07-14/15: live states win; the static file's only where Odoo has none."""
    if live is None:
        return tuple(static) if static is not None else None
    if static is not None and tuple(static) != tuple(live):
        logger.debug("registry: %s states: live %r wins over static %r", model, live, static)
    return tuple(live)
