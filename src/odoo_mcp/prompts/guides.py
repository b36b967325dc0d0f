"""SPEC-06 §6: the two prompts about the server as a whole: the overview of this Odoo and
server (REQ-06-17) and the domain syntax help (REQ-06-18)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from odoo_mcp.context import ServerContext
from odoo_mcp.domain import MAX_PATH_DEPTH, OPERATOR_DOCS, DomainError, parse_domain
from odoo_mcp.domain.patterns import render_patterns
from odoo_mcp.domain.x2many import COMMANDS
from odoo_mcp.prompts.common import (
    CREATE,
    EXECUTE,
    SEARCH,
    WELL_KNOWN,
    registered_tools,
)
from odoo_mcp.tools.core_common import DOMAIN_HELP
from odoo_mcp.tools.core_toolsets import without_credentials

__all__ = ["domain_help", "overview"]


async def overview(rc: ServerContext, args: Mapping[str, str]) -> str:
    """REQ-06-17: the instance (version, edition, URL, database, user and uid), the toolsets
    this server enabled, the tool count, the key models and how to start, naming only the
    tools that are registered."""
    odoo = rc.odoo
    info = odoo.get_connection_info() if hasattr(odoo, "get_connection_info") else None
    version = odoo.odoo_version
    tools = sorted(registered_tools(rc))
    registry = rc.toolsets
    owner = registry.get_toolset_for_tool if registry is not None else (lambda tool: None)
    toolsets = sorted({owner(tool) or "?" for tool in tools})
    uid = getattr(info, "uid", None)
    user = await rc.user_display_name(uid, getattr(info, "username", None))
    url = getattr(info, "url", None)
    models = [m for m in WELL_KNOWN if rc.policy.is_model_readable(m)]
    lines = [
        f"You are connected to an Odoo {version or 'unknown'} "
        f"({getattr(version, 'edition', 'unknown')}) instance at "
        f"{without_credentials(url) if isinstance(url, str) and url else '?'}.",
        f"Database: {getattr(info, 'database', None) or '?'}",
        f"User: {user or '?'} (uid: {uid if uid is not None else '?'})",
        f"Mode: {rc.policy.mode.value}",
        "",
        f"Available toolsets: {', '.join(toolsets) or '(none)'}",
        f"Total tools: {len(tools)} ({', '.join(tools)})",
        "",
        f"Key models available: {', '.join(models)}",
        "",
        "To get started:",
    ]
    hints = [
        (SEARCH, "search for records (see the odoo_domain_help prompt)"),
        ("odoo_core_fields_get", "understand a model's structure"),
        ("odoo_core_list_models", "discover the models you may read"),
        (CREATE, "create records"),
        (EXECUTE, "run a model's buttons, e.g. action_confirm"),
    ]
    lines += [f"- Use {tool} to {text}" for tool, text in hints if tool in tools]
    workflow = [tool for tool in tools if owner(tool) != "core"]
    if workflow:
        lines.append(f"- Use workflow tools (e.g., {workflow[0]}) for business operations")
    return "\n".join(lines)


def _operator_table() -> list[str]:
    """REQ-06-18 / REQ-04a-04: the 16 operators with meaning and value type."""
    rows = [f"| {op} | {meaning} | {value} |" for op, (meaning, value) in OPERATOR_DOCS.items()]
    return [
        f"## Operators (exactly these {len(OPERATOR_DOCS)})",
        "",
        "| operator | meaning | value |",
        "|---|---|---|",
        *rows,
    ]


def _error_example() -> str:
    """REQ-06-18 / REQ-04a-14: the INVALID_DOMAIN error, as the validator really gives it."""
    try:
        parse_domain([["state", "in", "draft"]])
    except DomainError as error:
        return json.dumps(error.to_dict(), ensure_ascii=False)
    raise AssertionError("the validator accepted 'in' with a string")  # pragma: no cover


async def domain_help(rc: ServerContext, args: Mapping[str, str]) -> str:
    """REQ-06-18: the complete L2/04a reference (structure, the 16 operators, their notes,
    field paths, dates, x2many commands, common patterns, validation, the error shape)."""
    commands = [
        f"- {code} {name}: {form} - {text}" for code, (name, form, text) in COMMANDS.items()
    ]
    return "\n".join(
        [
            "# Odoo domain syntax (complete reference)",
            "",
            "## Structure",
            "- A domain is a list. Each item is a condition [field, operator, value] or a "
            "logical operator: '&' (AND, takes 2 operands), '|' (OR, takes 2), '!' (NOT, "
            "takes 1).",
            "- Logical operators are prefix (Polish) notation: the operator comes before its "
            "operands. (state draft OR sent) AND amount >= 1000 is "
            "['&', '|', ['state', '=', 'draft'], ['state', '=', 'sent'], "
            "['amount_total', '>=', 1000]].",
            "- Conditions side by side are implicitly AND-ed: n conditions mean n-1 leading '&'.",
            "- The empty domain [] matches all records.",
            "",
            "## In short (as the search tools describe it)",
            DOMAIN_HELP,
            "",
            *_operator_table(),
            "",
            "## Operator notes",
            "- like/ilike (and not like/not ilike) wrap the value in % themselves; =like/=ilike "
            "do not: write % (any text) and _ (one character) yourself.",
            "- in/not in must get a list, even for one value: ['state', 'in', ['draft']].",
            "- child_of/parent_of take a record id or a list of ids.",
            "- ['field', '=', False] matches empty/unset values; ['field', '!=', False] "
            "matches records where the field has a value.",
            "",
            "## Field paths",
            "- A dotted path follows relational fields: ['partner_id.country_id.code', '=', 'ES'].",
            "- Through a one2many/many2many field the condition matches when ANY related "
            "record matches.",
            f"- Paths deeper than {MAX_PATH_DEPTH} levels are accepted with a warning: they "
            "may be slow.",
            "- Computed fields can be traversed but may be slow.",
            "",
            "## Dates",
            "- Values are strings: date 'YYYY-MM-DD', datetime 'YYYY-MM-DD HH:MM:SS'.",
            "- Datetimes are UTC; the server sends them to Odoo unchanged (convert local times "
            "to UTC yourself).",
            "",
            "## x2many write commands (in create/write values, not in domains)",
            "one2many/many2many values are lists of command triples:",
            *commands,
            "- Command 5 is meant for many2many fields.",
            "",
            "## " + render_patterns(),
            "",
            "## Validation (checked before anything is sent to Odoo)",
            "- every item is a 3-item list [field, operator, value] or one of '&', '|', '!'",
            f"- the operator is one of the {len(OPERATOR_DOCS)} above",
            "- in/not in carry a list",
            "- the prefix arity adds up: each '&' and '|' takes 2 operands, '!' takes 1; the "
            "whole domain reduces to one expression (top-level items are AND-ed)",
            "",
            "## Errors",
            "A domain that fails these checks is refused with error code INVALID_DOMAIN "
            "(category validation), a message naming the problem and a suggestion with the "
            "corrected form, e.g.:",
            _error_example(),
        ]
    )
