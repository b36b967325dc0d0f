"""``fields_get``, imitating Odoo 19's ``Field.get_description``.

Every field carries the common attributes (change_default, company_dependent,
default_export_compatible, depends, exportable, groupable, manual, name,
readonly, required, searchable, sortable, store, string, type); ``help`` only
when set; ``relation``/``context``/``domain``/``allow_hierachy_operators``
(Odoo's spelling) only on relational fields, ``relation_field`` on one2many,
``selection`` on selection fields, ``currency_field`` on monetary,
``aggregator`` (``group_operator`` before 18) when set.

Odoo 17.0 describes fields differently: the models hand that in with the Framework
(``describe_field``: ``fake_odoo.models.field_descriptions_odoo17``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    # what the models say of their own fields on other versions (framework.py: handed in)
    other_version = model.env.db.framework.describe_field
    if other_version is not None:
        desc = other_version(model, field, desc)
    return dict(sorted(desc.items()))


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
