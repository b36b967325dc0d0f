"""Framework models of the ``base`` module: groups, users, API keys, system parameters,
and the ``ir.model`` / ``ir.model.fields`` views of the registry.

Imitates Odoo 19 (``res.users.group_ids``; ``groups_id`` up to 18), with the
framework groups and the superuser (uid 1, ``__system__``) created by
``bootstrap`` when a Database is built.  Business models (res.partner,
res.company, ...) live in sibling modules.
"""

from __future__ import annotations

import hashlib
import secrets
import zoneinfo
from typing import Any

from fake_odoo.models.common import pop_related, write_related
from fake_odoo.orm import access, api, fields
from fake_odoo.orm.database import SUPERUSER_ID, Environment
from fake_odoo.orm.model import Model, Rule

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

#: fields a user may write on their own record without the users ACL (Odoo's SELF_WRITEABLE)
SELF_WRITEABLE_FIELDS = ("signature", "action_id", "company_id", "email", "name", "lang", "tz")

TZ_HELP = (
    "When printing documents and exporting/importing data, time values are computed according"
    " to this timezone.\nIf the timezone is not set, UTC (Coordinated Universal Time) is used.\n"
    "Anywhere else, time values are computed according to the time offset of your web client."
)


def _tz_selection(model: Any) -> list[tuple[str, str]]:
    names = sorted(zoneinfo.available_timezones(), key=lambda t: "_" if t.startswith("Etc/") else t)
    return [(name, name) for name in names]


def _lang_selection(model: Any) -> list[tuple[str, str]]:
    return [("en_US", "English (US)")]


def groups_field(env: Environment) -> str:
    """The users' group field: ``group_ids`` from Odoo 19, ``groups_id`` before."""
    return "group_ids" if env.major >= 19 else "groups_id"


def hash_key(key: str) -> str:
    return "sha256$" + hashlib.sha256(key.encode()).hexdigest()


class ResGroups(Model):
    _name = "res.groups"
    _description = "Access Groups"
    _order = "name"
    _access = {"base.group_user": "r", "base.group_erp_manager": "rwcu"}

    name = fields.Char("Name", required=True, translate=True)
    category_name = fields.Char("Category")  # stands for Odoo's category/privilege record
    full_name = fields.Char("Group Name", compute="_compute_full_name", store=False)
    implied_ids = fields.Many2many("res.groups", string="Inherits")
    comment = fields.Text("Comment", translate=True)
    share = fields.Boolean("Share Group")
    user_ids = fields.Many2many(
        "res.users", string="Users", compute="_compute_user_ids", store=False
    )

    def _compute_full_name(self) -> str:
        return f"{self.category_name} / {self.name}" if self.category_name else str(self.name)

    def _compute_user_ids(self) -> list[int]:
        fname = groups_field(self.env)
        rows = self.env.db.rows("res.users")
        return [uid for uid, row in rows.items() if self.id in (row.get(fname) or [])]

    def _compute_display_name(self) -> Any:
        return self.full_name


