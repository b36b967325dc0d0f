"""Demo documents: sales orders in every state, their deliveries (some validated), invoices
(draft, posted, paid) and CRM leads.  Everything is derived from fixed tables and the
order index, so two builds are identical."""

from __future__ import annotations

from typing import Any

from fake_odoo.demo.common import stamp
from fake_odoo.demo.html_notes import LEAD_NOTES, ORDER_TERMS, pick

# One pattern per order, cycled: (state, owner uid or 0, delivery, invoice); owner 5 is Marc
# Demo, whose uid depends on the version (``_uid``)
#   delivery: "" none, "done" validated, "open" left to do; invoice: "", "draft", "posted", "paid"
ORDER_PATTERNS = (
    ("draft", 5, "", ""),
    ("draft", 2, "", ""),
    ("sent", 2, "", ""),
    ("sale", 2, "done", "paid"),
    ("draft", 5, "", ""),
    ("sale", 5, "open", ""),
    ("sale", 0, "done", "posted"),
    ("cancel", 2, "", ""),
    ("sale", 2, "open", "draft"),
    ("sale", 5, "done", "posted"),
    ("sent", 0, "", ""),
    ("sale", 2, "done", ""),
    ("draft", 2, "", ""),
)
ORDER_COUNT = 39
LEADS = (
    ("Office Design Project", 15, 1, 24000.0),
    ("Quote for 150 carpets", 11, 2, 40000.0),
    ("Modern Open Space", 10, 3, 4500.0),
    ("Furnitures for new office", 9, 1, 8000.0),
    ("Distribuidor de mates en Córdoba", 0, 2, 1500000.0),
    ("Pedido mayorista de yerba", 0, 3, 650000.0),
    ("Interest in your products", 16, 1, 0.0),
    ("Need 20 Desks", 12, 4, 60000.0),
    ("Kit matero corporativo", 0, 1, 900000.0),
)


def build_orders(env: Any, customers: list[int], products: list[int], scale: int) -> None:
    # Odoo's demo gives Azure Interior "End of Following Month" as customer payment terms.
    env["res.partner"].browse(15).write({"property_payment_term_id": 6})
    goods = [p for p in products if env["product.product"].browse(p).type != "service"]
    for index in range(ORDER_COUNT * scale):
        state, owner, delivery, invoice = ORDER_PATTERNS[index % len(ORDER_PATTERNS)]
        if index % ORDER_COUNT == 36:
            owner = 2  # demo sees 17 of the 39 orders, as on the captured server
        partner = customers[index % len(customers)]
        lines = [
            (
                0,
                0,
                {
                    "product_id": goods[(index * 3 + k) % len(goods)],
                    "product_uom_qty": float(1 + (index + k) % 4),
                },
            )
            for k in range(1 + index % 3)
        ]
        order = env["sale.order"].create(
            {
                "partner_id": partner,
                "user_id": _uid(env, owner) or False,
                "order_line": lines,
                "date_order": stamp(days=index % 45),
                "client_order_ref": False,
                "note": pick(ORDER_TERMS, index),
            }
        )
        if state in ("sent", "sale", "cancel"):
            order.action_quotation_sent()
        if state in ("sale", "cancel"):
            order.action_confirm()
        if state == "cancel":
            # 17 asks through its cancel wizard unless told not to (flow_sale_order_cancel_wizard)
            order.with_context(disable_cancel_warning=True).action_cancel()
        if delivery == "done" and "picking_ids" in order._fields:  # sale_stock installed
            _deliver(order)
        if invoice:
            _invoice(env, order, invoice)


def _deliver(order: Any) -> None:
    for picking in order.picking_ids.filtered(lambda p: p.state == "assigned"):
        picking.with_context(
            skip_backorder=True, cancel_backorder=True, skip_sms=True
        ).button_validate()


def _invoice(env: Any, order: Any, status: str) -> None:
    lines = [
        (
            0,
            0,
            {
                "product_id": line.product_id.id,
                "quantity": line.product_uom_qty,
                "price_unit": line.price_unit,
                "sale_line_ids": [(6, 0, [line.id])],
            },
        )
        for line in order.order_line
    ]
    move = env["account.move"].create(
        {
            "move_type": "out_invoice",
            "partner_id": order.partner_id.id,
            "invoice_line_ids": lines,
            "invoice_origin": order.name,
            "ref": order.name,
            "invoice_user_id": order.user_id.id,
            "invoice_payment_term_id": 4,
        }
    )
    if status in ("posted", "paid"):
        move.action_post()
    if status == "paid":
        move.write({"payment_state": "paid"})


def _uid(env: Any, owner: int) -> int:
    """The tables' uid 5 is Marc Demo (19's uid): his uid on this version."""
    return int(env.ref("base.user_demo").id) if owner == 5 else owner


def build_leads(env: Any, scale: int) -> None:
    for index in range(len(LEADS) * scale):
        name, partner, stage, revenue = LEADS[index % len(LEADS)]
        lead = env["crm.lead"].create(
            {
                "name": name if index < len(LEADS) else f"{name} #{index}",
                "type": "lead" if index % 5 == 4 else "opportunity",
                "partner_id": partner or False,
                "stage_id": stage,
                "expected_revenue": revenue,
                "user_id": _uid(env, 5) if index % 2 else 2,
                "contact_name": False if partner else "Contacto Lujanita",
                "description": pick(LEAD_NOTES, index),
            }
        )
        if index % 7 == 6 and stage != 4:
            lead.action_set_lost(lost_reason_id=1 + index % 3)
