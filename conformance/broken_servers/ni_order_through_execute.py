"""Defect (non-interference): odoo_core_execute does not read order arguments, so
``search_read(..., order="email desc")`` sorts by the blocked field (REQ-11-14: the order
of the records follows the blocked values), while the search tool's own order is refused."""

from collections.abc import Iterator

from _sabotage import serve

from odoo_mcp.field_refs import FieldRef
from odoo_mcp.safety.execute_args import METHOD_ARGUMENTS


def _ignored(value: object, where: str) -> Iterator[FieldRef]:
    return iter(())


for method, (model_method, params) in list(METHOD_ARGUMENTS.items()):
    if any(name in ("order", "orderby") for name, _ in params):
        METHOD_ARGUMENTS[method] = (  # type: ignore[index]
            model_method,
            tuple((n, _ignored if n in ("order", "orderby") else r) for n, r in params),
        )
serve()