class ResUsers(Model):
    _name = "res.users"
    _description = "User"
    _order = "name, login"
    _access = {"base.group_user": "r", "base.group_erp_manager": "rwcu"}
    _sql_constraints = [
        ("login_key", "UNIQUE (login)", "You can not have two users with the same login!")
    ]

    # name, email, lang and tz live on the partner (Odoo's _inherits = {"res.partner": ...})
    name = fields.Char("Name", related="partner_id.name", readonly=False)
    login = fields.Char("Login", required=True, help="Used to log into the system")
    signature = fields.Html("Email Signature")
    password = fields.Char(
        "Password",
        compute="_compute_password",
        store=False,
        readonly=False,  # its inverse stores the password (see write)
        copy=False,
        help="Keep empty if you don't want the user to be able to connect on the system.",
    )
    partner_id = fields.Many2one(
        "res.partner",
        "Related Partner",
        required=True,
        ondelete="restrict",
        help="Partner-related data of the user",
    )
    company_id = fields.Many2one(
        "res.company", "Company", required=True, help="The default company for this user."
    )
    company_ids = fields.Many2many("res.company", string="Companies")
    group_ids = fields.Many2many(
        "res.groups", string="Groups", min_version=19, help="Groups explicitly assigned to the user"
    )
    groups_id = fields.Many2many("res.groups", string="Groups", max_version=18)
    all_group_ids = fields.Many2many(
        "res.groups",
        string="Groups and implied groups",
        compute="_compute_all_group_ids",
        search="_search_all_group_ids",
        store=False,
        min_version=19,
    )
    active = fields.Boolean("Active", default=True)
    tz = fields.Selection(
        _tz_selection, "Timezone", related="partner_id.tz", readonly=False, help=TZ_HELP
    )
    lang = fields.Selection(
        _lang_selection,
        "Language",
        related="partner_id.lang",
        readonly=False,
        help="All the emails and documents sent to this contact will be translated in this"
        " language.",
    )
    email = fields.Char("Email", related="partner_id.email", readonly=False)
    share = fields.Boolean(
        "Share User",
        compute="_compute_share",
        store=True,
        help="External user with limited access, created only for the purpose of sharing data.",
    )

    def _compute_password(self) -> str:
        return ""

    def _compute_all_group_ids(self) -> list[int]:
        """Odoo 19: the groups of the user and every group they imply."""
        return sorted(access.user_group_ids(self.env, self.id))

    def _search_all_group_ids(self, operator: str, value: Any) -> list[Any]:
        """Users having (or not) the groups, counting implied ones: a domain on ids."""
        rows = self.env.db.rows("res.users")
        wanted = set(value if isinstance(value, list) else [value])
        having = [uid for uid in rows if wanted & access.user_group_ids(self.env, uid)]
        negative = operator in ("not in", "!=")
        return [("id", "not in" if negative else "in", having)]

    def _add_implied_groups(self) -> None:
        """Odoo <= 18 stores the implied groups in ``groups_id`` itself (UsersImplied)."""
        if self.env.major >= 19:
            return
        db = self.env.db
        for uid in self.ids:
            row = db.row("res.users", uid) or {}
            current = set(row.get("groups_id") or [])
            closure = access.implied_closure(self.env, current)
            if closure != current:
                db.update("res.users", uid, {"groups_id": sorted(closure)})

    def _compute_share(self) -> bool:
        return "base.group_user" not in access.user_groups(self.env, self.id)

    @api.model
    def create(self, vals_list: Any) -> Any:
        vals_list = [vals_list] if isinstance(vals_list, dict) else list(vals_list)
        passwords = [vals.get("password") for vals in vals_list]
        clean = [{k: v for k, v in vals.items() if k != "password"} for vals in vals_list]
        partner_values = [pop_related(self, vals) for vals in clean]
        for vals, partner_vals in zip(clean, partner_values, strict=True):
            if not vals.get("partner_id"):
                name = partner_vals.get("name") or vals.get("login")
                created = {"name": name, **{k: v for k, v in partner_vals.items() if v}}
                vals["partner_id"] = self.env["res.partner"].sudo().create(created).id
            if vals.get("company_id") and "company_ids" not in vals:
                vals["company_ids"] = [(6, 0, [vals["company_id"]])]
        users = super().create(clean)
        users._add_implied_groups()
        for user, partner_vals in zip(users, partner_values, strict=True):
            write_related(user.sudo(), partner_vals)
        for user, password in zip(users, passwords, strict=True):
            if password:
                self.env.db.passwords[user.id] = str(password)
        return users

    def write(self, vals: dict[str, Any]) -> bool:
        vals = dict(vals)
        password = vals.pop("password", None)
        own = self.ids == [self.env.uid]
        if vals:
            # Odoo lets users change a few fields of their own record (SELF_WRITEABLE_FIELDS)
            target: ResUsers = (
                self.sudo() if own and set(vals) <= set(SELF_WRITEABLE_FIELDS) else self
            )
            partner_vals = pop_related(self, vals)
            super(ResUsers, target).write(vals)
            if "groups_id" in vals:
                self._add_implied_groups()  # checks the access even when vals is empty
            write_related(target.sudo(), partner_vals)
        if password:
            if not own:
                access.check_acl(self, "write")
            for uid in self.ids:
                self.env.db.passwords[uid] = str(password)
        return True

    @api.model
    def context_get(self) -> dict[str, Any]:
        user = self.env.user.sudo()
        return {"lang": user.lang or "en_US", "tz": user.tz or False, "uid": self.env.uid}


