"""SPEC-06 §6: what the prompts share: the tools they name, the model argument (checked
against the safety policy, REQ-06-22), the visible fields and how a field is described."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from odoo_mcp.connection import OdooError
from odoo_mcp.context import ServerContext
from odoo_mcp.errors.params import invalid_prompt
from odoo_mcp.registry import FieldInfo
from odoo_mcp.safety import Operation

__all__ = [
    "CREATE",
    "EXAMPLES",
    "EXECUTE",
    "SEARCH",
    "WELL_KNOWN",
    "describe_field",
    "example_value",
    "model_argument",
    "odoo_defaults",
    "registered_tools",
    "required_fields",
    "visible_fields",
]

WELL_KNOWN: Final = (
    "res.partner",
    "sale.order",
    "sale.order.line",
    "product.product",
    "product.template",
    "account.move",
    "stock.picking",
    "crm.lead",
    "res.company",
    "res.users",
)
SEARCH: Final = "odoo_core_search_read"
CREATE: Final = "odoo_core_create"
EXECUTE: Final = "odoo_core_execute"
#: REQ-06-20: an example value per field type (the create guide's example call)
EXAMPLES: Final[Mapping[str, object]] = {
    "char": "Example",
    "text": "Some text",
    "html": "<p>Some text</p>",
    "integer": 1,
    "float": 1.0,
    "monetary": 100.0,
    "boolean": True,
    "many2one": 1,
    "date": "2026-01-31",
    "datetime": "2026-01-31 09:00:00",
    "many2many": [[6, 0, [1]]],
    "one2many": [[0, 0, {"name": "Example"}]],
}


def registered_tools(rc: ServerContext) -> set[str]:
    """REQ-06-17..21: the tools this server registered (the only ones a prompt names)."""
    return set(rc.tool_names)


def model_argument(rc: ServerContext, args: Mapping[str, str]) -> str:
    """REQ-06-22: the ``model_name`` argument, refused when the policy blocks the model."""
    model = (args.get("model_name") or "").strip()
    if not model:
        raise invalid_prompt("the prompt needs the argument model_name, e.g. sale.order")
    rc.policy.check_operation(Operation.READ, model)
    return model


async def visible_fields(rc: ServerContext, model: str) -> dict[str, FieldInfo]:
    """REQ-06-22: the model's fields without the blocked ones."""
    fields = await rc.registry.get_fields(model)
    policy = rc.policy
    return {n: f for n, f in fields.items() if not policy.is_field_blocked(model, n)}


def describe_field(name: str, info: FieldInfo, *, with_help: bool = False) -> str:
    """One line per field: its name, type (and relation), label, choices and help."""
    kind = f"{info.type} -> {info.relation}" if info.relation else info.type
    extra = ""
    if info.selection:
        extra = " one of " + ", ".join(f"'{v}'" for v, _ in info.selection[:8])
    if with_help and info.help:
        text = " ".join(info.help.split())
        extra += " - " + (text if len(text) <= 160 else text[:157] + "...")
    return f"- {name} ({kind}): {info.label}{extra}"


def example_value(info: FieldInfo) -> object:
    """REQ-06-20: an example value of the field's type."""
    if info.type == "selection":
        return (info.selection or [("", "")])[0][0]
    return EXAMPLES.get(info.type, "...")


def required_fields(fields: Mapping[str, FieldInfo]) -> list[str]:
    """The fields a create must give (required, not read-only)."""
    return [n for n, f in fields.items() if f.required and not f.readonly]


async def odoo_defaults(rc: ServerContext, model: str, names: list[str]) -> dict[str, object]:
    """REQ-06-19/20: the values Odoo fills in (``default_get``) for those of ``names`` that
    have one; False is no default (a required field left False is refused). Nothing when
    Odoo will not tell: the guide then lists every required field as one to give."""
    if not names:
        return {}
    try:
        found = await rc.odoo.execute_kw(model, "default_get", [names])
    except OdooError:
        return {}
    if not isinstance(found, dict):
        return {}
    return {n: v for n, v in found.items() if v is not None and v is not False}
