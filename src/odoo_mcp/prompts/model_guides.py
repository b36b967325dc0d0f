"""SPEC-06 §6: the three prompts about one model: its guide (REQ-06-19), how to create a
record (REQ-06-20) and how to search it (REQ-06-21), from its live field metadata."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from odoo_mcp.connection import OdooError
from odoo_mcp.context import ServerContext
from odoo_mcp.prompts.common import (
    CREATE,
    EXECUTE,
    SEARCH,
    describe_field,
    example_value,
    model_argument,
    odoo_defaults,
    registered_tools,
    required_fields,
    visible_fields,
)
from odoo_mcp.registry import FieldInfo
from odoo_mcp.registry.workflows import Workflow, workflow_for

__all__ = ["create_record", "model_guide", "search_help"]


async def _description(rc: ServerContext, model: str) -> str:
    """REQ-06-19: the model's description (ir.model name); the model name if unreadable.

    Odoo lets only "Access Rights" read ``ir.model``; any other internal user gets the
    description from web's ``ir.model.display_name_for`` (the technical name back for a
    model it may not read): two calls at most.
    """
    try:
        rows = await rc.odoo.search_read("ir.model", [["model", "=", model]], ["name"], limit=1)
    except OdooError:
        try:
            rows = await rc.odoo.execute_kw("ir.model", "display_name_for", [], {"models": [model]})
        except OdooError:
            return model
        if not isinstance(rows, list):
            return model
        rows = [
            {"name": row.get("display_name")}
            for row in rows
            if isinstance(row, dict) and row.get("model") == model
        ]
    name = rows[0].get("name") if rows else None
    return str(name) if isinstance(name, str) and name else model


def _states(
    model: str, fields: Mapping[str, FieldInfo], flow: Workflow | None, tools: set[str]
) -> list[str]:
    """REQ-06-19: the state machine when the model has a (visible) state field."""
    state_field = flow.state_field if flow else "state"
    info = fields.get(state_field)
    if info is None or info.type != "selection":
        return []
    values = ", ".join(f"'{value}' ({label})" for value, label in info.selection or ())
    lines = ["", "## States", f"{state_field}: {values}"]
    if flow and flow.transitions:
        how = f"call with {EXECUTE}" if EXECUTE in tools else "buttons"
        lines.append(f"Transitions ({how}):")
        lines += [f"- {t.from_state} -> {t.to_state}: method {t.method}" for t in flow.transitions]
    return lines


def _key_filters(model: str, fields: Mapping[str, FieldInfo], key: list[str]) -> list[str]:
    """REQ-06-19: common domain patterns built on this model's own fields."""
    filters: list[tuple[str, list[Any]]] = []
    ordered = [n for n in key if n in fields] + [n for n in fields if n not in key]
    name = next((n for n in ("name", "display_name") if n in fields), None)
    if name:
        filters.append(("name contains", [[name, "ilike", "..."]]))
    state = fields.get("state")
    if state is not None and state.selection:
        values = [v for v, _ in state.selection]
        filters.append(("in a state", [["state", "in", values[:2]]]))
        if "cancel" in values:
            filters.append(("not cancelled", [["state", "!=", "cancel"]]))
    many2one = next((n for n in ordered if fields[n].type == "many2one"), None)
    if many2one:
        filters.append((f"by {fields[many2one].relation} id", [[many2one, "=", 7]]))
    date = next((n for n in ordered if fields[n].type in ("date", "datetime")), None)
    if date:
        lo, hi = ("2026-01-01", "2026-02-01")
        if fields[date].type == "datetime":
            lo, hi = lo + " 00:00:00", hi + " 00:00:00"
        filters.append((f"{date} in January 2026 (UTC)", [[date, ">=", lo], [date, "<", hi]]))
    if "active" in fields:
        filters.append(("archived only", [["active", "=", False]]))
    return [f"  - {text}: {json.dumps(domain)}" for text, domain in filters]


def _tips(model: str, fields: Mapping[str, FieldInfo], flow: Workflow | None) -> list[str]:
    """REQ-06-19: tips drawn from this model's metadata."""
    tips = []
    if flow and flow.transitions:
        tips.append(f"Change {flow.state_field} with the transition methods, not by writing it.")
    if "active" in fields:
        tips.append(
            "Archived records are hidden; pass context {'active_test': False} to include them."
        )
    x2many = [n for n, f in fields.items() if f.is_x2many and not f.readonly][:3]
    if x2many:
        tips.append(
            f"Write {', '.join(x2many)} with command triples, e.g. [[0, 0, {{...}}]] "
            "(see the odoo_domain_help prompt)."
        )
    if any(f.type == "datetime" for f in fields.values()):
        tips.append("Datetimes are UTC strings 'YYYY-MM-DD HH:MM:SS'.")
    if any(f.type == "binary" for f in fields.values()):
        tips.append("Binary fields are left out unless you name them in fields.")
    tips.append("Ask only for the fields you need; the key fields above are a good start.")
    return [f"- {tip}" for tip in tips]


