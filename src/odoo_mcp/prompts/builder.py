"""SPEC-06 §6: the five prompts.

Each is rendered from live metadata (the registry's fields_get cache, default_get, the
connection) and names only tools registered on this server (REQ-06-17..21): in readonly mode
odoo_create_record says that creating is not available instead of pointing at a hidden tool.
Blocked models are refused and blocked fields left out (REQ-06-22).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Final

from odoo_mcp.domain import OPERATORS
from odoo_mcp.domain_patterns import render_patterns
from odoo_mcp.registry import FieldInfo
from odoo_mcp.resources.reader import ResourceContext
from odoo_mcp.resources.uris import InvalidResourceUri
from odoo_mcp.resources.workflows import workflow_for
from odoo_mcp.safety import Operation
from odoo_mcp.tools.core_common import DOMAIN_HELP
from odoo_mcp.x2many import COMMANDS

__all__ = ["PROMPTS", "PromptSpec", "render_prompt"]

Render = Callable[[ResourceContext, Mapping[str, str]], Awaitable[str]]
WELL_KNOWN: Final = (
    "res.partner", "sale.order", "sale.order.line", "product.product", "product.template",
    "account.move", "stock.picking", "crm.lead", "res.company", "res.users",
)  # fmt: skip


@dataclass(frozen=True)
class PromptSpec:
    name: str
    description: str
    arguments: tuple[tuple[str, str], ...]  # (name, description), all required
    render: Render


def _tools(rc: ResourceContext) -> set[str]:
    return set(rc.tools.tool_names)


def _model_arg(rc: ResourceContext, args: Mapping[str, str]) -> str:
    model = (args.get("model_name") or "").strip()
    if not model:
        raise InvalidResourceUri("the prompt needs the argument model_name, e.g. sale.order")
    rc.tools.policy.check_operation(Operation.READ, model)
    return model


async def _visible_fields(rc: ResourceContext, model: str) -> dict[str, FieldInfo]:
    fields = await rc.tools.registry.get_fields(model)
    policy = rc.tools.policy
    return {n: f for n, f in fields.items() if not policy.is_field_blocked(model, n)}


def _describe(name: str, info: FieldInfo) -> str:
    kind = f"{info.type} -> {info.relation}" if info.relation else info.type
    extra = ""
    if info.selection:
        extra = " one of " + ", ".join(f"'{v}'" for v, _ in info.selection[:8])
    return f"- {name} ({kind}): {info.label}{extra}"


async def overview(rc: ResourceContext, args: Mapping[str, str]) -> str:
    """REQ-06-17: the instance, the toolsets, key models and how to start."""
    odoo = rc.tools.odoo
    info = odoo.get_connection_info() if hasattr(odoo, "get_connection_info") else None
    version = odoo.odoo_version
    tools = sorted(_tools(rc))
    models = [m for m in WELL_KNOWN if rc.tools.policy.is_model_readable(m)]
    lines = [
        f"You are connected to an Odoo {version or 'unknown'} "
        f"({getattr(version, 'edition', 'unknown')}) instance at {getattr(info, 'url', '?')}.",
        f"Database: {getattr(info, 'database', '?')}",
        f"User: {getattr(info, 'username', '?')} (uid: {getattr(info, 'uid', '?')})",
        f"Mode: {rc.tools.policy.mode.value}",
        "",
        "Available toolsets: core",
        f"Total tools: {len(tools)} ({', '.join(tools)})",
        "",
        f"Key models available: {', '.join(models)}",
        "",
        "To get started:",
    ]
    hints = [
        ("odoo_core_list_models", "discover the models you may read"),
        ("odoo_core_fields_get", "understand a model's structure"),
        ("odoo_core_search_read", "search for records (see the odoo_domain_help prompt)"),
        ("odoo_core_create", "create records"),
        ("odoo_core_execute", "run a model's buttons, e.g. action_confirm"),
    ]
    lines += [f"- Use {tool} to {text}" for tool, text in hints if tool in tools]
    return "\n".join(lines)


async def domain_help(rc: ResourceContext, args: Mapping[str, str]) -> str:
    """REQ-06-18: the L2/04a reference, for an LLM's context."""
    commands = "\n".join(f"  {code} {name}: {form} - {text}" for code, (name, form, text) in
                         COMMANDS.items())  # fmt: skip
    return "\n".join(
        [
            "# Odoo domain syntax",
            "",
            DOMAIN_HELP,
            "",
            f"All operators: {', '.join(sorted(OPERATORS))}.",
            "like/ilike match substrings (Odoo adds %); =like/=ilike take your own % and _.",
            "in/not in need a list; child_of/parent_of take ids; ['f', '=', False] matches "
            "unset values and ['f', '!=', False] set ones.",
            "Dates are 'YYYY-MM-DD' strings; datetimes 'YYYY-MM-DD HH:MM:SS' in UTC.",
            "Paths follow relations: ['partner_id.country_id.code', '=', 'ES']; through "
            "one2many/many2many a path matches when any related record matches.",
            "",
            render_patterns(),
            "",
            "one2many/many2many values in create/write are command lists:",
            commands,
        ]
    )


