"""SPEC-07 (issue 37, item 4): the field lookups of one tool call, bounded.

A domain, an order or an execute call's arguments name fields on paths (``a.b.c``), and each
hop through a relation needs the fields of another model. ``CallLookups`` stands in for the
registry during one call: each model is asked at most once (its answer or its failure is
kept for the rest of the call, whatever the registry caches), and at most
``limit`` distinct models are asked (``MAX_MODELS_PER_DOMAIN`` for a domain or an order,
``MAX_MODELS_PER_CALL`` for an execute call's arguments); past that the call is refused with a
SPEC-10 validation error instead of being checked in part.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Protocol

from odoo_mcp.errors.categories import ErrorCode

__all__ = [
    "MAX_MODELS_PER_CALL",
    "MAX_MODELS_PER_DOMAIN",
    "CallLookups",
    "LookupLimitError",
    "MetadataSource",
]

#: Distinct models whose fields one domain (or order) may need. A legitimate filter walks a
#: few relations from its model (paths warn past four hops, REQ-04a-07): a sale order filter
#: on its partner, the partner's country and state, salesperson, team, company, currency,
#: pricelist, lines, their products and the products' categories names twelve models (the
#: sale order's own included), already a rich filter. Sixteen leaves room for that and
#: still bounds a generated or hostile domain (hundreds of leaves over distinct relations)
#: to sixteen ``fields_get``.
MAX_MODELS_PER_DOMAIN: Final = 16
#: Distinct models one ``odoo_core_execute`` call may need: its domain's, plus the relations
#: its field lists, groupby, order and ``web_read`` specification name (a form view's
#: specification reaches the comodel of each many2one it shows), hence twice a domain's.
MAX_MODELS_PER_CALL: Final = 2 * MAX_MODELS_PER_DOMAIN


class MetadataSource(Protocol):
    """What ``CallLookups`` wraps: the registry (``ModelRegistry``) or a stub; a ``cached``
    method, when it has one, is passed through."""

    async def get_fields(self, model: str) -> Mapping[str, Any]: ...


class LookupLimitError(Exception):
    """REQ-07-11: a call needing more models' metadata than its limit allows: a
    SPEC-10 validation refusal (``errors`` keeps its fields as they are)."""

    code = ErrorCode.TOO_MANY_MODELS
    category = "validation"

    def __init__(self, model: str, limit: int, *, what: str = "call") -> None:
        #: the refusal as a clause, for a domain or order error to carry
        self.reason = (
            f"the {what} names fields on more than {limit} models (each relation a path "
            f"goes through, as in 'partner_id.country_id', is one more); at most {limit} "
            "models' fields are checked"
        )
        self.message = self.reason[0].upper() + self.reason[1:]
        super().__init__(self.message)
        self.suggestion = (
            "Split the call, or filter on fewer relations: each dotted path hop is another "
            f"model, and at most {limit} distinct models may be named at once"
        )
        self.details: dict[str, object] = {"model": model, "limit": limit}


class CallLookups:
    """REQ-07-11/12: the registry as one tool call sees it: at most one lookup per model and
    at most ``limit`` distinct models (the same count whether the registry had them cached
    or not, so that the answer does not depend on what was asked before)."""

    def __init__(
        self, source: MetadataSource, *, limit: int = MAX_MODELS_PER_DOMAIN, what: str = "call"
    ) -> None:
        self._source = source
        self.limit = limit
        self.what = what
        self._answers: dict[str, Mapping[str, Any] | BaseException] = {}

    async def get_fields(self, model: str) -> Mapping[str, Any]:
        """REQ-07-11: the model's fields; refused (``LookupLimitError``) past the limit."""
        known = self._answers.get(model)
        if known is None:
            if len(self._answers) >= self.limit:
                raise LookupLimitError(model, self.limit, what=self.what)
            try:
                known = await self._source.get_fields(model)
            except Exception as exc:
                self._answers[model] = exc
                raise
            self._answers[model] = known
        if isinstance(known, BaseException):
            raise known.with_traceback(None)
        return known

    def cached(self, model: str) -> Mapping[str, Any] | None:
        """REQ-07-12: the registry's cached fields, without a round trip."""
        cached = getattr(self._source, "cached", None)
        found: Mapping[str, Any] | None = cached(model) if cached is not None else None
        return found
