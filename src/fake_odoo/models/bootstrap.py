"""What every database has before any data: framework groups, the superuser, ``ir.model``.

Imitates what installing Odoo's ``base`` module creates; ``bootstrap`` runs when a Database
is built (``models.base.FRAMEWORK`` hands it to the ORM).
"""

from __future__ import annotations

from fake_odoo.models.res_groups import group_naming, groups_field
from fake_odoo.orm import fields
from fake_odoo.orm.database import SUPERUSER_ID, Environment

#: (xml id, category, name, implied xml ids) of the groups every database has
BASE_GROUPS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("base.group_user", "Role", "User", ()),
    ("base.group_erp_manager", "", "Access Rights", ("base.group_user",)),
    ("base.group_system", "Role", "Administrator", ("base.group_erp_manager",)),
    ("base.group_no_one", "", "Technical Features", ()),
    ("base.group_multi_company", "", "Multi Companies", ()),
    ("base.group_partner_manager", "Contact", "Creation", ()),
    ("base.group_allow_export", "", "Export", ()),
    ("base.group_portal", "Role", "Portal", ()),
    ("base.group_public", "Role", "Public", ()),
)


def bootstrap(env: Environment) -> None:
    """Create what every database has: framework groups, the superuser, ir.model rows."""
    db = env.db
    if "res.groups" in env:
        ids: dict[str, int] = {}
        for xmlid, base_category, base_name, implied in BASE_GROUPS:
            category, name = group_naming(env.major, xmlid, base_category, base_name)
            gid = db.insert(
                "res.groups",
                {
                    "name": name,
                    "category_name": category or False,
                    "implied_ids": [ids[i] for i in implied],
                    "share": False,
                    "comment": False,
                },
            )
            db.set_xmlid(xmlid, "res.groups", gid)
            ids[xmlid] = gid
        if "res.users" in env:
            now = db.now_str()
            db.insert(
                "res.users",
                {
                    "login": "__system__",  # its name "OdooBot" is its partner's
                    "active": False,
                    "partner_id": False,
                    "company_id": False,
                    "company_ids": [],
                    groups_field(env): list(ids.values()),
                    "share": False,
                    "create_uid": SUPERUSER_ID,
                    "write_uid": SUPERUSER_ID,
                    "create_date": now,
                    "write_date": now,
                },
                record_id=SUPERUSER_ID,
            )
            db.set_xmlid("base.user_root", "res.users", SUPERUSER_ID)
    if "ir.model" in env:
        _describe_registry(env)


def _describe_registry(env: Environment) -> None:
    db = env.db
    for model_name, cls in sorted(env.registry.items()):
        mid = db.insert(
            "ir.model",
            {
                "name": cls.model_label(),
                "model": model_name,
                "order": cls._order,
                "info": cls.__doc__ or False,
                "state": "base",
                "abstract": False,
                "transient": cls._transient,
            },
        )
        db.set_xmlid(f"base.model_{model_name.replace('.', '_')}", "ir.model", mid)
        for fname, field in cls.fields_for(env.major, env.db.uninstalled).items():
            db.insert(
                "ir.model.fields",
                {
                    "name": fname,
                    "model": model_name,
                    "model_id": mid,
                    "field_description": field.label,
                    "relation": getattr(field, "comodel_name", False),
                    "help": field.help or False,
                    "relation_field": getattr(field, "inverse_name", False),
                    "ttype": field.type,
                    "copied": field.copy,
                    "related": False,
                    "required": field.required,
                    "readonly": field.readonly,
                    "index": False,
                    "store": field.store,
                    "size": 0,
                    "state": "base",
                    "on_delete": (
                        field.ondelete_policy(cls._transient)
                        if isinstance(field, fields.Many2one)
                        else "set null"
                    ),
                    "domain": "[]",
                    "depends": ",".join(field.depends) or False,
                    "compute": False,
                    "currency_field": getattr(field, "currency_field", False),
                },
            )
