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
from typing import Any, Final

from odoo_mcp.connection import OdooError
from odoo_mcp.context import ServerContext
from odoo_mcp.domain import MAX_PATH_DEPTH, OPERATOR_DOCS, DomainError, parse_domain
from odoo_mcp.domain.patterns import render_patterns
from odoo_mcp.domain.x2many import COMMANDS
from odoo_mcp.errors.params import invalid_request
from odoo_mcp.registry import FieldInfo
from odoo_mcp.registry.workflows import Workflow, workflow_for
from odoo_mcp.safety import Operation
from odoo_mcp.tools.core_common import DOMAIN_HELP
from odoo_mcp.tools.core_toolsets import without_credentials

__all__ = ["PROMPTS", "PromptSpec", "render_prompt"]

Render = Callable[[ServerContext, Mapping[str, str]], Awaitable[str]]
WELL_KNOWN: Final = (
    "res.partner",
    "sale.order",
    "sale.order.line",
    "product.product",
    "product.template",
    "account.move",
    "stock.picking",
    "crm.lead",
    "res.company",
    "res.users",
)
SEARCH: Final = "odoo_core_search_read"
CREATE: Final = "odoo_core_create"
EXECUTE: Final = "odoo_core_execute"
#: REQ-06-20: an example value per field type (the create guide's example call)
EXAMPLES: Final[Mapping[str, object]] = {
    "char": "Example",
    "text": "Some text",
    "html": "<p>Some text</p>",
    "integer": 1,
    "float": 1.0,
    "monetary": 100.0,
    "boolean": True,
    "many2one": 1,
    "date": "2026-01-31",
    "datetime": "2026-01-31 09:00:00",
    "many2many": [[6, 0, [1]]],
    "one2many": [[0, 0, {"name": "Example"}]],
}


@dataclass(frozen=True)
class PromptSpec:
    name: str
    description: str
    arguments: tuple[tuple[str, str], ...]  # (name, description), all required
    render: Render


def _tools(rc: ServerContext) -> set[str]:
    return set(rc.tool_names)


def _model_arg(rc: ServerContext, args: Mapping[str, str]) -> str:
    model = (args.get("model_name") or "").strip()
    if not model:
        raise invalid_request("the prompt needs the argument model_name, e.g. sale.order")
    rc.policy.check_operation(Operation.READ, model)
    return model


async def _visible_fields(rc: ServerContext, model: str) -> dict[str, FieldInfo]:
    """REQ-06-22: the model's fields without the blocked ones."""
    fields = await rc.registry.get_fields(model)
    policy = rc.policy
    return {n: f for n, f in fields.items() if not policy.is_field_blocked(model, n)}


def _describe(name: str, info: FieldInfo, *, with_help: bool = False) -> str:
    kind = f"{info.type} -> {info.relation}" if info.relation else info.type
    extra = ""
    if info.selection:
        extra = " one of " + ", ".join(f"'{v}'" for v, _ in info.selection[:8])
    if with_help and info.help:
        text = " ".join(info.help.split())
        extra += " - " + (text if len(text) <= 160 else text[:157] + "...")
    return f"- {name} ({kind}): {info.label}{extra}"


def _example(info: FieldInfo) -> object:
    if info.type == "selection":
        return (info.selection or [("", "")])[0][0]
    return EXAMPLES.get(info.type, "...")


def _required(fields: Mapping[str, FieldInfo]) -> list[str]:
    return [n for n, f in fields.items() if f.required and not f.readonly]


async def overview(rc: ServerContext, args: Mapping[str, str]) -> str:
    """REQ-06-17: the instance (version, edition, URL, database, user and uid), the toolsets
    this server enabled, the tool count, the key models and how to start, naming only the
    tools that are registered."""
    odoo = rc.odoo
    info = odoo.get_connection_info() if hasattr(odoo, "get_connection_info") else None
    version = odoo.odoo_version
    tools = sorted(_tools(rc))
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


async def _description(rc: ServerContext, model: str) -> str:
    """REQ-06-19: the model's description (ir.model name); the model name if unreadable."""
    try:
        rows = await rc.odoo.search_read("ir.model", [["model", "=", model]], ["name"], limit=1)
    except OdooError:
        return model
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


