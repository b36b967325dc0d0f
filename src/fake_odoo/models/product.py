"""Products: imitates Odoo's ``uom.uom``, ``product.category``, ``product.template`` and
``product.product`` (modules uom, product, sale, stock).

As in real Odoo, the commercial data (name, prices, type, category...) is stored on the
template and each variant reads and writes it through ``product_tmpl_id`` (``_inherits``,
declared here as writable related fields); the variant's own data (default_code, barcode,
cost) is stored on the variant.  The fake keeps one variant per template and copies writes
of the fields both carry (``SHARED_FIELDS``) across.  ``qty_available`` is computed from
the stock quants of internal locations, as in the stock module.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.common import selection_by_version, vals_batch
from fake_odoo.orm import api, fields
from fake_odoo.orm.model import Model

# Product types: Odoo 18 replaced the "Storable Product" type with the is_storable flag.
TYPES_OLD = [("consu", "Consumable"), ("service", "Service"), ("product", "Storable Product")]
TYPES_NEW = [("consu", "Goods"), ("service", "Service"), ("combo", "Combo")]
TYPE_HELP = (
    "Goods are tangible materials and merchandise you provide.\n"
    "A service is a non-material product you provide."
)
# Odoo 17's "Product Type" the user sets, from which ``type`` is derived (the fake keeps the
# two equal); gone in 18 (odoo17/meta_fields_get_product_product.json)
DETAILED_TYPE_HELP = (
    "A storable product is a product for which you manage stock. The Inventory app has to be"
    " installed.\nA consumable product is a product for which stock is not managed.\nA service"
    " is a non-material product you provide."
)
TRACKINGS = [("serial", "By Unique Serial Number"), ("lot", "By Lots"), ("none", "By Quantity")]
# 17's label of "none" (odoo17/meta_fields_get_product_template.json)
TRACKINGS_17 = [*TRACKINGS[:2], ("none", "No Tracking")]
INVOICE_POLICIES = [("order", "Ordered quantities"), ("delivery", "Delivered quantities")]
INVOICE_POLICY_HELP = (
    "Ordered Quantity: Invoice quantities ordered by the customer.\n"
    "Delivered Quantity: Invoice quantities delivered to the customer."
)
LIST_PRICE_HELP = "Price at which the product is sold to customers."
STORABLE_HELP = "A storable product is a product for which you manage stock."
UOM_HELP = "Default unit of measure used for all stock operations."
COST_HELP = (
    "Value of the product (automatically computed in AVCO).\n"
    "        Used to value the product when the purchase cost is not known (e.g. inventory"
    " adjustment).\n        Used to compute margins on sale orders."
)
DESCRIPTION_SALE_HELP = (
    "A description of the Product that you want to communicate to your customers. This"
    " description will be copied to every Sales Order, Delivery Order and Customer"
    " Invoice/Credit Note"
)
ACTIVE_HELP = "If unchecked, it will allow you to hide the product without removing it."
SHARED_FIELDS = (
    "name",
    "list_price",
    "standard_price",
    "type",
    "is_storable",
    "categ_id",
    "uom_id",
    "sale_ok",
    "purchase_ok",
    "invoice_policy",
    "description_sale",
    "default_code",
    "active",
    "weight",
    "volume",
    "company_id",
    "barcode",
)
_SYNCING = "fake_product_sync"  # context key stopping the template <-> variant echo


def product_types(arg: Any) -> list[tuple[str, str]]:
    """The ``type`` selection of the served version (``arg``: an Environment or records)."""
    major = getattr(arg, "major", None) or arg.env.major
    return TYPES_NEW if major >= 18 else TYPES_OLD


def type_from_detailed_type(vals: dict[str, Any]) -> dict[str, Any]:
    """Odoo 17's ``detailed_type`` written as the ``type`` the fake stores."""
    if "detailed_type" not in vals:
        return vals
    vals = dict(vals)
    vals["type"] = vals.pop("detailed_type")
    return vals


def is_storable(product: Any) -> bool:
    """Whether stock is tracked: ``is_storable`` from 18, type "product" before."""
    if product.env.major >= 18:
        return "is_storable" in product._fields and bool(product.is_storable)
    return bool(product.type == "product")


def _variant_value(template: Any, fname: str, empty: Any) -> Any:
    """A template field computed from its (single) variant."""
    variants = template.sudo().with_context(active_test=False).product_variant_ids
    return variants[0][fname] if variants else empty


