"""The validation wizards: Odoo's ``stock.backorder.confirmation`` and its
``stock.backorder.confirmation.line`` (module stock), and stock_sms's ``confirm.stock.sms``.

A client creates it with the context of the action ``button_validate`` returned and calls
``process`` (make a backorder) or ``process_cancel_backorder`` (validate without one) with
that same context; without ``button_validate_picking_ids`` both return True and do nothing,
as the captured server does.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.common import vals_batch
from fake_odoo.models.res_company import sms_confirmation_field
from fake_odoo.models.stock import STOCK_USER
from fake_odoo.orm import api, fields
from fake_odoo.orm.model import TransientModel

_WIZARD_ACCESS = {STOCK_USER: "rwcu"}


def _picking_ids_from_context(context: dict[str, Any]) -> list[int]:
    """The picking ids of ``default_pick_ids`` ([[4, id]] commands or plain ids)."""
    ids: list[int] = []
    for item in context.get("default_pick_ids") or []:
        if isinstance(item, int):
            ids.append(item)
        elif isinstance(item, (list, tuple)) and item and item[0] == 4:
            ids.append(int(item[1]))
        elif isinstance(item, (list, tuple)) and item and item[0] == 6:
            ids.extend(int(i) for i in item[2])
    return ids


class StockBackorderConfirmationLine(TransientModel):
    _name = "stock.backorder.confirmation.line"
    _description = "Backorder Confirmation Line"
    _access = _WIZARD_ACCESS

    backorder_confirmation_id = fields.Many2one(
        "stock.backorder.confirmation", "Immediate Transfer", ondelete="cascade"
    )
    picking_id = fields.Many2one("stock.picking", "Transfer")
    to_backorder = fields.Boolean("To Backorder")


class StockBackorderConfirmation(TransientModel):
    _name = "stock.backorder.confirmation"
    _description = "Backorder Confirmation"
    _access = _WIZARD_ACCESS

    pick_ids = fields.Many2many("stock.picking", "Pick")
    show_transfers = fields.Boolean("Show Transfers")
    backorder_confirmation_line_ids = fields.One2many(
        "stock.backorder.confirmation.line",
        "backorder_confirmation_id",
        "Backorder Confirmation Lines",
    )

    @api.model
    def default_get(self, fields_list: list[str]) -> dict[str, Any]:
        result: dict[str, Any] = super().default_get(fields_list)
        ids = _picking_ids_from_context(self.env.context)
        if "pick_ids" in fields_list and ids:
            result["pick_ids"] = [[6, 0, ids]]
        if "backorder_confirmation_line_ids" in fields_list and ids:
            result["backorder_confirmation_line_ids"] = [
                [0, 0, {"to_backorder": True, "picking_id": pid}] for pid in ids
            ]
        return result

    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        ids = _picking_ids_from_context(self.env.context)
        for vals in batch:
            picks = vals.get("pick_ids")
            if ids and not picks:
                vals["pick_ids"] = [(6, 0, ids)]
            if ids and not vals.get("backorder_confirmation_line_ids"):
                vals["backorder_confirmation_line_ids"] = [
                    (0, 0, {"to_backorder": True, "picking_id": pid}) for pid in ids
                ]
        return super().create(batch)

    def _to_validate(self) -> Any:
        ids = self.env.context.get("button_validate_picking_ids")
        if not ids:
            return None
        return self.env["stock.picking"].browse(ids)

    def process(self) -> Any:
        pickings = self._to_validate()
        if pickings is None:
            return True
        not_to_do = [
            line.picking_id.id
            for line in self.backorder_confirmation_line_ids
            if not line.to_backorder and line.picking_id
        ]
        pickings = pickings.with_context(skip_backorder=True)
        if not_to_do:
            pickings = pickings.with_context(picking_ids_not_to_backorder=not_to_do)
        return pickings.button_validate()

    def process_cancel_backorder(self) -> Any:
        pickings = self._to_validate()
        if pickings is None:
            return True
        return pickings.with_context(
            skip_backorder=True, picking_ids_not_to_backorder=self.pick_ids.ids
        ).button_validate()


class ConfirmStockSms(TransientModel):
    """stock_sms's one-time notice: answering it sets the company flags and validates."""

    _name = "confirm.stock.sms"
    _description = "Confirm Stock SMS"
    _access = _WIZARD_ACCESS

    pick_ids = fields.Many2many("stock.picking", "Pick")

    def _answer(self, flags: dict[str, Any]) -> Any:
        for company in self.sudo().pick_ids.mapped("company_id"):
            if not company.has_received_warning_stock_sms:
                company.write(flags)
        ids = self.env.context.get("button_validate_picking_ids")
        return self.env["stock.picking"].browse(ids or []).button_validate()

    def send_sms(self) -> Any:
        return self._answer({"has_received_warning_stock_sms": True})

    def dont_send_sms(self) -> Any:
        flag = sms_confirmation_field(self.env.major)
        return self._answer({"has_received_warning_stock_sms": True, flag: False})
