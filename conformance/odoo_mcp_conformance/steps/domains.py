"""Steps of the domain features: compare the server's answer with Odoo's own evaluation."""

from __future__ import annotations

import json

from pytest_bdd import parsers

from odoo_mcp_conformance.checks import check
from odoo_mcp_conformance.jsonpath import lookup
from odoo_mcp_conformance.steps.common import result_data
from odoo_mcp_conformance.world import World


@check(parsers.parse('the result "{path}" is Odoo\'s own count of "{model}" for {domain}'))
def _odoo_count(world: World, path: str, model: str, domain: str) -> None:
    """The fake evaluates the domain itself (as superuser, through the control API)."""
    expected = world.control.call(model, "search_count", json.loads(domain))
    actual = lookup(result_data(world), path)
    assert actual == expected, f"{path} is {actual}, Odoo counts {expected} for {domain}"
    assert expected > 0, f"the demo data has no {model} for {domain}: a weak check"


@check(parsers.parse('the result ids are Odoo\'s own search of "{model}" for {domain}'))
def _odoo_ids(world: World, model: str, domain: str) -> None:
    expected = world.control.call(model, "search", json.loads(domain), order="id")
    records = lookup(result_data(world), "records")
    actual = sorted(r["id"] for r in records)
    assert actual == sorted(expected), f"ids {actual}, Odoo finds {sorted(expected)}"