class UomUom(Model):
    _name = "uom.uom"
    _description = "Product Unit of Measure"
    _order = "sequence, id"
    _access = {"": "r", "uom.group_uom": "rwcu", "base.group_system": "rwcu"}

    name = fields.Char("Unit Name", required=True, translate=True)
    sequence = fields.Integer("Sequence", default=10)
    relative_factor = fields.Float("Contains", default=1.0, required=True)
    rounding = fields.Float("Rounding Precision", default=0.01)
    active = fields.Boolean("Active", default=True)


class ProductCategory(Model):
    _name = "product.category"
    _description = "Product Category"
    _order = "complete_name"
    _rec_name = "complete_name"
    _parent_name = "parent_id"
    _recursion_error = "You cannot create recursive categories."
    _access = {"base.group_user": "r", "product.group_product_manager": "rwcu"}

    name = fields.Char("Name", required=True, translate=True)
    complete_name = fields.Char("Complete Name", compute="_compute_complete_name", store=True)
    parent_id = fields.Many2one("product.category", "Parent Category", ondelete="cascade")
    child_id = fields.One2many("product.category", "parent_id", "Child Categories")
    product_count = fields.Integer(
        "# Products",
        compute="_compute_product_count",
        store=False,
        help="The number of products under this category (Does not consider the children"
        " categories)",
    )

    def _compute_complete_name(self) -> Any:
        parent = self.sudo().parent_id
        return f"{parent.complete_name} / {self.name}" if parent else self.name

    def _compute_product_count(self) -> Any:
        family = self.sudo().search([("id", "child_of", self.id)])
        return self.env["product.template"].sudo().search_count([("categ_id", "in", family.ids)])


class _ProductCommon(Model):
    """Fields both the template and its variant carry (no ``_name``: a field mixin)."""

    _register = False

    name = fields.Char("Name", required=True, translate=True)
    default_code = fields.Char("Internal Reference")
    barcode = fields.Char("Barcode", copy=False)
    active = fields.Boolean("Active", default=True, help=ACTIVE_HELP)
    type = fields.Selection(
        product_types, "Product Type", required=True, default="consu", help=TYPE_HELP
    )
    detailed_type = fields.Selection(
        product_types,
        "Product Type",
        compute=lambda product: product.type,
        store=False,
        readonly=False,
        required=True,
        search="_search_detailed_type",
        max_version=17,
        help=DETAILED_TYPE_HELP,
    )
    is_storable = fields.Boolean("Track Inventory", min_version=18, help=STORABLE_HELP)
    categ_id = fields.Many2one("product.category", "Product Category", default=1)
    uom_id = fields.Many2one("uom.uom", "Unit", required=True, default=1, help=UOM_HELP)
    list_price = fields.Float("Sales Price", default=1.0, help=LIST_PRICE_HELP)
    standard_price = fields.Float("Cost", help=COST_HELP)
    sale_ok = fields.Boolean("Sales", default=True)
    purchase_ok = fields.Boolean("Purchase", default=True)
    invoice_policy = fields.Selection(
        INVOICE_POLICIES,
        "Invoicing Policy",
        default="order",
        help=INVOICE_POLICY_HELP,
    )
    description_sale = fields.Text("Sales Description", help=DESCRIPTION_SALE_HELP)
    weight = fields.Float("Weight")
    volume = fields.Float("Volume")
    company_id = fields.Many2one("res.company", "Company")
    qty_available = fields.Float(
        "Quantity On Hand",
        compute="_compute_qty_available",
        store=False,
        readonly=False,  # Odoo's inverse opens an inventory adjustment; ignored here
        search="_search_qty_available",
    )
    virtual_available = fields.Float(
        "Forecasted Quantity",
        compute="_compute_virtual_available",
        store=False,
        search="_search_virtual_available",
    )

    def _variant_ids(self) -> list[int]:
        raise NotImplementedError

    def _compute_qty_available(self) -> Any:
        from fake_odoo.models.stock import on_hand

        return sum(on_hand(self.env, pid) for pid in self._variant_ids())

    def _compute_virtual_available(self) -> Any:
        from fake_odoo.models.stock import forecast

        return sum(forecast(self.env, pid) for pid in self._variant_ids())

    def _search_qty_available(self, operator: str, value: Any) -> list[Any]:
        return self._search_quantity("qty_available", operator, value)

    def _search_virtual_available(self, operator: str, value: Any) -> list[Any]:
        return self._search_quantity("virtual_available", operator, value)

    def _search_quantity(self, fname: str, operator: str, value: Any) -> list[Any]:
        from fake_odoo.orm.domain_eval import match_value

        records = self.sudo().with_context(active_test=False).search([])
        matching = [r.id for r in records if match_value("float", r[fname], operator, value)]
        return [("id", "in", matching)]

    def _search_detailed_type(self, operator: str, value: Any) -> list[Any]:
        return [("type", operator, value)]

    def _sync(self, counterpart: Any, vals: dict[str, Any]) -> None:
        shared = {k: v for k, v in vals.items() if k in SHARED_FIELDS and k in counterpart._fields}
        if shared and counterpart:
            counterpart.sudo().with_context(**{_SYNCING: True}).write(shared)


