"""Odoo 17.0's per-field ``fields_get`` facts where they differ from 19's.

Read by ``orm/fields_get.py`` for a database of Odoo 17 or earlier (18 is unknown, so it
keeps 19's); the generic 17 rules live there.  Every fact comes from a capture of a real
Odoo 17.0 (tests/fixtures/odoo17/meta_fields_get_<model>.json unless said otherwise).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from fake_odoo.orm.fields import Field
    from fake_odoo.orm.model import BaseModel

#: a table value meaning "17 has no such attribute on this field" (e.g. no ``help``)
ABSENT: Final = object()

#: ``_inherits`` links: a related field ``<link>.<name>`` is the parent's own field, which
#: 17 sorts by as the parent does (the fake declares such fields as plain related fields)
INHERITS: dict[str, str] = {"product.product": "product_tmpl_id", "res.users": "partner_id"}

#: company-dependent ("property") fields: 17 keeps them in ir.property, not in a column
COMPANY_DEPENDENT: dict[str, frozenset[str]] = {
    "res.partner": frozenset(
        {
            "property_payment_term_id",
            "property_supplier_payment_term_id",
            "property_account_payable_id",
            "property_account_receivable_id",
            "property_stock_customer",
            "property_stock_supplier",
            "credit_limit",
            "barcode",
            "trust",
        }
    ),
    "product.product": frozenset({"standard_price"}),
}

_UOM = {"string": "Unit of Measure"}
_PRODUCT: dict[str, dict[str, Any]] = {
    # 17's stored ``type`` is derived from ``detailed_type``, the one the user sets
    "type": {"string": "Type", "required": False, "help": ABSENT},
    "detailed_type": {"sortable": True},
    "categ_id": {"required": True},
    "sale_ok": {"string": "Can be Sold"},
    "purchase_ok": {"string": "Can be Purchased"},
    "uom_id": _UOM,
    "qty_available": {"readonly": True},
}

#: model -> field -> the attributes 17 gives otherwise (``ABSENT``: 17 has none)
DESCRIPTIONS: dict[str, dict[str, dict[str, Any]]] = {
    # odoo17/flow_sale_order_invoice_payment.json step 31
    "account.payment": {"state": {"string": "Status"}},
    "account.move.line": {"product_uom_id": _UOM},
    # odoo17/flow_crm_lead_pipeline.json step 19
    "crm.lead2opportunity.partner": {"action": {"required": False}},
    "crm.lead": {"partner_id": {"string": "Customer"}},
    "crm.stage": {
        "team_id": {
            "help": "Specific team that uses this stage. Other teams will not be able to see"
            " or use this stage."
        }
    },
    "ir.model.fields": {"related": {"string": "Related Field"}},
    "product.product": _PRODUCT,
    "product.template": {**_PRODUCT, "detailed_type": {"store": True, "sortable": True}},
    "res.partner": {
        "type": {
            "selection": [
                ["contact", "Contact"],
                ["invoice", "Invoice Address"],
                ["delivery", "Delivery Address"],
                ["other", "Other Address"],
            ],
            "help": "- Contact: Use this to organize the contact details of employees of a"
            " given company (e.g. CEO, CFO, ...).\n- Invoice Address: Preferred address for all"
            " invoices. Selected by default when you invoice an order that belongs to this"
            " company.\n- Delivery Address: Preferred address for all deliveries. Selected by"
            " default when you deliver an order that belongs to this company.\n- Other: Other"
            " address for the company (e.g. subsidiary, ...)",
        },
        "company_type": {"selection": [["person", "Individual"], ["company", "Company"]]},
        "property_payment_term_id": {
            "help": "This payment term will be used instead of the default one for sales orders"
            " and customer invoices"
        },
        "property_supplier_payment_term_id": {
            "help": "This payment term will be used instead of the default one for purchase"
            " orders and vendor bills"
        },
        "property_account_payable_id": {
            "required": True,
            "help": "This account will be used instead of the default one as the payable"
            " account for the current partner",
        },
        "property_account_receivable_id": {
            "required": True,
            "help": "This account will be used instead of the default one as the receivable"
            " account for the current partner",
        },
        "use_partner_credit_limit": {"help": ABSENT},
        "opportunity_count": {"string": "Opportunity"},
    },
    "sale.order": {
        "validity_date": {"help": ABSENT},
        "delivery_status": {"help": ABSENT},
        # a stored column on 17 (computed, not stored, on 19)
        "amount_to_invoice": {
            "string": "Amount to invoice",
            "store": True,
            "searchable": True,
            "sortable": True,
        },
        "warehouse_id": {"required": True},
        # odoo17/ok_xmlrpc_sale_order_fields_get_full_attrs_subset.json
        "partner_id": {
            "domain": "(company_id and ['|', ('company_id', '=', False), ('company_id',"
            " 'parent_of', [company_id])] or ['|', ('company_id', '=', False), ('company_id',"
            " 'parent_of', [''])]) + ([])"
        },
        "amount_total": {
            "depends": [
                "order_line.price_subtotal",
                "order_line.price_tax",
                "order_line.price_total",
            ]
        },
    },
    # odoo17/flow_sale_order_invoice_payment.json step 5
    "sale.advance.payment.inv": {"amount": {"string": "Down Payment Amount"}},
    "stock.move": {
        "name": {"required": True},
        "product_uom": {"string": "UoM"},
        "location_dest_id": {"string": "Destination Location"},
    },
    "stock.picking": {
        "date_done": {"readonly": True},
        "picking_type_id": {"readonly": True},
        "sale_id": {"readonly": True},
        "products_availability_state": {"searchable": False},
    },
    "stock.picking.type": {
        "default_location_src_id": {"string": "Default Source Location", "required": False},
        "default_location_dest_id": {
            "string": "Default Destination Location",
            "required": False,
        },
    },
    "stock.quant": {"inventory_quantity": {"string": "Counted Quantity"}},
}


def describe_odoo17(model: BaseModel, field: Field, desc: dict[str, Any]) -> dict[str, Any]:
    """Odoo 17.0's description: no ``groupable`` nor ``allow_hierachy_operators`` yet
    (odoo17/ok_xmlrpc_sale_order_fields_get_full_attrs_subset.json); ``display_name`` has
    no search method; company-dependent fields are not columns; a related field sorts only
    when ``_inherits`` made it (every odoo17/meta_fields_get_*.json); then the table's
    per-field facts.  Unknown for 18, hence <= 17 only (the Framework's ``describe_field``)."""
    if model.env.major > 17:
        return desc
    desc.pop("groupable", None)
    desc.pop("allow_hierachy_operators", None)
    if field.name == "display_name":
        desc["searchable"] = False
    desc["sortable"] = _sortable_17(model, field)
    if field.name in COMPANY_DEPENDENT.get(model._name, ()):
        desc.update(company_dependent=True, store=False, sortable=False)
    for attr, value in DESCRIPTIONS.get(model._name, {}).get(field.name, {}).items():
        if value is ABSENT:
            desc.pop(attr, None)
        else:
            desc[attr] = value
    return desc


def _sortable_17(model: BaseModel, field: Field) -> bool:
    """17.0 sorts by a stored column, or by an ``_inherits`` field as its parent does."""
    if field.name in COMPANY_DEPENDENT.get(model._name, ()):
        return False
    if field.related is None or field.name == "id":
        return field.sortable or field.name == "id"
    link = INHERITS.get(model._name)
    if link is None or field.related != f"{link}.{field.name}":
        return False
    parent = model.env[model._fields[link].comodel_name]  # type: ignore[attr-defined]
    return _sortable_17(parent, parent._fields[field.name])
