"""Which Odoo module brings what, so that a database can be served without some modules.

Imitates what an Odoo database looks like when a module was never installed: the module and
every installed module depending on it show ``uninstalled`` in ``ir.module.module``, their
models are not in the registry (a call on one gets Odoo's unknown-model answer on each
protocol), and the fields they add to other modules' models do not exist.  Only the modules
whose models and fields are mapped here can be left out (``REMOVABLE``); the dependencies are
those of Odoo 19's manifests, restricted to the modules the demo database installs.

Part of the ORM, as ``odoo.modules`` is of Odoo's framework: building a registry consults
it.  It names business models and fields only as data, and imports nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["DEPENDS", "REMOVABLE", "field_hidden", "model_hidden", "uninstalled_closure"]

#: direct dependencies of the demo database's modules, among themselves (Odoo 19 manifests)
DEPENDS: dict[str, tuple[str, ...]] = {
    "base": (),
    "web": ("base",),
    "base_setup": ("base", "web"),
    "mail": ("base_setup", "web"),
    "contacts": ("mail",),
    "uom": ("base",),
    "product": ("base", "mail", "uom"),
    "sales_team": ("base", "mail"),
    "utm": ("base", "web"),
    "resource": ("base", "web"),
    "portal": ("web", "mail"),
    "digest": ("mail", "portal", "resource"),
    "analytic": ("base", "mail", "uom"),
    "phone_validation": ("base", "mail"),
    "sms": ("base", "phone_validation"),
    "payment": ("portal",),
    "account": ("base_setup", "product", "analytic", "portal", "digest"),
    "account_edi_ubl_cii": ("account",),
    "sale": ("sales_team", "account", "utm", "portal", "payment"),
    "sale_management": ("sale", "digest"),
    "calendar": ("base", "mail"),
    "crm": ("base_setup", "sales_team", "mail", "calendar", "resource", "digest", "utm"),
    "sale_crm": ("sale", "crm"),
    "stock": ("product", "digest"),
    "sale_stock": ("sale", "stock"),
    "stock_sms": ("stock", "sms"),
}

#: the models each removable module defines
_MODELS: dict[str, frozenset[str]] = {
    "stock": frozenset(
        {
            "stock.warehouse",
            "stock.location",
            "stock.picking.type",
            "stock.quant",
            "stock.picking",
            "stock.move",
            "stock.move.line",
            "stock.backorder.confirmation",
            "stock.backorder.confirmation.line",
        }
    ),
    "sale_stock": frozenset(),
    "stock_sms": frozenset({"confirm.stock.sms"}),
}

#: the fields each removable module adds to models of other modules
_FIELDS: dict[str, dict[str, frozenset[str]]] = {
    "stock": {
        "product.template": frozenset(
            {"is_storable", "tracking", "qty_available", "virtual_available"}
        ),
        "product.product": frozenset(
            {
                "is_storable",
                "qty_available",
                "virtual_available",
                "stock_quant_ids",
                "stock_move_ids",
            }
        ),
    },
    "sale_stock": {
        "sale.order": frozenset(
            {
                "warehouse_id",
                "picking_policy",
                "picking_ids",
                "delivery_count",
                "delivery_status",
                "effective_date",
            }
        ),
        "sale.order.line": frozenset({"move_ids"}),
    },
    "stock_sms": {
        "res.company": frozenset({"has_received_warning_stock_sms", "stock_text_confirmation"}),
    },
}

REMOVABLE: frozenset[str] = frozenset(_MODELS)


def uninstalled_closure(names: Iterable[str]) -> frozenset[str]:
    """The modules left out when ``names`` are: them and every module depending on them.

    Refuses a module the fake cannot leave out (its models and fields are not mapped here).
    """
    wanted = set(names)
    unknown = wanted - DEPENDS.keys()
    if unknown:
        raise ValueError(f"unknown module(s): {', '.join(sorted(unknown))}")
    closure = set(wanted)
    changed = True
    while changed:
        changed = False
        for module, depends in DEPENDS.items():
            if module not in closure and closure.intersection(depends):
                closure.add(module)
                changed = True
    unsupported = closure - REMOVABLE
    if unsupported:
        raise ValueError(
            f"the fake cannot serve a database without {', '.join(sorted(unsupported))}; "
            f"modules it can leave out: {', '.join(sorted(REMOVABLE))}"
        )
    return frozenset(closure)


def model_hidden(model: str, uninstalled: frozenset[str]) -> bool:
    """Whether ``model`` belongs to one of the ``uninstalled`` modules."""
    return any(model in _MODELS.get(module, ()) for module in uninstalled)


def field_hidden(model: str, field: str, comodel: str | None, uninstalled: frozenset[str]) -> bool:
    """Whether an uninstalled module adds this field, or the field points at one's model."""
    if comodel is not None and model_hidden(comodel, uninstalled):
        return True
    return any(field in _FIELDS.get(module, {}).get(model, ()) for module in uninstalled)
