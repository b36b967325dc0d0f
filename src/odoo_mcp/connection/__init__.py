"""SPEC-02 / L2-02a / L2-02b: the connection layer; nothing outside it touches a protocol."""

from odoo_mcp.connection.base import CallOutcome, OdooCalls, OdooProtocol, OdooValue
from odoo_mcp.connection.errors import (
    OdooAuthenticationError,
    OdooConfigurationError,
    OdooConnectionError,
    OdooError,
    OdooRateLimited,
    OdooRpcError,
    OdooSessionExpired,
)
from odoo_mcp.connection.json2 import Json2Protocol
from odoo_mcp.connection.jsonrpc import JsonRpcProtocol
from odoo_mcp.connection.manager import (
    READ_METHODS,
    ConnectionInfo,
    ConnectionManager,
    ConnectionState,
)
from odoo_mcp.connection.settings import ConnectionSettings, build_http_client
from odoo_mcp.connection.version import OdooVersion, default_protocol, parse_version
from odoo_mcp.connection.xmlrpc import XmlRpcProtocol

__all__ = [
    "READ_METHODS",
    "CallOutcome",
    "ConnectionInfo",
    "ConnectionManager",
    "ConnectionSettings",
    "ConnectionState",
    "Json2Protocol",
    "JsonRpcProtocol",
    "OdooAuthenticationError",
    "OdooCalls",
    "OdooConfigurationError",
    "OdooConnectionError",
    "OdooError",
    "OdooProtocol",
    "OdooRateLimited",
    "OdooRpcError",
    "OdooSessionExpired",
    "OdooValue",
    "OdooVersion",
    "XmlRpcProtocol",
    "build_http_client",
    "default_protocol",
    "parse_version",
]
