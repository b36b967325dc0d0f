"""Real Odoo 19 errors from tests/fixtures/odoo19, rebuilt as connection-layer errors."""

from __future__ import annotations

from odoo_captures import CaptureBatch, rpc_error

__all__ = [
    "FIXTURES",
    "ODOO19",
    "error_captures",
    "field_lookup",
    "flow_errors",
    "load",
    "rpc_error",
]

ODOO19 = CaptureBatch("odoo19")
FIXTURES = ODOO19.folder

load = ODOO19.load
error_captures = ODOO19.error_captures
flow_errors = ODOO19.flow_errors
field_lookup = ODOO19.field_lookup
