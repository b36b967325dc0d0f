"""``ir.model``, ``ir.model.access`` and ``ir.model.fields``: the registry seen as records.

Their rows are written from the model classes (``bootstrap`` and ``describe_access``), so
what a client reads there always matches what the fake serves.

Their ACLs are base's ``security/ir.model.access.csv`` (16.0 to 19.0 alike): only "Access
Rights" (``base.group_erp_manager``) may read them; ``base.group_user`` has a line granting
nothing (``access_ir_model_user`` / ``access_ir_model_fields_user``, 0,0,0,0) and no line at
all on ``ir.model.access``. An ordinary internal user learns the models it may read from the
``web`` addon's ``ir.model.get_available_models`` and ``display_name_for`` instead.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.orm import access, api, fields
from fake_odoo.orm.database import Environment
from fake_odoo.orm.model import Model

#: base/security/ir.model.access.csv: access_ir_model_group_erp_manager (1,1,1,1) and
#: access_ir_model_user (base.group_user, 0,0,0,0); the same pair for ir.model.fields
_ERP_MANAGER_ONLY = {"base.group_erp_manager": "rwcu", "base.group_user": ""}


class IrModel(Model):
    _name = "ir.model"
    _description = "Models"
    _order = "model"
    _access = _ERP_MANAGER_ONLY

    name = fields.Char("Model Description", required=True, translate=True)
    model = fields.Char("Model", required=True)
    order = fields.Char(
        "Order",
        required=True,
        default="id",
        help='SQL expression for ordering records in the model; e.g. "x_sequence asc, id desc"',
    )
    info = fields.Text("Information")
    field_id = fields.One2many("ir.model.fields", "model_id", "Fields", required=True, copy=True)
    state = fields.Selection(
        [("manual", "Custom Object"), ("base", "Base Object")],
        "Type",
        default="manual",
        readonly=True,
    )
    abstract = fields.Boolean("Abstract Model")
    transient = fields.Boolean("Transient Model")
    modules = fields.Char(
        "In Apps",
        compute="_compute_modules",
        store=False,
        help="List of modules in which the object is defined or inherited",
    )
    count = fields.Integer(
        "Count (Incl. Archived)",
        compute="_compute_count",
        store=False,
        help="Total number of records in this model",
    )

    def _compute_modules(self) -> str:
        return ""

    def _compute_count(self) -> int:
        return len(self.env.db.store.get(str(self.model), {}))

    # -- web/models/ir_model.py: what a user without access to ir.model may learn ---------
    @api.model
    def display_name_for(self, models: list[str]) -> list[dict[str, str]]:
        """web's ``ir.model.display_name_for``: ``{"display_name", "model"}`` of each model;
        the readable ones first (ir.model order, their description), then the others with
        their technical name as display name (an unknown model looks like a refused one)."""
        accessible: list[str] = []
        refused: list[dict[str, str]] = []
        for name in models:
            if self._is_valid_for_model_selector(name):
                accessible.append(name)
            else:
                refused.append({"display_name": name, "model": name})
        return self._display_name_for(accessible) + refused

    @api.model
    def get_available_models(self) -> list[dict[str, str]]:
        """web's ``ir.model.get_available_models``: the models the user may read, as
        ``{"display_name", "model"}`` in ir.model order; none for a portal or public user."""
        names = [name for name in self.env.registry if self._is_valid_for_model_selector(name)]
        return self._display_name_for(names)

    @api.model
    def _display_name_for(self, models: list[str]) -> list[dict[str, str]]:
        rows = self.sudo().search_read([("model", "in", models)], ["name", "model"])
        return [{"display_name": row["name"], "model": row["model"]} for row in rows]

    @api.model
    def _is_valid_for_model_selector(self, model: str) -> bool:
        """17.0 (``_check_model_access``): an internal user with read access to the model;
        from 18.0 (``_is_valid_for_model_selector``) transient and abstract models are left
        out as well."""
        env = self.env
        if model not in env.registry or not access.has_group(env, "base.group_user"):
            return False
        records: Any = env[model]
        if env.major >= 18 and records._transient:
            return False
        return access.check_acl(records, "read", raise_exception=False)


class IrModelAccess(Model):
    """The ACL lines; the fake's checks read the models' ``_access`` tables, and these rows
    are built from the same tables (``describe_access``), so both always agree."""

    _name = "ir.model.access"
    _description = "Model Access"
    #: Odoo 20 replaced it (and ir.rule) by ir.access (odoo/odoo
    #: odoo/addons/base/models/ir_access.py @ 5d9a6616)
    _max_version = 19
    _order = "model_id,group_id,name,id"
    #: base/security/ir.model.access.csv: access_ir_model_access_group_erp_manager only
    _access = {"base.group_erp_manager": "rwcu"}

    name = fields.Char("Name", required=True)
    active = fields.Boolean(
        "Active",
        default=True,
        help="If you uncheck the active field, it will disable the ACL without deleting it "
        "(if you delete a native ACL, it will be re-created when you reload the module).",
    )
    model_id = fields.Many2one("ir.model", "Model", required=True, ondelete="cascade")
    group_id = fields.Many2one("res.groups", "Group", ondelete="restrict")
    perm_read = fields.Boolean("Read Access")
    perm_write = fields.Boolean("Write Access")
    perm_create = fields.Boolean("Create Access")
    perm_unlink = fields.Boolean("Delete Access")


class IrAccess(Model):
    """Odoo 20's access model (odoo/odoo odoo/addons/base/models/ir_access.py @ 5d9a6616,
    from source, not a capture): one line per (model, group) with its ``operation``
    letters; a line without a group would restrict, the fake writes none."""

    _name = "ir.access"
    _description = "Access"
    _order = "model_id,group_id,id"
    _min_version = 20
    _access = {"base.group_erp_manager": "rwcu"}

    name = fields.Char("Name")
    active = fields.Boolean("Active", default=True)
    model_id = fields.Many2one("ir.model", "Model", required=True, ondelete="cascade")
    group_id = fields.Many2one("res.groups", "Group", ondelete="restrict")
    operation = fields.Char("Operation", required=True, default="rwcd")
    domain = fields.Char("Domain")


def _operation(letters: str) -> str:
    """The fake's "rwcu" letters as ir.access's "rwcd" (d: delete)."""
    return "".join(o for o, f in zip("rwcd", "rwcu", strict=True) if f in letters)


def describe_access(env: Environment) -> None:
    """One ``ir.model.access`` row per (model, group) of every model's ``_access`` table.

    A model without a table is open to everyone in the fake: it gets one line without a
    group granting everything, which is what Odoo's check would conclude from such a line.
    """
    db = env.db
    unified = "ir.access" in env
    if "ir.model.access" not in env and not unified:
        return
    group_ids = {x: rid for x, (m, rid) in db.xmlids.items() if m == "res.groups"}
    model_ids = {row["model"]: rid for rid, row in db.store.get("ir.model", {}).items()}
    for model_name, cls in sorted(env.registry.items()):
        table = cls._access if cls._access is not None else {"": "rwcu"}
        for group, letters in sorted(table.items()):
            gid = group_ids.get(group) if group not in ("", "*") else False
            if gid is None:
                continue  # a group of a module the database does not have
            suffix = group.replace(".", "_") if gid else "all"
            if unified:
                # 20: a line without a group restricts; open to all = one line per group
                for group_id in [gid] if gid else sorted(group_ids.values()):
                    db.insert(
                        "ir.access",
                        {
                            "name": f"access_{model_name.replace('.', '_')}_{suffix}",
                            "active": True,
                            "model_id": model_ids[model_name],
                            "group_id": group_id,
                            "operation": _operation(letters),
                            "domain": False,
                        },
                    )
                continue
            db.insert(
                "ir.model.access",
                {
                    "name": f"access_{model_name.replace('.', '_')}_{suffix}",
                    "active": True,
                    "model_id": model_ids[model_name],
                    "group_id": gid,
                    "perm_read": "r" in letters,
                    "perm_write": "w" in letters,
                    "perm_create": "c" in letters,
                    "perm_unlink": "u" in letters,
                },
            )


class IrModelFields(Model):
    _name = "ir.model.fields"
    _description = "Fields"
    _order = "name"
    _rec_name = "field_description"
    _access = _ERP_MANAGER_ONLY

    name = fields.Char("Field Name", required=True)
    model = fields.Char(
        "Model Name", required=True, help="The technical name of the model this field belongs to"
    )
    relation = fields.Char(
        "Related Model", help="For relationship fields, the technical name of the target model"
    )
    relation_field = fields.Char(
        "Relation Field",
        help="For one2many fields, the field on the target model that implement the opposite"
        " many2one relationship",
    )
    model_id = fields.Many2one(
        "ir.model",
        "Model",
        required=True,
        ondelete="cascade",
        help="The model this field belongs to",
    )
    field_description = fields.Char("Field Label", required=True, translate=True)
    help = fields.Text("Field Help", translate=True)
    ttype = fields.Selection(
        [
            (t, t)
            for t in (
                "binary",
                "boolean",
                "char",
                "date",
                "datetime",
                "float",
                "html",
                "integer",
                "json",
                "many2many",
                "many2one",
                "many2one_reference",
                "monetary",
                "one2many",
                "properties",
                "properties_definition",
                "reference",
                "selection",
                "text",
            )
        ],
        "Field Type",
        required=True,
    )
    copied = fields.Boolean("Copied", help="Whether the value is copied when duplicating a record.")
    related = fields.Char(
        "Related Field Definition",
        help="The corresponding related field, if any. This must be a dot-separated list of"
        " field names.",
    )
    required = fields.Boolean("Required")
    readonly = fields.Boolean("Readonly")
    index = fields.Boolean("Indexed")
    store = fields.Boolean(
        "Stored", default=True, help="Whether the value is stored in the database."
    )
    size = fields.Integer("Size")
    state = fields.Selection(
        [("manual", "Custom Field"), ("base", "Base Field")],
        "Type",
        required=True,
        default="manual",
        readonly=True,
    )
    on_delete = fields.Selection(
        [("cascade", "Cascade"), ("set null", "Set NULL"), ("restrict", "Restrict")],
        "On Delete",
        default="set null",
        help="On delete property for many2one fields",
    )
    domain = fields.Char(
        "Domain",
        default="[]",
        help="The optional domain to restrict possible values for relationship fields, specified"
        " as a Python expression defining a list of triplets. For example: [('color','=','red')]",
    )
    depends = fields.Char(
        "Dependencies",
        help="Dependencies of compute method; a list of comma-separated field names, like\n\n"
        "    name, partner_id.name",
    )
    compute = fields.Text(
        "Compute",
        help="Code to compute the value of the field.\nIterate on the recordset 'self' and"
        " assign the field's value:\n\n    for record in self:\n"
        "        record['size'] = len(record.name)\n\n"
        "Modules time, datetime, dateutil are available.",
    )
    currency_field = fields.Char(
        "Currency field", help="Name of the Many2one field holding the res.currency"
    )
