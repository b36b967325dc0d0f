"""SPEC-06 §6: the five prompts, rendered by the served server on the fake Odoo 19."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server
from odoo_mcp.domain import OPERATOR_DOCS, OPERATORS
from odoo_mcp.domain.patterns import COMMON_PATTERNS
from odoo_mcp.domain.x2many import COMMANDS

pytestmark = pytest.mark.anyio


async def _prompt(name: str, args: dict[str, str] | None = None, **settings: Any) -> str:
    async with Client(fake_server(FakeOdoo("19.0"), **settings), mode="legacy") as client:
        answer = await client.get_prompt(name, args or {})
    return "\n".join(m.content.text for m in answer.messages if m.content.type == "text")


def test_the_operator_table_is_the_operator_set() -> None:
    """REQ-04a-04: one table gives the 16 operators and their meaning (REQ-06-18 shows it)."""
    assert frozenset(OPERATOR_DOCS) == OPERATORS and len(OPERATORS) == 16


async def test_overview_names_the_instance_user_and_enabled_toolsets() -> None:
    """REQ-06-17: version, edition, URL, database, display name and uid, toolsets, count."""
    text = await _prompt("odoo_overview")
    assert "You are connected to an Odoo 19.0 (" in text
    assert "instance at http://fake-odoo.test." in text
    assert "Database: demo" in text
    assert "User: Mitchell Admin (uid: 2)" in text
    assert re.search(r"^Available toolsets: core$", text, re.M)
    count = re.search(r"^Total tools: (\d+)", text, re.M)
    assert count is not None and int(count[1]) > 0
    assert "odoo_core_create" not in text  # readonly: no hidden tool named


async def test_overview_lists_an_opt_in_toolset_once_enabled() -> None:
    """REQ-06-17: the toolset list follows what the server enabled, not a fixed "core"."""
    text = await _prompt("odoo_overview", enabled_toolsets="core,contracts", mode="full")
    toolsets = re.search(r"^Available toolsets: (.*)$", text, re.M)
    assert toolsets is not None and "contracts" in toolsets[1].split(", ")
    assert "- Use workflow tools (e.g., " in text


async def test_domain_help_is_the_whole_reference() -> None:
    """REQ-06-18: structure, 16 operators with meaning, notes, paths, dates, commands,
    patterns, validation and the INVALID_DOMAIN shape."""
    text = await _prompt("odoo_domain_help")
    for operator, (meaning, _value) in OPERATOR_DOCS.items():
        assert f"| {operator} | {meaning} |" in text
    for code, (_name, form, _text) in COMMANDS.items():
        assert f"{code} " in text and form in text
    for pattern in COMMON_PATTERNS:
        assert pattern.domain in text
    for words in ("prefix (Polish)", "implicitly AND-ed", "[] matches all records",
                  "ANY related", "deeper than 4", "UTC", "'YYYY-MM-DD HH:MM:SS'",
                  "['field', '=', False]", "reduces to one expression", "active_test"):  # fmt: skip
        assert words in text, words
    shape = json.loads(text.splitlines()[-1])
    assert shape["error"] is True and shape["category"] == "validation"
    assert shape["code"] == "INVALID_DOMAIN" and shape["suggestion"]


async def test_model_guide_has_the_seed_sections() -> None:
    """REQ-06-19: description, fields grouped, states, operations, related models, tips."""
    text = await _prompt("odoo_model_guide", {"model_name": "sale.order"})
    assert text.startswith("# Guide: sale.order (Sales Order)")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == ["## Fields", "## States", "## Common Operations", "## Related Models",
                        "## Tips"]  # fmt: skip
    assert "Required when creating:" in text and "Key fields:" in text
    assert "'draft' (Quotation)" in text and "action_confirm" in text
    assert "- Create: not available (readonly mode)" in text and "odoo_core_create" not in text
    filters = text.split("- Key filters:")[1].split("\n\n")[0]
    assert '[["state", "in", ' in filters and '"partner_id"' in filters
    assert "- res.partner: " in text and "order_line (one2many)" in text


async def test_model_guide_without_state_has_no_states_section() -> None:
    text = await _prompt("odoo_model_guide", {"model_name": "res.partner"})
    assert "## States" not in text and "## Tips" in text and "active_test" in text


async def test_create_guide_shows_types_descriptions_defaults_examples_relations() -> None:
    """REQ-06-20: required fields (type, description), default_get's values, examples, the
    way to resolve partner_id, and the create call in full mode."""
    text = await _prompt("odoo_create_record", {"model_name": "sale.order"}, mode="full")
    assert "- partner_id (many2one -> res.partner): Customer" in text
    defaults = text.split("## Default values")[1].split("\n\n")[0]
    assert '- state: "draft"' in defaults or '- name: "New"' in defaults
    assert "## Example values for common fields" in text
    assert "- partner_id: first search res.partner" in text
    assert 'odoo_core_create {"model": "sale.order", "values": {"partner_id": 1' in text


async def test_create_guide_in_readonly_names_no_hidden_tool() -> None:
    """REQ-06-20 / REQ-11-05: readonly offers no create tool; the guide says so."""
    text = await _prompt("odoo_create_record", {"model_name": "res.partner"})
    assert "not available" in text and "odoo_core_create" not in text
    assert "## Required fields" in text and "## Default values" in text


async def test_search_help_suggests_a_domain_fields_and_the_call() -> None:
    """REQ-06-21: a suggested domain, recommended fields and the search_read call."""
    text = await _prompt("odoo_search_help", {"model_name": "res.partner", "query": "acme corp"})
    assert '["|", ["name", "ilike", "acme"], ["name", "ilike", "corp"]]' in text
    assert "Recommended fields: " in text
    call = text.splitlines()[-1]
    assert call.startswith("odoo_core_search_read {")
    assert json.loads(call.split(" ", 1)[1])["model"] == "res.partner"


async def test_prompts_hide_blocked_fields() -> None:
    """REQ-06-22: a blocked field is in no prompt; defaults are not asked for it."""
    for name in ("odoo_model_guide", "odoo_create_record", "odoo_search_help"):
        text = await _prompt(name, {"model_name": "res.partner", "query": "acme"},
                             field_blocklist="email,phone", mode="full")  # fmt: skip
        assert not re.search(r"\b(email|phone)\b", text), name


async def test_model_guide_lists_the_fields_odoo_fills_in_after_those_to_give() -> None:
    """REQ-06-19: sale.order's name ("New"), date, company and picking policy have defaults
    (default_get): listed apart, after the required fields the caller must give."""
    text = await _prompt("odoo_model_guide", {"model_name": "sale.order"})
    fields = text.split("Key fields:")[0]
    must, defaulted = fields.split("Required, with a default (filled in when left out):")
    must = must.split("Required when creating:")[1]
    assert "- partner_id (many2one -> res.partner)" in must
    assert "- name (" not in must and "- company_id (" not in must
    assert '- name (char): Order Reference (default "New")' in defaulted
    assert "- company_id (" in defaulted and "- partner_id (" not in defaulted


async def test_an_unknown_prompt_is_logged_as_a_prompt_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """REQ-06-17..21, REQ-10-19: an unknown prompt stays -32602 on the wire (MCP's code for
    an invalid prompt name, decision 27), with a prompt's code, in the log as in ``data``."""
    caplog.set_level(logging.WARNING, logger="odoo_mcp.errors")
    async with Client(fake_server(FakeOdoo("19.0")), mode="legacy") as client:
        with pytest.raises(MCPError) as caught:
            await client.get_prompt("odoo_no_such_prompt", {})
    assert caught.value.code == INVALID_PARAMS
    assert isinstance(caught.value.data, dict) and caught.value.data["code"] == "INVALID_PROMPT"
    (record,) = [r for r in caplog.records if r.name == "odoo_mcp.errors"]
    assert "validation INVALID_PROMPT (unknown prompt odoo_no_such_prompt" in record.getMessage()
    assert "RESOURCE" not in record.getMessage()
