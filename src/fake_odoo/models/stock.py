"""Inventory reference data: imitates Odoo's ``stock.warehouse``, ``stock.location``,
``stock.picking.type`` and ``stock.quant`` (module stock).

Quants hold the on-hand quantity per product and internal location; reservations are
derived from the open moves (the fake's availability rule: reserve what is on hand and not
reserved by another move) and copied onto the quants' ``reserved_quantity`` by
``sync_reserved`` whenever moves change.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.common import selection_by_version
from fake_odoo.orm import fields
from fake_odoo.orm.model import Model

USAGES = [
    ("supplier", "Vendor"),
    ("view", "Virtual"),
    ("internal", "Internal"),
    ("customer", "Customer"),
    ("inventory", "Inventory Loss"),
    ("production", "Production"),
    ("transit", "Transit"),
]
#: Odoo 17's labels (odoo17/meta_fields_get_stock_location.json)
USAGES_17 = [
    ("supplier", "Vendor Location"),
    ("view", "View"),
    ("internal", "Internal Location"),
    ("customer", "Customer Location"),
    ("inventory", "Inventory Loss"),
    ("production", "Production"),
    ("transit", "Transit Location"),
]
usages = selection_by_version(USAGES_17, USAGES)
CODES = [("incoming", "Receipt"), ("outgoing", "Delivery"), ("internal", "Internal Transfer")]
STOCK_USER = "stock.group_stock_user"
STOCK_ACCESS = {STOCK_USER: "r", "stock.group_stock_manager": "rwcu"}
OPEN_MOVE_STATES = ("confirmed", "waiting", "partially_available", "assigned")
USAGE_HELP = "\n".join(
    [
        "* Vendor: Virtual location representing the source location for products coming from"
        " your vendors",
        "* Virtual: Virtual location used to create a hierarchical structure for your warehouse"
        " by aggregating its child locations. Can't directly contain products",
        "* Internal: Physical locations inside your warehouses,",
        "* Customer: Virtual location representing the destination location for products sent"
        " to your customers",
        "* Inventory Loss: Virtual location serving as the counterpart for inventory operations"
        " done to correct stock levels (Physical inventories)",
        "* Production: Virtual counterpart location for production operations. I.e. This location"
        " consumes components and produces finished products",
        "* Transit: Counterpart location that should be used for inter-company or"
        " inter-warehouses operations",
    ]
)
COMPANY_HELP = "Let this field empty if this location is shared between companies"


def internal_location_ids(env: Any) -> set[int]:
    rows = env.db.rows("stock.location")
    return {rid for rid, row in rows.items() if row.get("usage") == "internal"}


def on_hand(env: Any, product_id: int) -> float:
    """Quantity of a product in internal locations (``qty_available``)."""
    internal = internal_location_ids(env)
    return float(
        sum(
            row.get("quantity") or 0.0
            for row in env.db.rows("stock.quant").values()
            if row.get("product_id") == product_id and row.get("location_id") in internal
        )
    )


def reserved(env: Any, product_id: int, location_id: int, exclude: int | None = None) -> float:
    """Quantity reserved by open moves leaving ``location_id`` (other than ``exclude``)."""
    moves = env.db.rows("stock.move")
    # The product index keeps this linear in the product's moves, not in all moves.
    move_ids = list(env.db.value_index("stock.move", "product_id").get(product_id, ()))
    return float(
        sum(
            moves[rid].get("quantity") or 0.0
            for rid in move_ids
            if moves[rid].get("location_id") == location_id
            and moves[rid].get("state") in OPEN_MOVE_STATES
            and rid != exclude
        )
    )


def forecast(env: Any, product_id: int) -> float:
    """On hand, minus open outgoing demand, plus open incoming demand (``virtual_available``)."""
    internal = internal_location_ids(env)
    total = on_hand(env, product_id)
    moves = env.db.rows("stock.move")
    for rid in list(env.db.value_index("stock.move", "product_id").get(product_id, ())):
        row = moves[rid]
        if row.get("state") not in OPEN_MOVE_STATES:
            continue
        src, dest = row.get("location_id") in internal, row.get("location_dest_id") in internal
        if src and not dest:
            total -= row.get("product_uom_qty") or 0.0
        elif dest and not src:
            total += row.get("product_uom_qty") or 0.0
    return total


def sync_reserved(env: Any, product_ids: Any) -> None:
    """Store on the quants of these products what the open moves reserve."""
    quants = env.db.rows("stock.quant")
    by_product = env.db.value_index("stock.quant", "product_id")
    quant_ids = [rid for pid in set(product_ids) for rid in by_product.get(pid, ())]
    for rid in quant_ids:
        row = quants[rid]
        qty = reserved(env, row["product_id"], row.get("location_id"))
        if (row.get("reserved_quantity") or 0.0) != qty:
            env.db.update("stock.quant", rid, {"reserved_quantity": qty})


def add_quantity(env: Any, product_id: int, location_id: int, quantity: float) -> None:
    """Change the quant of (product, location) by ``quantity``, creating it if needed."""
    quants = env["stock.quant"].sudo()
    quant = quants.search(
        [("product_id", "=", product_id), ("location_id", "=", location_id)], limit=1
    )
    if quant:
        quant.write({"quantity": quant.quantity + quantity})
    else:
        quants.create({"product_id": product_id, "location_id": location_id, "quantity": quantity})


class StockWarehouse(Model):
    _name = "stock.warehouse"
    _description = "Warehouse"
    _order = "sequence,id"
    _access = {"base.group_user": "r", "stock.group_stock_manager": "rwcu"}

    name = fields.Char("Warehouse", required=True)
    code = fields.Char("Short Name", required=True, size=5)
    active = fields.Boolean("Active", default=True)
    sequence = fields.Integer("Sequence", default=10)
    company_id = fields.Many2one("res.company", "Company", required=True, default=1)
    partner_id = fields.Many2one("res.partner", "Address")
    view_location_id = fields.Many2one("stock.location", "View Location", required=True)
    lot_stock_id = fields.Many2one("stock.location", "Location Stock", required=True)


class StockLocation(Model):
    _name = "stock.location"
    _description = "Inventory Locations"
    _order = "complete_name, id"
    _rec_name = "complete_name"
    _parent_name = "location_id"
    _access = {"base.group_user": "r", "stock.group_stock_manager": "rwcu"}

    name = fields.Char("Location Name", required=True)
    complete_name = fields.Char("Full Location Name", compute="_compute_complete_name", store=True)
    active = fields.Boolean(
        "Active",
        default=True,
        help="By unchecking the active field, you may hide a location without deleting it.",
    )
    usage = fields.Selection(
        usages, "Location Type", required=True, default="internal", help=USAGE_HELP
    )
    location_id = fields.Many2one(
        "stock.location",
        "Parent Location",
        ondelete="cascade",
        help="The parent location that includes this location. Example : The 'Dispatch Zone' is"
        " the 'Gate 1' parent location.",
    )
    child_ids = fields.One2many("stock.location", "location_id", "Contains")
    company_id = fields.Many2one("res.company", "Company", help=COMPANY_HELP)
    warehouse_id = fields.Many2one("stock.warehouse", "Warehouse", readonly=True)
    barcode = fields.Char("Barcode", copy=False)
    quant_ids = fields.One2many("stock.quant", "location_id", "Quant")

    def _compute_complete_name(self) -> Any:
        parent = self.sudo().location_id
        if parent and self.usage != "view":
            return f"{parent.complete_name}/{self.name}"
        return self.name


DEFAULT_LOCATION_HELP = (
    "This is the default %s location when this operation is manually created. However, it is"
    " possible to change it afterwards or that the routes use another one by default."
)


class _Favorite(fields.Boolean):
    """``is_favorite``: computed from the user's favourites, yet sortable as in Odoo 19."""

    @property
    def sortable(self) -> bool:
        return True