async def model_guide(rc: ServerContext, args: Mapping[str, str]) -> str:
    """REQ-06-19: the model and its description, fields grouped (required, key, other), the
    state machine, common operations with key filters, related models and tips."""
    model = _model_arg(rc, args)
    fields = await _visible_fields(rc, model)
    key = await rc.registry.key_fields(model, rc.policy.is_field_blocked)
    required = _required(fields)
    others = [n for n in fields if n not in required and n not in key][:25]
    version = rc.odoo.odoo_version
    flow = workflow_for(model, version.major if version else None)
    tools = _tools(rc)
    description = await _description(rc, model)
    lines = [f"# Guide: {model} ({description})", "", "## Fields", "Required when creating:"]
    lines += [_describe(n, fields[n]) for n in required] or ["- (none)"]
    lines += ["Key fields:"] + [_describe(n, fields[n]) for n in key if n in fields]
    lines += ["Other fields (first 25):"] + [_describe(n, fields[n]) for n in others]
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
    model = _model_arg(rc, args)
    fields = await _visible_fields(rc, model)
    key = await rc.registry.key_fields(model, rc.policy.is_field_blocked)
    required = _required(fields)
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
    lines = [f"# Creating a {model} record", "", "## Required fields"]
    lines += [
        _describe(n, fields[n], with_help=True) + (" (has a default)" if n in defaults else "")
        for n in required
    ] or ["- (none)"]
    lines += ["", "## Default values (filled in when you leave the field out)"]
    lines += [
        f"- {n}: {json.dumps(v, default=str)}" for n, v in defaults.items() if n in fields
    ] or ["- (none)"]
    example = {n: _example(fields[n]) for n in required if n not in defaults}
    lines += ["", "## Example values for common fields"]
    lines += [
        f"- {n} ({fields[n].type}): {json.dumps(_example(fields[n]))}" for n in required + common
    ] or ["- (none)"]
    relations = [n for n in required + common if fields[n].type in ("many2one", "many2many")]
    lines += ["", "## Relations"]
    lines += [
        f"- {n}: first search {fields[n].relation} (odoo_core_search_read on "
        f"{fields[n].relation}, e.g. domain [['name', 'ilike', '<name>']]) and use its id"
        for n in relations
    ] or ["- (no relation to resolve)"]
    lines += ["", "## Call"]
    if CREATE in _tools(rc):
        lines.append(f"{CREATE} " + json.dumps({"model": model, "values": example}))
    else:
        lines.append(
            f"Creating {model} records is not available: this server runs in "
            f"{rc.policy.mode.value} mode, which offers no create tool."
        )
    return "\n".join(lines)


async def search_help(rc: ServerContext, args: Mapping[str, str]) -> str:
    """REQ-06-21: a suggested domain for the need, the fields to ask for, the call to make."""
    model = _model_arg(rc, args)
    query = (args.get("query") or "").strip()
    fields = await _visible_fields(rc, model)
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


PROMPTS: Final = (
    PromptSpec(
        "odoo_overview",
        "Get an overview of the connected Odoo instance, available tools, and how to use them",
        (),
        overview,
    ),
    PromptSpec(
        "odoo_domain_help", "Reference guide for Odoo domain filter syntax", (), domain_help
    ),
    PromptSpec(
        "odoo_model_guide",
        "Get a guide for working with a specific Odoo model",
        (("model_name", "The Odoo model name (e.g., 'sale.order')"),),
        model_guide,
    ),
    PromptSpec(
        "odoo_create_record",
        "Get guidance for creating a record on a specific model",
        (("model_name", "The Odoo model name"),),
        create_record,
    ),
    PromptSpec(
        "odoo_search_help",
        "Get help constructing a search query for a model",
        (
            ("model_name", "The Odoo model name"),
            ("query", "What you're looking for (natural language)"),
        ),
        search_help,
    ),
)


async def render_prompt(rc: ServerContext, name: str, args: Mapping[str, str]) -> str:
    """REQ-06-17..21: the prompt's text; an unknown name or a missing argument is
    INVALID_RESOURCE (-32602)."""
    spec = next((p for p in PROMPTS if p.name == name), None)
    if spec is None:
        raise invalid_request(f"unknown prompt {name}; see prompts/list")
    missing = [arg for arg, _ in spec.arguments if not (args.get(arg) or "").strip()]
    if missing:
        raise invalid_request(f"prompt {name} needs the argument(s) {', '.join(missing)}")
    return await spec.render(rc, args)
