"""``res.groups`` (access groups) and the name of the users' group field, by version."""

from __future__ import annotations

from typing import Any

from fake_odoo.orm import fields
from fake_odoo.orm.database import Environment
from fake_odoo.orm.model import Model


def groups_field(env: Environment) -> str:
    """The users' group field: ``group_ids`` from Odoo 19, ``groups_id`` before."""
    return "group_ids" if env.major >= 19 else "groups_id"


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
