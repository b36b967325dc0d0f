"""``res.users`` and ``res.users.apikeys``, and the credential checks logins go through.

Imitates Odoo 19 (``res.users.group_ids``; ``groups_id`` up to 18); a user's name, email,
lang and tz live on its partner, as with Odoo's ``_inherits``.  Passwords are kept in
``Database.passwords``; API keys are stored hashed, as Odoo does.
"""

from __future__ import annotations

import hashlib
import secrets
import zoneinfo
from typing import Any

from fake_odoo.models.common import pop_related, write_related
from fake_odoo.orm import access, api, fields
from fake_odoo.orm.database import Environment
from fake_odoo.orm.model import Model, Rule

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


def hash_key(key: str) -> str:
    return "sha256$" + hashlib.sha256(key.encode()).hexdigest()


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
                self.env.db.set_password(user.id, str(password))
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
                self.env.db.set_password(uid, str(password))
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
