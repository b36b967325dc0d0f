"""``ir.model``, ``ir.model.access`` and ``ir.model.fields``: the registry seen as records.

Their rows are written from the model classes (``bootstrap`` and ``describe_access``), so
what a client reads there always matches what the fake serves.
"""

from __future__ import annotations

from fake_odoo.orm import fields
from fake_odoo.orm.database import Environment
from fake_odoo.orm.model import Model


class IrModel(Model):
    _name = "ir.model"
    _description = "Models"
    _order = "model"
    _access = {"": "r"}

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


class IrModelAccess(Model):
    """The ACL lines; the fake's checks read the models' ``_access`` tables, and these rows
    are built from the same tables (``describe_access``), so both always agree."""

    _name = "ir.model.access"
    _description = "Model Access"
    _order = "model_id,group_id,name,id"
    _access = {"base.group_user": "r", "base.group_system": "rwcu"}

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


def describe_access(env: Environment) -> None:
    """One ``ir.model.access`` row per (model, group) of every model's ``_access`` table.

    A model without a table is open to everyone in the fake: it gets one line without a
    group granting everything, which is what Odoo's check would conclude from such a line.
    """
    db = env.db
    if "ir.model.access" not in env:
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
    _access = {"": "r"}

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