async def _required(
    rc: ServerContext, model: str, fields: Mapping[str, FieldInfo], required: list[str]
) -> list[str]:
    """REQ-06-19: the required fields the caller must give, then those Odoo fills in by
    default: listing a defaulted one as a must would have the LLM invent a value for it."""
    defaults = await odoo_defaults(rc, model, required)
    lines = ["Required when creating:"]
    lines += [describe_field(n, fields[n]) for n in required if n not in defaults] or ["- (none)"]
    if defaults:
        lines.append("Required, with a default (filled in when left out):")
        lines += [
            f"{describe_field(n, fields[n])} (default {json.dumps(defaults[n], default=str)})"
            for n in required
            if n in defaults
        ]
    return lines


async def model_guide(rc: ServerContext, args: Mapping[str, str]) -> str:
    """REQ-06-19: the model and its description, fields grouped (required, key, other), the
    state machine, common operations with key filters, related models and tips."""
    model = model_argument(rc, args)
    fields = await visible_fields(rc, model)
    key = await rc.registry.key_fields(model, rc.policy.is_field_blocked)
    required = required_fields(fields)
    others = [n for n in fields if n not in required and n not in key][:25]
    version = rc.odoo.odoo_version
    flow = workflow_for(model, version.major if version else None)
    tools = registered_tools(rc)
    description = await _description(rc, model)
    lines = [f"# Guide: {model} ({description})", "", "## Fields"]
    lines += await _required(rc, model, fields, required)
    lines += ["Key fields:"] + [describe_field(n, fields[n]) for n in key if n in fields]
    lines += ["Other fields (first 25):"] + [describe_field(n, fields[n]) for n in others]
    lines += _states(model, fields, flow, tools)
    lines += ["", "## Common Operations"]
    if SEARCH in tools:
        lines.append(f'- Search: {SEARCH} with model="{model}"')
    if CREATE in tools:
        lines.append(f'- Create: {CREATE} with model="{model}" (prompt odoo_create_record)')
    else:
        lines.append(f"- Create: not available ({rc.policy.mode.value} mode)")
    lines += ["- Key filters:", *_key_filters(model, fields, key)]
    related: dict[str, list[str]] = {}
    for name, info in fields.items():
        if info.relation and info.type in ("many2one", "one2many", "many2many"):
            related.setdefault(info.relation, []).append(f"{name} ({info.type})")
    lines += ["", "## Related Models"]
    lines += [f"- {rel}: {', '.join(via)}" for rel, via in sorted(related.items())] or ["(none)"]
    lines += ["", "## Tips", *_tips(model, fields, flow)]
    return "\n".join(lines)


async def create_record(rc: ServerContext, args: Mapping[str, str]) -> str:
    """REQ-06-20: required fields with types and descriptions, the default values Odoo
    gives, example values for common fields and how to fill relational fields."""
    model = model_argument(rc, args)
    fields = await visible_fields(rc, model)
    key = await rc.registry.key_fields(model, rc.policy.is_field_blocked)
    required = required_fields(fields)
    common = [
        n
        for n in key
        if n in fields
        and n not in required
        and not fields[n].readonly
        and fields[n].type not in ("binary", "one2many")
    ][:6]
    defaults = await rc.odoo.execute_kw(model, "default_get", [required + common])
    defaults = defaults if isinstance(defaults, dict) else {}
    required.sort(key=lambda n: n in defaults)  # what the caller must give comes first
    lines = [f"# Creating a {model} record", "", "## Required fields"]
    lines += [
        describe_field(n, fields[n], with_help=True) + (" (has a default)" if n in defaults else "")
        for n in required
    ] or ["- (none)"]
    lines += ["", "## Default values (filled in when you leave the field out)"]
    lines += [
        f"- {n}: {json.dumps(v, default=str)}" for n, v in defaults.items() if n in fields
    ] or ["- (none)"]
    example = {n: example_value(fields[n]) for n in required if n not in defaults}
    lines += ["", "## Example values for common fields"]
    lines += [
        f"- {n} ({fields[n].type}): {json.dumps(example_value(fields[n]))}"
        for n in required + common
    ] or ["- (none)"]
    relations = [n for n in required + common if fields[n].type in ("many2one", "many2many")]
    lines += ["", "## Relations"]
    lines += [
        f"- {n}: first search {fields[n].relation} (odoo_core_search_read on "
        f"{fields[n].relation}, e.g. domain [['name', 'ilike', '<name>']]) and use its id"
        for n in relations
    ] or ["- (no relation to resolve)"]
    lines += ["", "## Call"]
    if CREATE in registered_tools(rc):
        lines.append(f"{CREATE} " + json.dumps({"model": model, "values": example}))
    else:
        lines.append(
            f"Creating {model} records is not available: this server runs in "
            f"{rc.policy.mode.value} mode, which offers no create tool."
        )
    return "\n".join(lines)


async def search_help(rc: ServerContext, args: Mapping[str, str]) -> str:
    """REQ-06-21: a suggested domain for the need, the fields to ask for, the call to make."""
    model = model_argument(rc, args)
    query = (args.get("query") or "").strip()
    fields = await visible_fields(rc, model)
    key = await rc.registry.key_fields(model, rc.policy.is_field_blocked)
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
            f"{SEARCH} " + json.dumps(call),
        ]
    )
