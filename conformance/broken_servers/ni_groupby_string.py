"""Defect (non-interference): a read_group groupby given as a string is not read as a field
reference, so ``read_group(..., groupby="email")`` through odoo_core_execute groups by the
blocked field (REQ-11-14: the groups and their counts follow the blocked values)."""

from collections.abc import Iterator

from _sabotage import serve

from odoo_mcp.field_refs import FieldRef, groupby_refs
from odoo_mcp.safety.execute_args import METHOD_ARGUMENTS


def _lists_only(value: object, where: str) -> Iterator[FieldRef]:
    return iter(()) if isinstance(value, str) else groupby_refs(value, where)


for method in ("read_group", "formatted_read_group", "web_read_group"):
    model_method, params = METHOD_ARGUMENTS[method]
    METHOD_ARGUMENTS[method] = (  # type: ignore[index]
        model_method,
        tuple((name, _lists_only if name == "groupby" else reader) for name, reader in params),
    )
serve()
