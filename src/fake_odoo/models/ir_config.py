"""``ir.config_parameter``: the system parameters (key/value pairs, admins only)."""

from __future__ import annotations

from typing import Any

from fake_odoo.orm import access, api, fields
from fake_odoo.orm.model import Model


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