class ProductTemplate(_ProductCommon):
    _name = "product.template"
    _description = "Product"
    _order = "is_favorite desc, name"
    _register = True
    _access = {"base.group_user": "r", "product.group_product_manager": "rwcu"}

    is_favorite = fields.Boolean("Favorite")
    sequence = fields.Integer(
        "Sequence", default=1, help="Gives the sequence order when displaying a product list"
    )
    product_variant_ids = fields.One2many(
        "product.product", "product_tmpl_id", "Products", required=True
    )
    # The variant's values, as Odoo's _compute_template_field / _set_template_field
    # (one variant per template here): written through by write/create.
    barcode = fields.Char(
        "Barcode",
        compute=lambda template: _variant_value(template, "barcode", False),
        store=False,
        readonly=False,
        search="_search_barcode",
    )
    standard_price = fields.Float(
        "Cost",
        compute=lambda template: _variant_value(template, "standard_price", 0.0),
        store=False,
        readonly=False,
        search="_search_standard_price",
        help=COST_HELP,
    )
    product_variant_id = fields.Many2one(
        "product.product", "Product", compute="_compute_variant", store=False
    )
    tracking = fields.Selection(
        selection_by_version(TRACKINGS_17, TRACKINGS),
        "Tracking",
        required=True,
        default="none",
        help="Ensure the traceability of a storable product in your warehouse.",
    )

    def _search_barcode(self, operator: str, value: Any) -> list[Any]:
        return [("product_variant_ids.barcode", operator, value)]

    def _search_standard_price(self, operator: str, value: Any) -> list[Any]:
        return [("product_variant_ids.standard_price", operator, value)]

    def _variant_ids(self) -> list[int]:
        return list(self.with_context(active_test=False).product_variant_ids.ids)

    def _compute_variant(self) -> Any:
        ids = self._variant_ids()
        return ids[0] if ids else False

    def _compute_display_name(self) -> Any:
        return f"[{self.default_code}] {self.name}" if self.default_code else self.name

    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = [type_from_detailed_type(vals) for vals in vals_batch(vals_list)]
        templates = super().create(batch)
        if not self.env.context.get(_SYNCING):
            # Every template gets its single variant, as Odoo's _create_variant_ids does.
            for template, vals in zip(templates.sudo(), batch, strict=True):
                shared = {f: template[f] for f in SHARED_FIELDS if f in template._fields}
                shared = {k: (v.id if hasattr(v, "_ids") else v) for k, v in shared.items()}
                # the variant's own values (barcode, cost) as given, not read back
                shared.update({f: vals[f] for f in ("barcode", "standard_price") if f in vals})
                self.env["product.product"].sudo().with_context(**{_SYNCING: True}).create(
                    dict(shared, product_tmpl_id=template.id)
                )
        return templates

    def write(self, vals: dict[str, Any]) -> Any:
        vals = type_from_detailed_type(vals)
        result = super().write(vals)
        if not self.env.context.get(_SYNCING):
            self._sync(self.with_context(active_test=False).product_variant_ids, vals)
        return result