class ResUsersApikeys(Model):
    _name = "res.users.apikeys"
    _description = "Users API Keys"
    _order = "id"
    _access = {"base.group_user": "ru", "base.group_system": "rwcu"}
    _rules = [Rule(groups=("base.group_user",), domain=lambda env: [("user_id", "=", env.uid)])]

    name = fields.Char("Description", required=True, readonly=True)
    user_id = fields.Many2one("res.users", "User", required=True, readonly=True, ondelete="cascade")
    scope = fields.Char("Scope", readonly=True)
    key = fields.Char("Key", readonly=True, groups="base.group_system", copy=False)
    index = fields.Char("Index", readonly=True)
    expiration_date = fields.Datetime("Expiration Date", readonly=True, min_version=18)

    @api.model
    def create(self, vals_list: Any) -> Any:
        vals_list = [vals_list] if isinstance(vals_list, dict) else list(vals_list)
        prepared = []
        for vals in vals_list:
            vals = dict(vals)
            key = vals.get("key")
            if key and not str(key).startswith("sha256$"):
                vals["index"] = str(key)[:8]
                vals["key"] = hash_key(str(key))
            prepared.append(vals)
        return super().create(prepared)

    @api.model
    def _generate(self, scope: str | None, name: str, user_id: int | None = None) -> str:
        """A new key for the user (returned once, stored hashed), like Odoo's wizard."""
        key = secrets.token_hex(20)
        self.sudo().create(
            {"name": name, "scope": scope, "key": key, "user_id": user_id or self.env.uid}
        )
        return key


class IrConfigParameter(Model):
    _name = "ir.config_parameter"
    _description = "System Parameter"
    _rec_name = "key"
    _order = "key"
    _access = {"base.group_system": "rwcu"}
    _sql_constraints = [("key_uniq", "unique (key)", "Key must be unique.")]

    key = fields.Char("Key", required=True)
    value = fields.Text("Value", required=True)

    @api.model
    def get_param(self, key: str, default: Any = False) -> Any:
        access.check_acl(self, "read")
        found = self.sudo().search([("key", "=", key)], limit=1)
        return found.value if found else default

    @api.model
    def set_param(self, key: str, value: Any) -> bool:
        found = self.search([("key", "=", key)], limit=1)
        if found:
            found.write({"value": value})
        else:
            self.create({"key": key, "value": value})
        return True


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


FRAMEWORK_MODELS: tuple[type[Model], ...] = (
    ResGroups,
    ResUsers,
    ResUsersApikeys,
    IrConfigParameter,
    IrModel,
    IrModelFields,
)


def bootstrap(env: Environment) -> None:
    """Create what every database has: framework groups, the superuser, ir.model rows."""
    db = env.db
    if "res.groups" in env:
        ids: dict[str, int] = {}
        for xmlid, category, name, implied in BASE_GROUPS:
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


def check_credentials(env: Environment, login: str, secret: str) -> int | None:
    """The uid for ``login`` when ``secret`` is its password or one of its API keys."""
    if not login or not secret:
        return None
    rows = env.db.rows("res.users")
    uid = next((u for u, r in rows.items() if r.get("login") == login and r.get("active")), None)
    if uid is None:
        return None
    if env.db.passwords.get(uid) == secret:
        return uid
    return uid if check_api_key(env, secret) == uid else None


def check_api_key(env: Environment, key: str) -> int | None:
    """The active user owning API key ``key`` (not expired), else None."""
    if not key or "res.users.apikeys" not in env:
        return None
    hashed, now = hash_key(key), env.db.now_str()
    for row in env.db.rows("res.users.apikeys").values():
        if row.get("key") != hashed:
            continue
        if row.get("expiration_date") and row["expiration_date"] < now:
            continue
        user = env.db.row("res.users", row["user_id"])
        if user is not None and user.get("active"):
            return int(row["user_id"])
    return None
