"""``fields_get``, imitating Odoo 19's ``Field.get_description``.

Every field carries the common attributes (change_default, company_dependent,
default_export_compatible, depends, exportable, groupable, manual, name,
readonly, required, searchable, sortable, store, string, type); ``help`` only
when set; ``relation``/``context``/``domain``/``allow_hierachy_operators``
(Odoo's spelling) only on relational fields, ``relation_field`` on one2many,
``selection`` on selection fields, ``currency_field`` on monetary,
``aggregator`` (``group_operator`` before 18) when set.

Odoo 17.0 describes fields differently (see :func:`_as_odoo17`); its per-field facts
(labels, help texts, flags its modules set otherwise) are a table in
``fake_odoo.models.field_descriptions_odoo17``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fake_odoo.models import field_descriptions_odoo17 as odoo17
from fake_odoo.orm import access
from fake_odoo.orm.convert import selection_values
from fake_odoo.orm.fields import Field

if TYPE_CHECKING:
    from fake_odoo.orm.model import BaseModel


def describe(model: BaseModel, field: Field) -> dict[str, Any]:
    """The full description of one field."""
    ftype = field.type
    desc: dict[str, Any] = {
        "change_default": bool(field.change_default),
        "company_dependent": False,
        "default_export_compatible": False,
        "depends": list(field.depends),
        "exportable": True,
        "groupable": field.store and ftype not in ("one2many", "binary"),
        "manual": False,
        "name": field.name,
        "readonly": bool(field.readonly),
        "required": bool(field.required),
        "searchable": field.searchable or field.name == "display_name",
        "sortable": field.sortable or field.name == "id",
        "store": bool(field.store),
        "string": field.label,
        "type": ftype,
    }
    if field.help:
        desc["help"] = field.help
    if field.relational:
        desc["relation"] = field.comodel_name  # type: ignore[attr-defined]
        desc["context"] = dict(field.context)  # type: ignore[attr-defined]
        domain = field.domain  # type: ignore[attr-defined]
        desc["domain"] = domain if isinstance(domain, str) else list(domain)
        desc["allow_hierachy_operators"] = True
    if ftype == "one2many":
        desc["relation_field"] = field.inverse_name  # type: ignore[attr-defined]
    if ftype in ("selection", "reference"):
        desc["selection"] = [list(pair) for pair in selection_values(model, field)]
    if ftype == "monetary":
        desc["currency_field"] = field.currency_field  # type: ignore[attr-defined]
    if ftype in ("char", "text", "html"):
        desc["translate"] = bool(field.translate)
    if ftype == "char":
        desc["trim"] = True
        if getattr(field, "size", None):
            desc["size"] = field.size  # type: ignore[attr-defined]
    if ftype == "float" and getattr(field, "digits", None):
        desc["digits"] = list(field.digits)  # type: ignore[attr-defined]
    if field.aggregator and field.name != "id":
        # 17.0 still says group_operator (odoo17/ok_xmlrpc_sale_order_fields_get_full_attrs_subset)
        desc["aggregator" if model.env.major >= 18 else "group_operator"] = field.aggregator
    if model.env.major <= 17:
        desc = _as_odoo17(model, field, desc)
    return dict(sorted(desc.items()))


def _as_odoo17(model: BaseModel, field: Field, desc: dict[str, Any]) -> dict[str, Any]:
    """Odoo 17.0's description: no ``groupable`` nor ``allow_hierachy_operators`` yet
    (odoo17/ok_xmlrpc_sale_order_fields_get_full_attrs_subset.json); ``display_name`` has
    no search method; company-dependent fields are not columns; a related field sorts only
    when ``_inherits`` made it (every odoo17/meta_fields_get_*.json); then the table's
    per-field facts.  Unknown for 18, hence <= 17 only."""
    desc.pop("groupable", None)
    desc.pop("allow_hierachy_operators", None)
    if field.name == "display_name":
        desc["searchable"] = False
    desc["sortable"] = _sortable_17(model, field)
    if field.name in odoo17.COMPANY_DEPENDENT.get(model._name, ()):
        desc.update(company_dependent=True, store=False, sortable=False)
    for attr, value in odoo17.DESCRIPTIONS.get(model._name, {}).get(field.name, {}).items():
        if value is odoo17.ABSENT:
            desc.pop(attr, None)
        else:
            desc[attr] = value
    return desc


def _sortable_17(model: BaseModel, field: Field) -> bool:
    """17.0 sorts by a stored column, or by an ``_inherits`` field as its parent does."""
    if field.name in odoo17.COMPANY_DEPENDENT.get(model._name, ()):
        return False
    if field.related is None or field.name == "id":
        return field.sortable or field.name == "id"
    link = odoo17.INHERITS.get(model._name)
    if link is None or field.related != f"{link}.{field.name}":
        return False
    parent = model.env[model._fields[link].comodel_name]  # type: ignore[attr-defined]
    return _sortable_17(parent, parent._fields[field.name])


def visible(model: BaseModel, field: Field) -> bool:
    """Fields restricted to groups are hidden from other users, as in Odoo."""
    if not field.groups or model.env.su:
        return True
    groups = access.user_groups(model.env)
    return any(g.strip() in groups for g in field.groups.split(","))


def fields_get(model: BaseModel, allfields: Any = None, attributes: Any = None) -> dict[str, Any]:
    wanted = set(allfields) if allfields else None
    result: dict[str, Any] = {}
    for name, field in model._fields.items():
        if (wanted is not None and name not in wanted) or not visible(model, field):
            continue
        desc = describe(model, field)
        if attributes:
            desc = {k: v for k, v in desc.items() if k in attributes}
        result[name] = desc
    return result
