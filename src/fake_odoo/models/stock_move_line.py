"""Detailed operations: imitates Odoo's ``stock.move.line`` (module stock).

The fake keeps one line per move holding its reserved quantity (no lots, packages or
sublocations): ``sync_move_lines`` creates it when the move reserves something, follows
the move's quantity, state, picked flag and date, and drops it when the reservation goes
back to zero before the move is done.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.stock import STOCK_USER
from fake_odoo.orm import fields
from fake_odoo.orm.model import Model

LINE_STATES = [
    ("draft", "New"),
    ("waiting", "Waiting Another Move"),
    ("confirmed", "Waiting"),
    ("partially_available", "Partially Available"),
    ("assigned", "Available"),
    ("done", "Done"),
    ("cancel", "Cancelled"),
]


class StockMoveLine(Model):
    _name = "stock.move.line"
    _description = "Product Moves (Stock Move Line)"
    _order = "id"
    _rec_name = "product_id"
    _access = {
        STOCK_USER: "rwcu",
        "stock.group_stock_manager": "rwcu",
        "sales_team.group_sale_salesman": "r",
    }

    move_id = fields.Many2one("stock.move", "Stock Operation", ondelete="cascade")
    picking_id = fields.Many2one("stock.picking", "Transfer")
    company_id = fields.Many2one("res.company", "Company", required=True, default=1)
    product_id = fields.Many2one("product.product", "Product", ondelete="cascade")
    product_uom_id = fields.Many2one("uom.uom", "Unit", required=True, default=1)
    quantity = fields.Float("Quantity", copy=False)
    picked = fields.Boolean("Picked")
    lot_id = fields.Many2one("stock.lot", "Lot/Serial Number")
    date = fields.Datetime("Date", required=True, default=lambda env: env.db.now_str())
    location_id = fields.Many2one("stock.location", "From", required=True)
    location_dest_id = fields.Many2one("stock.location", "To", required=True)
    state = fields.Selection(LINE_STATES, "Status", readonly=True)
    reference = fields.Char("Reference", readonly=True)
    origin = fields.Char("Source", readonly=True)

    def _compute_display_name(self) -> Any:
        return self.sudo().product_id.display_name or False


def _line_vals(move: Any) -> dict[str, Any]:
    return {
        "move_id": move.id,
        "picking_id": move.picking_id.id or False,
        "company_id": move.company_id.id or 1,
        "product_id": move.product_id.id,
        "product_uom_id": move.product_uom.id or 1,
        "quantity": float(move.quantity or 0.0),
        "picked": bool(move.picked) if move.env.major >= 17 else False,
        "date": move.date,
        "location_id": move.location_id.id,
        "location_dest_id": move.location_dest_id.id,
        "state": move.state,
        "reference": move.reference or False,
        "origin": move.origin or False,
    }


def sync_move_lines(moves: Any) -> None:
    """One line per move with a reservation (or a done quantity), in step with the move."""
    lines_model = moves.env["stock.move.line"].sudo()
    for move in moves.sudo():
        lines = lines_model.search([("move_id", "=", move.id)])
        keep = (move.quantity or 0.0) > 0 and move.state != "cancel"
        if not keep:
            if lines and move.state != "done":
                lines.unlink()
            continue
        vals = _line_vals(move)
        if not lines:
            lines_model.create(vals)
            continue
        current = lines[0]
        changed = {k: v for k, v in vals.items() if current._raw(k) != v}
        if changed:
            current.write(changed)
