"""Transfers: imitates Odoo's ``stock.picking`` (module stock, sale_stock's sale_id).

The picking state follows its moves as in Odoo's ``_compute_state``; validation returns
True, the "Create Backorder?" act_window when a move is short (exactly as captured), or
the "Transfer trouble alert!" UserError when nothing is reserved, or (stock_sms) the
one-time "SMS" wizard of ``confirm.stock.sms`` on the company's first delivery to a
partner with a phone.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models import stock_help as H
from fake_odoo.models.common import vals_batch
from fake_odoo.models.res_company import sms_confirmation_field
from fake_odoo.models.stock import STOCK_USER
from fake_odoo.models.stock_move import DONE_MESSAGE
from fake_odoo.orm import api, fields
from fake_odoo.orm.exceptions import UserError
from fake_odoo.orm.model import Model

PICKING_STATES = [
    ("draft", "Draft"),
    ("waiting", "Waiting Another Operation"),
    ("confirmed", "Waiting"),
    ("assigned", "Ready"),
    ("done", "Done"),
    ("cancel", "Cancelled"),
]
ZERO_QUANTITY = (
    "Transfer trouble alert! Validating a zero quantity transfer? You're not moving invisible"
    " goods around are you?\nSet some quantities and let's get moving!"
)
# Odoo 17's refusal, also raised for a done picking (flow_stock_picking_validate.json step 23)
NO_QUANTITY_17 = (
    "You cannot validate a transfer if no quantities are reserved. To force the transfer,"
    " encode quantities."
)
BACKORDER_VIEW_ID = 1013  # the view id the captured server put in the wizard action
SMS_VIEW_ID = 1199  # stock_sms.view_confirm_stock_sms on the captured server


class StockPicking(Model):
    _name = "stock.picking"
    _description = "Transfer"
    _order = "priority desc, scheduled_date asc, id desc"
    _access = {
        STOCK_USER: "rwcu",
        "stock.group_stock_manager": "rwcu",
        "sales_team.group_sale_salesman": "r",
    }

    name = fields.Char("Reference", default="/", copy=False, readonly=True)
    origin = fields.Char("Source Document", help=H.PICKING_ORIGIN)
    note = fields.Html("Notes")
    backorder_id = fields.Many2one(
        "stock.picking", "Back Order of", copy=False, readonly=True, help=H.PICKING_BACKORDER_ID
    )
    backorder_ids = fields.One2many("stock.picking", "backorder_id", "Back Orders")
    move_type = fields.Selection(
        [("direct", "As soon as possible"), ("one", "When all products are ready")],
        "Shipping Policy",
        required=True,
        default="direct",
        help=H.PICKING_MOVE_TYPE,
    )
    state = fields.Selection(
        PICKING_STATES, "Status", readonly=True, default="draft", copy=False, help=H.PICKING_STATE
    )
    priority = fields.Selection(
        [("0", "Normal"), ("1", "Urgent")], "Priority", default="0", help=H.PICKING_PRIORITY
    )
    scheduled_date = fields.Datetime(
        "Scheduled Date", default=lambda env: env.db.now_str(), help=H.PICKING_SCHEDULED_DATE
    )
    date_deadline = fields.Datetime("Deadline", readonly=True, help=H.PICKING_DATE_DEADLINE)
    date_done = fields.Datetime("Date of Transfer", copy=False, help=H.PICKING_DATE_DONE)
    location_id = fields.Many2one("stock.location", "Source Location", required=True)
    location_dest_id = fields.Many2one("stock.location", "Destination Location", required=True)
    move_ids = fields.One2many("stock.move", "picking_id", "Stock Moves", copy=True)
    picking_type_id = fields.Many2one("stock.picking.type", "Operation Type", required=True)
    picking_type_code = fields.Selection(
        [("incoming", "Receipt"), ("outgoing", "Delivery"), ("internal", "Internal Transfer")],
        "Type of Operation",
        related="picking_type_id.code",
    )
    partner_id = fields.Many2one("res.partner", "Contact")
    company_id = fields.Many2one("res.company", "Company", default=1, readonly=True)
    user_id = fields.Many2one("res.users", "Responsible")
    is_locked = fields.Boolean("Is Locked", default=True, help=H.PICKING_IS_LOCKED)
    printed = fields.Boolean("Printed", copy=False)
    sale_id = fields.Many2one("sale.order", "Sales Order")
    product_id = fields.Many2one(
        "product.product",
        "Product",
        compute="_compute_product",
        store=False,
        search="_search_product_id",
    )
    products_availability = fields.Char(
        "Product Availability",
        compute="_compute_availability",
        store=False,
        help=H.PICKING_PRODUCTS_AVAILABILITY,
    )
    products_availability_state = fields.Selection(
        [("available", "Available"), ("expected", "Expected"), ("late", "Late")],
        "Products Availability State",
        compute="_compute_availability_state",
        store=False,
        search="_search_availability_state",
    )

    def _search_product_id(self, operator: str, value: Any) -> list[Any]:
        return [("move_ids.product_id", operator, value)]

    def _search_availability_state(self, operator: str, value: Any) -> list[Any]:
        ids = [p.id for p in self.sudo().search([]) if p._compute_availability_state() == value]
        return [("id", "in" if operator in ("=", "in") else "not in", ids)]

    def _compute_product(self) -> Any:
        products = self.sudo().move_ids.mapped("product_id")
        return products.ids[0] if len(products) == 1 else False

    def _compute_availability_state(self) -> Any:
        if (
            self.state not in ("confirmed", "waiting", "assigned")
            or self.picking_type_code == "incoming"
        ):
            return False
        return "available" if self.state == "assigned" else "late"

    def _compute_availability(self) -> Any:
        state = self._compute_availability_state()
        return {"available": "Available", "late": "Not Available"}.get(state or "", False)

    def _refresh_state(self) -> None:
        """Derive the state from the moves (Odoo's _compute_state), keeping draft/done/cancel."""
        for picking in self.sudo().exists():
            states = [m.state for m in picking.move_ids]
            if not states:
                new = "draft" if picking.state != "cancel" else "cancel"
            elif all(s == "cancel" for s in states):
                new = "cancel"
            elif all(s in ("done", "cancel") for s in states):
                new = "done"
            elif any(s == "draft" for s in states):
                new = "draft"
            else:
                live = [s for s in states if s not in ("done", "cancel")]
                if picking.move_type == "one":
                    new = "assigned" if all(s == "assigned" for s in live) else "confirmed"
                elif any(s in ("assigned", "partially_available") for s in live):
                    new = "assigned"
                else:
                    new = "waiting" if all(s == "waiting" for s in live) else "confirmed"
            if new != picking.state:
                picking.env.db.update("stock.picking", picking.id, {"state": new})
        orders = self.sudo().exists().mapped("sale_id")
        if orders:
            orders._recompute()

    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        for vals in batch:
            ptype = self.env["stock.picking.type"].sudo().browse(vals.get("picking_type_id") or [])
            if ptype:
                vals.setdefault("location_id", ptype.default_location_src_id.id)
                vals.setdefault("location_dest_id", ptype.default_location_dest_id.id)
                if vals.get("name", "/") in ("/", False, None):
                    vals["name"] = ptype.next_name()
            vals.setdefault("date_deadline", vals.get("scheduled_date") or self.env.db.now_str())
        pickings = super().create(batch)
        pickings.sudo().move_ids.filtered(lambda m: not m.reference)._recompute()
        return pickings

    def unlink(self) -> Any:
        if any(p.state == "done" for p in self.sudo()):
            raise UserError(DONE_MESSAGE)
        return super().unlink()

    # -- actions ------------------------------------------------------------------------------
    def action_confirm(self) -> bool:
        moves = self.sudo().move_ids.filtered(lambda m: m.state == "draft")
        if moves:
            moves.write({"state": "confirmed"})
        self._refresh_state()
        return True

    def action_assign(self) -> bool:
        self.filtered(lambda p: p.state == "draft").action_confirm()
        moves = self.sudo().move_ids.filtered(lambda m: m.state not in ("draft", "cancel", "done"))
        if not moves:
            raise UserError("Nothing to check the availability for.")
        moves._reserve()
        self._refresh_state()
        return True

    def action_cancel(self) -> bool:
        self.sudo().move_ids._action_cancel()
        self.write({"is_locked": True})
        self._refresh_state()
        return True

    def button_validate(self) -> Any:
        if self.env.major <= 17:
            self._sanity_check_17()
        pickings = self.filtered(lambda p: p.state not in ("done", "cancel"))
        if not pickings:
            return True
        pickings.filtered(lambda p: p.state == "draft").action_confirm()
        for picking in pickings.sudo():
            if not any(m.done_quantity() > 0 for m in picking.move_ids):
                raise UserError(NO_QUANTITY_17 if self.env.major <= 17 else ZERO_QUANTITY)
        context = self.env.context
        if self.env.major >= 17:
            pickings.sudo().move_ids.filtered(
                lambda m: not m.picked and m.quantity and m.state not in ("done", "cancel")
            ).write({"picked": True})
        short = pickings.sudo().filtered(lambda p: p._is_short())
        if short and not context.get("skip_backorder"):
            ask = short.filtered(lambda p: p.picking_type_id.create_backorder == "ask")
            if ask:
                return self._backorder_action(ask)
        warn = pickings.sudo().filtered(lambda p: p._warn_sms())
        if warn and not context.get("skip_sms"):
            return self._sms_action(warn)
        cancel_backorder = bool(context.get("cancel_backorder"))
        not_to_backorder = set(context.get("picking_ids_not_to_backorder") or [])
        for picking in pickings.sudo():
            never = picking.picking_type_id.create_backorder == "never"
            picking._done(
                backorder=not (cancel_backorder or never or picking.id in not_to_backorder)
            )
        return True

    def _sanity_check_17(self) -> None:
        """Odoo 17 checks every picking, done ones included, for a quantity on an open move;
        19 leaves done pickings out and words the refusal otherwise."""
        for picking in self.sudo():
            open_moves = picking.move_ids.filtered(lambda m: m.state not in ("done", "cancel"))
            if picking.state == "draft":
                continue  # confirmed (and reserved) first, then checked below
            if not any(m.done_quantity() > 0 for m in open_moves):
                raise UserError(NO_QUANTITY_17)

    def _warn_sms(self) -> bool:
        """stock_sms: the company still has to be told that deliveries can send texts."""
        picking: Any = self.sudo()
        company = picking.company_id
        return bool(
            "confirm.stock.sms" in self.env  # stock_sms installed
            and picking.picking_type_id.code == "outgoing"
            and picking.partner_id.phone
            and company[sms_confirmation_field(self.env.major)]
            and not company.has_received_warning_stock_sms
        )

    def _sms_action(self, pickings: Any) -> dict[str, Any]:
        wizard = self.env["confirm.stock.sms"].create({"pick_ids": [(4, p.id) for p in pickings]})
        return {
            "name": "SMS",
            "type": "ir.actions.act_window",
            "view_mode": "form",
            "res_model": "confirm.stock.sms",
            "views": [[SMS_VIEW_ID, "form"]],
            "view_id": SMS_VIEW_ID,
            "target": "new",
            "res_id": wizard.id,
            "context": {**self.env.context, "button_validate_picking_ids": self.ids},
        }

    def _is_short(self) -> bool:
        return any(
            m.done_quantity() < m.product_uom_qty
            for m in self.move_ids
            if m.state not in ("done", "cancel")
        )

    def _backorder_action(self, pickings: Any) -> dict[str, Any]:
        ids = self.ids if len(self) else pickings.ids
        return {
            "name": "Create Backorder?",
            "type": "ir.actions.act_window",
            "view_mode": "form",
            "res_model": "stock.backorder.confirmation",
            "views": [[BACKORDER_VIEW_ID, "form"]],
            "view_id": BACKORDER_VIEW_ID,
            "target": "new",
            "context": {
                "button_validate_picking_ids": ids,
                "default_show_transfers": False,
                "default_pick_ids": [[4, pid] for pid in pickings.ids],
            },
        }

    def _done(self, backorder: bool) -> None:
        """Validate one picking: done moves, optional backorder of what remains."""
        remaining = []
        for move in self.move_ids.filtered(lambda m: m.state not in ("done", "cancel")):
            qty, demand = move.done_quantity(), move.product_uom_qty
            if qty < demand and backorder:
                remaining.append((move, demand - qty))
                move.write({"product_uom_qty": qty})
            if qty <= 0:
                move._action_cancel()
        live = self.move_ids.filtered(lambda m: m.state not in ("done", "cancel"))
        live._action_done()
        self.env.db.update("stock.picking", self.id, {"date_done": self.env.db.now_str()})
        self._refresh_state()
        if remaining:
            self._create_backorder(remaining)

    def _create_backorder(self, remaining: list[tuple[Any, float]]) -> Any:
        moves = [
            (
                0,
                0,
                {
                    "product_id": move.product_id.id,
                    "product_uom_qty": qty,
                    "sale_line_id": move.sale_line_id.id,
                    "origin": move.origin,
                    "partner_id": move.partner_id.id,
                    "state": "draft",
                },
            )
            for move, qty in remaining
        ]
        backorder = self.create(
            {
                "picking_type_id": self.picking_type_id.id,
                "origin": self.origin,
                "partner_id": self.partner_id.id,
                "sale_id": self.sale_id.id,
                "backorder_id": self.id,
                "move_type": self.move_type,
                "scheduled_date": self.scheduled_date,
                "location_id": self.location_id.id,
                "location_dest_id": self.location_dest_id.id,
                "move_ids": moves,
            }
        )
        backorder.action_confirm()
        backorder.action_assign()
        return backorder