class ProductProduct(_ProductCommon):
    _name = "product.product"
    _description = "Product Variant"
    _order = "is_favorite desc, default_code, name, id"
    _register = True
    _rec_names_search = ["name", "default_code"]
    _access = {"base.group_user": "r", "product.group_product_manager": "rwcu"}

    product_tmpl_id = fields.Many2one(
        "product.template", "Product Template", required=True, ondelete="cascade"
    )
    is_favorite = fields.Boolean("Favorite")
    # Odoo's _inherits = {"product.template": "product_tmpl_id"}: the template's fields,
    # read and written through product_tmpl_id.
    name = fields.Char("Name", related="product_tmpl_id.name", readonly=False, required=True)
    type = fields.Selection(
        product_types,
        "Product Type",
        related="product_tmpl_id.type",
        readonly=False,
        required=True,
        help=TYPE_HELP,
    )
    is_storable = fields.Boolean(
        "Track Inventory",
        related="product_tmpl_id.is_storable",
        readonly=False,
        min_version=18,
        help=STORABLE_HELP,
    )
    categ_id = fields.Many2one(
        "product.category", "Product Category", related="product_tmpl_id.categ_id", readonly=False
    )
    uom_id = fields.Many2one(
        "uom.uom",
        "Unit",
        related="product_tmpl_id.uom_id",
        readonly=False,
        required=True,
        help=UOM_HELP,
    )
    list_price = fields.Float(
        "Sales Price", related="product_tmpl_id.list_price", readonly=False, help=LIST_PRICE_HELP
    )
    sale_ok = fields.Boolean("Sales", related="product_tmpl_id.sale_ok", readonly=False)
    purchase_ok = fields.Boolean("Purchase", related="product_tmpl_id.purchase_ok", readonly=False)
    invoice_policy = fields.Selection(
        INVOICE_POLICIES,
        "Invoicing Policy",
        related="product_tmpl_id.invoice_policy",
        readonly=False,
        help=INVOICE_POLICY_HELP,
    )
    description_sale = fields.Text(
        "Sales Description",
        related="product_tmpl_id.description_sale",
        readonly=False,
        help=DESCRIPTION_SALE_HELP,
    )
    company_id = fields.Many2one(
        "res.company", "Company", related="product_tmpl_id.company_id", readonly=False
    )
    barcode = fields.Char(
        "Barcode",
        copy=False,
        help="International Article Number used for product identification.",
    )
    lst_price = fields.Float(
        "Sales\xa0Price",
        compute="_compute_lst_price",
        store=False,
        readonly=False,  # its inverse sets the template's list_price (see write)
        help="The sale price is managed from the product template. Click on the 'Configure"
        " Variants' button to set the extra attribute prices.",
    )
    code = fields.Char("Reference", compute="_compute_code", store=False)
    qty_available = fields.Float(
        "Quantity On Hand",
        compute="_compute_qty_available",
        store=False,
        readonly=False,
        search="_search_qty_available",
        help="Current quantity of products.\nIn a context with a single Stock Location, this"
        " includes goods stored at this Location, or any of its children.\nIn a context with a"
        " single Warehouse, this includes goods stored in the Stock Location of this Warehouse,"
        " or any of its children.\nstored in the Stock Location of the Warehouse of this Shop,"
        " or any of its children.\nOtherwise, this includes goods stored in any Stock Location"
        " with 'internal' type.",
    )
    virtual_available = fields.Float(
        "Forecasted Quantity",
        compute="_compute_virtual_available",
        store=False,
        search="_search_virtual_available",
        help="Forecast quantity (computed as Quantity On Hand - Outgoing + Incoming)\nIn a"
        " context with a single Stock Location, this includes goods stored in this location, or"
        " any of its children.\nIn a context with a single Warehouse, this includes goods"
        " stored in the Stock Location of this Warehouse, or any of its children.\nOtherwise,"
        " this includes goods stored in any Stock Location with 'internal' type.",
    )
    write_date = fields.Datetime("Write Date", readonly=True)
    stock_quant_ids = fields.One2many("stock.quant", "product_id", "Stock Quant")
    stock_move_ids = fields.One2many("stock.move", "product_id", "Stock Move")

    def _variant_ids(self) -> list[int]:
        return [self.id]

    def _compute_lst_price(self) -> Any:
        return self.list_price

    def _compute_code(self) -> Any:
        return self.default_code or False

    def _compute_display_name(self) -> Any:
        return f"[{self.default_code}] {self.name}" if self.default_code else self.name

    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = [vals_list] if isinstance(vals_list, dict) else [dict(v) for v in vals_list]
        batch = [type_from_detailed_type(vals) for vals in batch]
        for vals in batch:
            if not vals.get("product_tmpl_id"):
                # A variant created alone brings its template along, as in Odoo.
                shared = {k: v for k, v in vals.items() if k in SHARED_FIELDS}
                template = (
                    self.env["product.template"]
                    .sudo()
                    .with_context(**{_SYNCING: True})
                    .create(shared)
                )
                vals["product_tmpl_id"] = template.id
                for fname in SHARED_FIELDS:
                    if fname not in vals and fname in template._fields:
                        value = template[fname]
                        vals[fname] = value.id if hasattr(value, "_ids") else value
        return super().create(batch)

    def write(self, vals: dict[str, Any]) -> Any:
        vals = type_from_detailed_type(vals)
        if "lst_price" in vals and "list_price" not in vals:
            vals = dict(vals, list_price=vals["lst_price"])
        result = super().write(vals)
        if not self.env.context.get(_SYNCING):
            self._sync(self.sudo().product_tmpl_id, vals)
        return result
