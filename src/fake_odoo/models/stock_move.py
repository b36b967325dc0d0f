"""Stock moves: imitates Odoo's ``stock.move`` (module stock, sale_stock's sale_line_id).

A move's ``quantity`` is what is reserved/picked (Odoo 17+); writing it below the demand
makes the move "partially_available", as captured.  Done moves update the quants, which
is what makes ``qty_available`` drop.  Odoo 14-16 call the done quantity ``quantity_done``:
it is declared for those versions and, when left at zero, validation uses the reservation
(the effect of Odoo's immediate-transfer wizard, which the fake does not show).
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models import stock_help as H
from fake_odoo.models.common import vals_batch
from fake_odoo.models.product import is_storable
from fake_odoo.models.stock import (
    STOCK_USER,
    USAGE_HELP,
    add_quantity,
    on_hand,
    reserved,
    sync_reserved,
    usages,
)
from fake_odoo.models.stock_move_line import sync_move_lines
from fake_odoo.orm import api, fields
from fake_odoo.orm.exceptions import UserError
from fake_odoo.orm.model import Model

MOVE_STATES = [
    ("draft", "New"),
    ("waiting", "Waiting Another Move"),
    ("confirmed", "Waiting"),
    ("partially_available", "Partially Available"),
    ("assigned", "Available"),
    ("done", "Done"),
    ("cancel", "Cancelled"),
]


def move_states(model: Any) -> list[tuple[str, str]]:
    """17 calls "confirmed" "Waiting Availability" (flow_stock_picking_validate.json step 28)."""
    if model.env.major <= 17:
        return [(k, "Waiting Availability" if k == "confirmed" else v) for k, v in MOVE_STATES]
    return MOVE_STATES


DONE_MESSAGE = (
    "You cannot cancel a stock move that has been set to 'Done'. Create a return in order to"
    " reverse the moves which took place."
)


class StockMove(Model):
    _name = "stock.move"
    _description = "Stock Move"
    _order = "sequence, id"
    _access = {
        STOCK_USER: "rwcu",
        "stock.group_stock_manager": "rwcu",
        "sales_team.group_sale_salesman": "r",
    }

    name = fields.Char("Description", max_version=18)
    sequence = fields.Integer("Sequence", default=10)
    reference = fields.Char("Reference", compute="_compute_reference", store=True)
    origin = fields.Char("Source Document")
    date = fields.Datetime(
        "Date Scheduled", required=True, default=lambda env: env.db.now_str(), help=H.MOVE_DATE
    )
    state = fields.Selection(
        move_states, "Status", readonly=True, default="draft", copy=False, help=H.MOVE_STATE
    )
    product_id = fields.Many2one("product.product", "Product", required=True)
    product_uom_qty = fields.Float(
        "Demand", required=True, default=0.0, help=H.MOVE_PRODUCT_UOM_QTY
    )
    product_uom = fields.Many2one("uom.uom", "Unit", required=True, default=1)
    quantity = fields.Float("Quantity", copy=False)
    quantity_done = fields.Float("Quantity Done", copy=False, max_version=16)
    picked = fields.Boolean("Picked", copy=False, min_version=17, help=H.MOVE_PICKED)
    location_id = fields.Many2one(
        "stock.location", "Source Location", required=True, help=H.MOVE_LOCATION_ID
    )
    location_dest_id = fields.Many2one(
        "stock.location",
        "Intermediate Location",
        required=True,
        help=H.MOVE_LOCATION_DEST_ID,
    )
    location_usage = fields.Selection(
        usages, "Source Location Type", related="location_id.usage", help=USAGE_HELP
    )
    move_line_ids = fields.One2many("stock.move.line", "move_id", "Move Line")
    picking_id = fields.Many2one("stock.picking", "Transfer", ondelete="cascade")
    picking_type_id = fields.Many2one("stock.picking.type", "Operation Type")
    partner_id = fields.Many2one("res.partner", "Destination Address ", help=H.MOVE_PARTNER_ID)
    company_id = fields.Many2one("res.company", "Company", required=True, default=1)
    sale_line_id = fields.Many2one("sale.order.line", "Sale Line")
    procure_method = fields.Selection(
        [
            ("make_to_stock", "Default: Take From Stock"),
            ("make_to_order", "Advanced: Apply Procurement Rules"),
        ],
        "Supply Method",
        required=True,
        default="make_to_stock",
        help=H.MOVE_PROCURE_METHOD,
    )
    priority = fields.Selection(
        [("0", "Normal"), ("1", "Urgent")], "Priority", default="0", readonly=True
    )

    def _compute_reference(self) -> Any:
        picking = self.sudo().picking_id
        return picking.name if picking else (self.origin or False)

    def _compute_display_name(self) -> Any:
        product = self.sudo().product_id.display_name
        return f"{self.reference}: {product}" if self.reference else product

    # -- quantities ---------------------------------------------------------------------------
    def done_quantity(self) -> float:
        """What validation moves: ``quantity`` (17+), ``quantity_done`` or the reservation."""
        if self.env.major <= 16 and self.quantity_done:
            return float(self.quantity_done)
        return float(self.quantity or 0.0)

    def quantity_delivered(self) -> float:
        """Signed quantity this done move delivered to a customer (for qty_delivered)."""
        dest, src = self.sudo().location_dest_id.usage, self.sudo().location_id.usage
        if dest == "customer" and src != "customer":
            return float(self.quantity)
        if src == "customer" and dest != "customer":
            return -float(self.quantity)
        return 0.0

    def _state_for(self, quantity: float) -> str:
        if quantity <= 0:
            return "confirmed"
        return "assigned" if quantity >= self.product_uom_qty else "partially_available"

    def _reserve(self) -> None:
        """Reserve what is available (storable goods), or everything (other goods)."""
        for move in self.sudo():
            if move.state not in ("confirmed", "waiting", "partially_available"):
                continue
            product, source = move.product_id, move.location_id
            if not is_storable(product) or source.usage != "internal":
                qty = move.product_uom_qty
            else:
                free = on_hand(move.env, product.id) - reserved(
                    move.env, product.id, source.id, exclude=move.id
                )
                qty = max(0.0, min(move.product_uom_qty, free))
            move.write({"quantity": qty, "state": move._state_for(qty)})

    # -- CRUD ---------------------------------------------------------------------------------
    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        for vals in batch:
            picking = self.env["stock.picking"].sudo().browse(vals.get("picking_id") or [])
            if picking:
                vals.setdefault("location_id", picking.location_id.id)
                vals.setdefault("location_dest_id", picking.location_dest_id.id)
                vals.setdefault("picking_type_id", picking.picking_type_id.id)
                if picking.state not in ("draft", "done", "cancel"):
                    vals.setdefault("state", "confirmed")
            product = self.env["product.product"].sudo().browse(vals.get("product_id") or [])
            if product:
                vals.setdefault("product_uom", product.uom_id.id)
                if self.env.major <= 18:
                    vals.setdefault("name", product.display_name)
        moves = super().create(batch)
        moves.sudo()._after_change()
        return moves

    def _after_change(self) -> None:
        """Keep move lines, quant reservations and the pickings' states in step."""
        moves = self.sudo().exists()
        sync_move_lines(moves)
        sync_reserved(self.env, set(moves.mapped("product_id").ids))
        moves.mapped("picking_id")._refresh_state()

    def write(self, vals: dict[str, Any]) -> Any:
        if "quantity" in vals and "state" not in vals:
            # Writing the quantity re-derives availability, as Odoo's move lines do.
            for move in self.sudo():
                if move.state in ("confirmed", "partially_available", "assigned"):
                    super(StockMove, move).write(
                        {**vals, "state": move._state_for(float(vals["quantity"] or 0))}
                    )
                else:
                    super(StockMove, move).write(vals)
            result = True
        else:
            result = super().write(vals)
        self._after_change()
        return result

    def unlink(self) -> Any:
        if any(move.state == "done" for move in self.sudo()):
            raise UserError("You can only delete draft or cancelled moves.")
        pickings = self.sudo().mapped("picking_id")
        products = set(self.sudo().mapped("product_id").ids)
        result = super().unlink()
        sync_reserved(self.env, products)
        pickings.exists()._refresh_state()
        return result

    # -- actions ------------------------------------------------------------------------------
    def _action_cancel(self) -> None:
        if any(move.state == "done" for move in self.sudo()):
            raise UserError(DONE_MESSAGE)
        self.sudo().write({"state": "cancel", "quantity": 0.0})

    def _action_done(self) -> None:
        """Move the done quantities between quants and mark the moves done."""
        for move in self.sudo():
            qty = move.done_quantity()
            if is_storable(move.product_id):
                if move.location_id.usage == "internal":
                    add_quantity(move.env, move.product_id.id, move.location_id.id, -qty)
                if move.location_dest_id.usage == "internal":
                    add_quantity(move.env, move.product_id.id, move.location_dest_id.id, qty)
            vals: dict[str, Any] = {"state": "done", "quantity": qty, "date": move.env.db.now_str()}
            if move.env.major >= 17:
                vals["picked"] = True
            move.write(vals)
        lines = self.sudo().mapped("sale_line_id")
        if lines:
            lines._recompute()
            lines.mapped("order_id")._recompute()
