"""Odoo 19's help texts of the stock fields (``fields_get`` serves them verbatim)."""

from __future__ import annotations

MOVE_DATE = "Scheduled date until move is done, then date of actual move processing"
MOVE_PRODUCT_UOM_QTY = (
    "This is the quantity of product that is planned to be moved.Lowering this quantity "
    "does not generate a backorder.Changing this quantity on assigned moves affects the "
    "product reservation, and should be done with care."
)
MOVE_LOCATION_ID = "The operation takes and suggests products from this location."
MOVE_LOCATION_DEST_ID = "The operations brings product to this location"
MOVE_PARTNER_ID = (
    "Optional address where goods are to be delivered, specifically used for allotment"
)
MOVE_STATE = (
    "* New: The stock move is created but not confirmed.\n* Waiting Another Move: A linked "
    "stock move should be done before this one.\n* Waiting: The stock move is confirmed but "
    "the product can't be reserved.\n* Available: The product of the stock move is reserved."
    "\n* Done: The product has been transferred and the transfer has been confirmed."
)
MOVE_PICKED = "This checkbox is just indicative, it doesn't validate or generate any product moves."
MOVE_PROCURE_METHOD = (
    "By default, the system will take from the stock in the source location and passively "
    "wait for availability. The other possibility allows you to directly create a "
    "procurement on the source location (and thus ignore its current stock) to gather "
    "products. If we want to chain moves and have this one to wait for the previous, this "
    "second option should be chosen."
)
PICKING_ORIGIN = "Reference of the document"
PICKING_BACKORDER_ID = (
    "If this shipment was split, then this field links to the shipment which contains the "
    "already processed part."
)
PICKING_MOVE_TYPE = "It specifies goods to be deliver partially or all at once"
PICKING_STATE = (
    " * Draft: The transfer is not confirmed yet. Reservation doesn't apply.\n * Waiting "
    "another operation: This transfer is waiting for another operation before being ready."
    "\n * Waiting: The transfer is waiting for the availability of some products.\n(a) The "
    'shipping policy is "As soon as possible": no product could be reserved.\n(b) The '
    'shipping policy is "When all products are ready": not all the products could be '
    "reserved.\n * Ready: The transfer is ready to be processed.\n(a) The shipping policy is "
    '"As soon as possible": at least one product has been reserved.\n(b) The shipping policy'
    ' is "When all products are ready": all product have been reserved.\n * Done: The '
    "transfer has been processed.\n * Cancelled: The transfer has been cancelled."
)
PICKING_PRIORITY = "Products will be reserved first for the transfers with the highest priorities."
PICKING_SCHEDULED_DATE = (
    "Scheduled time for the first part of the shipment to be processed. Setting manually a "
    "value here would set it as expected date for all the stock moves."
)
PICKING_DATE_DEADLINE = (
    "In case of outgoing flow, validate the transfer before this date to allow to deliver "
    "at promised date to the customer.\n        In case of incoming flow, validate the "
    "transfer before this date in order to have these products in stock at the date "
    "promised by the supplier"
)
PICKING_DATE_DONE = "Date at which the transfer has been processed or cancelled."
PICKING_IS_LOCKED = (
    "When the picking is not done this allows changing the initial demand. When the picking"
    " is done this allows changing the done quantities."
)
PICKING_PRODUCTS_AVAILABILITY = "Latest product availability status of the picking"
