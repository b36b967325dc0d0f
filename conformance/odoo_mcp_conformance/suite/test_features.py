"""Bind the feature files to pytest-bdd; the kit points ``ODOO_MCP_KIT_FEATURES`` at them."""

from __future__ import annotations

import os

from pytest_bdd import scenarios

from odoo_mcp_conformance.paths import features_dir

scenarios(os.environ.get("ODOO_MCP_KIT_FEATURES") or str(features_dir()))