class StockPickingType(Model):
    _name = "stock.picking.type"
    _description = "Picking Type"
    _order = "sequence, id"  # Odoo sorts favourites first: every type is one here
    _access = {"base.group_user": "r", "stock.group_stock_manager": "rwcu"}

    name = fields.Char("Operation Type", required=True, translate=True)
    code = fields.Selection(CODES, "Type of Operation", required=True)
    sequence = fields.Integer(
        "Sequence", default=1, help="Used to order the 'All Operations' kanban view"
    )
    sequence_code = fields.Char("Sequence Prefix", required=True)
    is_favorite = _Favorite(
        "Show Operation in Overview",
        compute="_compute_is_favorite",
        store=False,
        readonly=False,
        search="_search_is_favorite",
    )
    active = fields.Boolean("Active", default=True)
    color = fields.Integer("Color")
    warehouse_id = fields.Many2one("stock.warehouse", "Warehouse", ondelete="cascade")
    company_id = fields.Many2one("res.company", "Company", required=True, default=1)
    default_location_src_id = fields.Many2one(
        "stock.location", "Source Location", required=True, help=DEFAULT_LOCATION_HELP % "source"
    )
    default_location_dest_id = fields.Many2one(
        "stock.location",
        "Destination Location",
        required=True,
        help=DEFAULT_LOCATION_HELP % "destination",
    )
    create_backorder = fields.Selection(
        [("ask", "Ask"), ("always", "Always"), ("never", "Never")],
        "Create Backorder",
        required=True,
        default="ask",
        help="When validating a transfer:\n * Ask: users are asked to choose if they want to make"
        " a backorder for remaining products\n * Always: a backorder is automatically created for"
        " the remaining products\n * Never: remaining products are cancelled",
    )
    reservation_method = fields.Selection(
        [
            ("at_confirm", "At Confirmation"),
            ("manual", "Manually"),
            ("by_date", "Before scheduled date"),
        ],
        "Reservation Method",
        required=True,
        default="at_confirm",
        help="How products in transfers of this operation type should be reserved.",
    )
    move_type = fields.Selection(
        [("direct", "As soon as possible"), ("one", "When all products are ready")],
        "Shipping Policy",
        required=True,
        default="direct",
        help="It specifies goods to be transferred partially or all at once",
    )

    def _compute_is_favorite(self) -> Any:
        return True

    def _search_is_favorite(self, operator: str, value: Any) -> list[Any]:
        wanted = bool(value) if operator == "=" else not value
        return [] if wanted else [("id", "=", 0)]

    def _compute_display_name(self) -> Any:
        warehouse = self.sudo().warehouse_id
        return f"{warehouse.name}: {self.name}" if warehouse else self.name

    def next_name(self) -> str:
        """The next reference of this operation type, e.g. "WH/OUT/00014"."""
        from fake_odoo.models.common import next_number

        prefix = f"{self.sudo().warehouse_id.code or 'WH'}/{self.sequence_code}/"
        return f"{prefix}{next_number(self.env, prefix):05d}"


