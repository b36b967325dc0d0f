"""REQ-11-14 (issue 37): what one tool call's log records, audit line and error answer must not
hold, found from its arguments with the policy and the metadata already cached (no Odoo call).

:class:`~odoo_mcp.safety.scrub.Redaction` removes the values; this module decides which:
those the arguments give blocked fields, and the text of any name search that would match a
blocked field (``name_search``'s, a ``display_name`` condition's, a string compared with a
relational field).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from odoo_mcp.safety.execute_args import NAME_SEARCH_METHODS
from odoo_mcp.safety.policy import SafetyPolicy
from odoo_mcp.safety.scrub import Redaction

__all__ = ["call_redaction"]

#: the registry's cached fields of a model (None when not loaded), without a round trip
CachedFields = Callable[[str], Mapping[str, Any] | None]


def call_redaction(
    policy: SafetyPolicy, cached: CachedFields, arguments: Mapping[str, object]
) -> Redaction:
    """REQ-11-14 (issue 37): the redaction of one call's ``arguments``: the blocklist and every
    field found derived from it so far, the values the arguments give them, and the text of
    name searches that would match a blocked field, along the cached metadata."""
    model = arguments.get("model")
    if not isinstance(model, str):
        return Redaction.of_call(arguments, policy.blocked_names())
    terms: list[object] = []
    if arguments.get("method") in NAME_SEARCH_METHODS and policy.fields.name_search_blocked(model):
        args, kwargs = arguments.get("args"), arguments.get("kwargs")
        terms += args[:1] if isinstance(args, list) else []
        terms += [kwargs.get("name")] if isinstance(kwargs, dict) else []

    def searches_blocked_names(path: str, value: object) -> bool:
        current: str | None = model
        parts = path.split(".")
        for depth, name in enumerate(parts):
            if current is None:
                return False
            if name == "display_name":
                return bool(policy.fields.name_search_blocked(current))
            info = (cached(current) or {}).get(name)
            current = getattr(info, "relation", None)
            if depth == len(parts) - 1 and current is not None and _has_text(value):
                return bool(policy.fields.name_search_blocked(current))
        return False

    return Redaction.of_call(
        arguments, policy.blocked_names(), values=terms, leaf=searches_blocked_names
    )


def _has_text(value: object) -> bool:
    """A condition value Odoo resolves by name: a string, or a list holding one."""
    if isinstance(value, str):
        return True
    return isinstance(value, list | tuple) and any(isinstance(item, str) for item in value)
