"""SPEC-06: the ``odoo://`` resources (system, configuration, model metadata, records)."""

from odoo_mcp.resources.reader import RESOURCES, TEMPLATES, read_resource
from odoo_mcp.resources.uris import ResourceRef, parse_uri

__all__ = ["RESOURCES", "TEMPLATES", "ResourceRef", "parse_uri", "read_resource"]
