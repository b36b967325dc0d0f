"""``res.groups`` (access groups) and the name of the users' group field, by version."""

from __future__ import annotations

from typing import Any

from fake_odoo.orm import fields
from fake_odoo.orm.database import Environment
from fake_odoo.orm.model import Model


def groups_field(env: Environment) -> str:
    """The users' group field: ``group_ids`` from Odoo 19, ``groups_id`` before."""
    return "group_ids" if env.major >= 19 else "groups_id"


#: Odoo <= 17's (category, name) of the groups whose naming 19 changed (19 has privileges
#: such as "Role"): 17's ACL errors print "Administration/Access Rights",
#: "Administration/Settings", "Sales/Administrator" (odoo17/err_xmlrpc_demo_unlink_user.json,
#: err_xmlrpc_demo_read_config_parameter.json, flow_demo_user_permissions.json step 15)
GROUPS_17: dict[str, tuple[str, str]] = {
    "base.group_user": ("User types", "Internal User"),
    "base.group_portal": ("User types", "Portal"),
    "base.group_public": ("User types", "Public"),
    "base.group_erp_manager": ("Administration", "Access Rights"),
    "base.group_system": ("Administration", "Settings"),
    "sales_team.group_sale_manager": ("Sales", "Administrator"),
}


def group_naming(major: int, xmlid: str, category: str, name: str) -> tuple[str, str]:
    """The (category, name) a group of the demo data has on this version."""
    if major <= 17:
        return GROUPS_17.get(xmlid, (category, name))
    return category, name


def acl_group_name(group: Any) -> str:
    """How an ACL refusal names a group: Odoo 17's ``group_names_with_access`` joins category
    and name with a bare "/"; 19 prints the group's full name."""
    if group.env.major <= 17 and group.category_name:
        return f"{group.category_name}/{group.name}"
    return str(group.full_name or group.name)


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

    def _acl_name(self) -> str:
        """How an ACL refusal names this group (``orm.access.acl_error``)."""
        return acl_group_name(self)
