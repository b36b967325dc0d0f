"""Where Odoo 17's HTTP layer differs from Odoo 19's, one named fact per function.

Each fact names the Odoo 17 capture (``tests/fixtures/odoo17/``) that shows it.  The
fake serves Odoo 17 and 19; the cut-off between them is put where it is known (18 for
routes added in 18, 19 for JSON-2) and otherwise at "17 and before".
"""

from __future__ import annotations

__all__ = [
    "callkw_checks_model_first",
    "has_json2",
    "has_web_version_route",
    "json_route_type",
    "jsonrpc_error_code",
    "jsonrpc_rejects_bad_json_as_text",
    "serializes_debug_first",
    "website_404_page",
    "wrong_type_status",
]


def jsonrpc_error_code(major: int) -> int:
    """``error.code`` of a JSON-RPC error: 200 up to 17 (err_jsonrpc_unknown_db), then 0."""
    return 200 if major <= 17 else 0


def serializes_debug_first(major: int) -> bool:
    """17's ``serialize_exception`` puts ``debug`` right after ``name``
    (err_jsonrpc_write_missing_id); 19 puts it last."""
    return major <= 17


def callkw_checks_model_first(major: int) -> bool:
    """19's ``/web/dataset/call_kw`` looks the model up (readonly check) before anything,
    an unknown one being a 404; 17 raises the registry's KeyError (err_callkw_unknown_model)."""
    return major >= 19


def has_web_version_route(major: int) -> bool:
    """``GET /web/version`` exists from 18 on: 17 answers its 404 page (meta_version)."""
    return major >= 18


def has_jsonrpc_route(major: int) -> bool:
    """``/jsonrpc`` exists up to 19: Odoo 20's rpc module no longer imports its controller
    (odoo/odoo addons/rpc/controllers/__init__.py @ 079c3754; from source, not a capture)."""
    return major < 20


def has_json2(major: int) -> bool:
    """JSON-2 (``/json/2/...``) exists from 19 on (err_json2_not_available)."""
    return major >= 19


def website_404_page(major: int) -> bool:
    """Unknown URLs of the captured 17 server render the http_routing 404 page (a full
    HTML page titled "Odoo"), not werkzeug's bare one (meta_version, err_json2_not_available)."""
    return major <= 17


def json_route_type(major: int) -> str:
    """The ``type`` of JSON-RPC routes: ``json`` up to 17 (meta_version step 8), then
    ``jsonrpc`` (19 added ``json2``)."""
    return "json" if major <= 17 else "jsonrpc"


def wrong_type_status(major: int) -> int:
    """A GET on a JSON-RPC route: 400 Bad Request on 17 (meta_version step 8), 415 on 19."""
    return 400 if major <= 17 else 415


def jsonrpc_rejects_bad_json_as_text(major: int) -> bool:
    """17's ``JsonRPCDispatcher`` aborts an unparsable body with a plain-text 400
    "Invalid JSON data" (``abort(Response(...))``, odoo/http.py of 17.0)."""
    return major <= 17
