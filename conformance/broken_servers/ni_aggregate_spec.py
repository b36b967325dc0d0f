"""Defect (non-interference): an aggregate spec is read by its first name only, so
``alias:array_agg(email)`` through odoo_core_execute returns the blocked values under
``alias`` (REQ-11-14)."""

from collections.abc import Iterator

from _sabotage import serve

from odoo_mcp.field_refs import FieldRef
from odoo_mcp.safety.execute_args import METHOD_ARGUMENTS


def _first_name_only(value: object, where: str) -> Iterator[FieldRef]:
    for text in value if isinstance(value, list | tuple) else [value]:
        if isinstance(text, str):
            yield FieldRef((text.split(":")[0],), "aggregate", where)


for method in ("read_group", "formatted_read_group", "web_read_group"):
    model_method, params = METHOD_ARGUMENTS[method]
    METHOD_ARGUMENTS[method] = (  # type: ignore[index]
        model_method,
        tuple(
            (name, _first_name_only if name in ("fields", "aggregates") else reader)
            for name, reader in params
        ),
    )
serve()