async def model_guide(rc: ResourceContext, args: Mapping[str, str]) -> str:
    """REQ-06-19: fields grouped, states, operations and related models of one model."""
    model = _model_arg(rc, args)
    fields = await _visible_fields(rc, model)
    key = await rc.tools.registry.key_fields(model, rc.tools.policy.is_field_blocked)
    required = [n for n, f in fields.items() if f.required and not f.readonly]
    others = [n for n in fields if n not in required and n not in key][:25]
    version = rc.tools.odoo.odoo_version
    flow = workflow_for(model, version.major if version else None)
    tools = _tools(rc)
    lines = [f"# Guide: {model}", "", "## Fields", "Required when creating:"]
    lines += [_describe(n, fields[n]) for n in required] or ["- (none)"]
    lines += ["Key fields:"] + [_describe(n, fields[n]) for n in key if n in fields]
    lines += ["Other fields (first 25):"] + [_describe(n, fields[n]) for n in others]
    if flow and flow.transitions:
        lines += ["", "## States"] + [
            f"- {t.from_state} -> {t.to_state}: odoo_core_execute method {t.method}"
            for t in flow.transitions
        ]
    lines += ["", "## Common operations", f'- Search: odoo_core_search_read with model="{model}"']
    if "odoo_core_create" in tools:
        lines.append(f'- Create: odoo_core_create with model="{model}" (prompt odoo_create_record)')
    relations = sorted({f.relation for f in fields.values() if f.relation})
    lines += ["", "## Related models", ", ".join(relations) or "(none)"]
    return "\n".join(lines)


async def create_record(rc: ResourceContext, args: Mapping[str, str]) -> str:
    """REQ-06-20: required fields, defaults, example values and how to fill relations."""
    model = _model_arg(rc, args)
    fields = await _visible_fields(rc, model)
    if "odoo_core_create" not in _tools(rc):
        return (
            f"Creating {model} records is not available: this server runs in "
            f"{rc.tools.policy.mode.value} mode, which does not offer odoo_core_create."
        )
    required = {n: f for n, f in fields.items() if f.required and not f.readonly}
    defaults = await rc.tools.odoo.execute_kw(model, "default_get", [list(required)])
    example: dict[str, object] = {}
    lines = [f"# Creating a {model} record", "", "## Required fields"]
    for name, info in required.items():
        has_default = isinstance(defaults, dict) and name in defaults
        lines.append(_describe(name, info) + (" (has a default)" if has_default else ""))
        if not has_default:
            example[name] = {"many2one": 1, "integer": 1, "float": 1.0, "boolean": True,
                             "selection": (info.selection or [("", "")])[0][0],
                             "date": "2026-01-31"}.get(info.type, "...")  # fmt: skip
    lines += ["", "## Relations"]
    lines += [
        f"- {n}: first find the id with odoo_core_search_read on {f.relation} "
        "(e.g. domain [['name', 'ilike', '<name>']])"
        for n, f in required.items()
        if f.type == "many2one"
    ] or ["- (no required relation)"]
    lines += [
        "",
        "## Call",
        "odoo_core_create " + json.dumps({"model": model, "values": example}),
    ]
    return "\n".join(lines)


async def search_help(rc: ResourceContext, args: Mapping[str, str]) -> str:
    """REQ-06-21: a suggested domain for the need, fields to ask for, the call to make."""
    model = _model_arg(rc, args)
    query = (args.get("query") or "").strip()
    fields = await _visible_fields(rc, model)
    key = await rc.tools.registry.key_fields(model, rc.tools.policy.is_field_blocked)
    name_field = "name" if "name" in fields else next(iter(key), "id")
    words = [w for w in query.split() if len(w) > 2][:3]
    domain: list[object] = []
    for _ in words[1:]:
        domain.append("|")
    domain += [[name_field, "ilike", w] for w in words]
    call = {"model": model, "domain": domain, "fields": key[:8], "limit": 20}
    return "\n".join(
        [
            f"# Searching {model} for: {query or '(no query)'}",
            "",
            f"Suggested domain (any of the words in {name_field}): {json.dumps(domain)}",
            f"Recommended fields: {', '.join(key[:8])}",
            "Refine with the odoo_domain_help prompt (dates, states, relations).",
            "",
            "odoo_core_search_read " + json.dumps(call),
        ]
    )


PROMPTS: Final = (
    PromptSpec("odoo_overview", "Get an overview of the connected Odoo instance, available "
               "tools, and how to use them", (), overview),
    PromptSpec("odoo_domain_help", "Reference guide for Odoo domain filter syntax", (),
               domain_help),
    PromptSpec("odoo_model_guide", "Get a guide for working with a specific Odoo model",
               (("model_name", "The Odoo model name (e.g., 'sale.order')"),), model_guide),
    PromptSpec("odoo_create_record", "Get guidance for creating a record on a specific model",
               (("model_name", "The Odoo model name"),), create_record),
    PromptSpec("odoo_search_help", "Get help constructing a search query for a model",
               (("model_name", "The Odoo model name"),
                ("query", "What you're looking for (natural language)")), search_help),
)  # fmt: skip


async def render_prompt(rc: ResourceContext, name: str, args: Mapping[str, str]) -> str:
    """REQ-06-17..21: the prompt's text; an unknown name is InvalidResourceUri (-32602)."""
    spec = next((p for p in PROMPTS if p.name == name), None)
    if spec is None:
        raise InvalidResourceUri(f"unknown prompt {name}; see prompts/list")
    missing = [arg for arg, _ in spec.arguments if not (args.get(arg) or "").strip()]
    if missing:
        raise InvalidResourceUri(f"prompt {name} needs the argument(s) {', '.join(missing)}")
    return await spec.render(rc, args)