class StockQuant(Model):
    _name = "stock.quant"
    _description = "Quants"
    _access = {STOCK_USER: "rwc", "stock.group_stock_manager": "rwcu"}

    product_id = fields.Many2one("product.product", "Product", required=True, ondelete="restrict")
    location_id = fields.Many2one("stock.location", "Location", required=True, ondelete="restrict")
    quantity = fields.Float(
        "Quantity",
        readonly=True,
        help="Quantity of products in this quant, in the default unit of measure of the product",
    )
    reserved_quantity = fields.Float(
        "Reserved Quantity",
        readonly=True,
        required=True,
        default=0.0,
        help="Quantity of reserved products in this quant, in the default unit of measure of the"
        " product",
    )
    available_quantity = fields.Float(
        "Available Quantity",
        compute="_compute_available",
        store=False,
        help="On hand quantity which hasn't been reserved on a transfer, in the default unit of"
        " measure of the product",
    )
    inventory_quantity = fields.Float("Counted", help="The product's counted quantity.")
    in_date = fields.Datetime(
        "Incoming Date", readonly=True, required=True, default=lambda env: env.db.now_str()
    )
    company_id = fields.Many2one(
        "res.company", "Company", default=1, readonly=True, help=COMPANY_HELP
    )

    def _compute_available(self) -> Any:
        return self.quantity - reserved(self.env, self.product_id.id, self.location_id.id)

    def _compute_display_name(self) -> Any:
        return self.sudo().product_id.display_name
