"""SPEC-06 §3-4 and §7: what each ``odoo://`` resource answers.

Every resource goes through the same safety policy as the tools (REQ-06-22): a blocked model
is refused, blocked fields never appear, and the records are normalised like tool results
(REQ-06-10). Metadata comes from the registry cache, so most resources cost no Odoo call; a
record costs one ``read`` and a listing one ``search_read``.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from odoo_mcp.context import ServerContext
from odoo_mcp.errors import ToolError
from odoo_mcp.errors.categories import ErrorCategory
from odoo_mcp.formatting import normalize_records
from odoo_mcp.registry.merge import merge_methods, merge_states
from odoo_mcp.registry.workflows import workflow_for
from odoo_mcp.resources.uris import ResourceRef, parse_uri
from odoo_mcp.safety import Operation
from odoo_mcp.tools.core_common import checked_domain
from odoo_mcp.tools.core_meta import FieldsGetInput, fields_get
from odoo_mcp.tools.core_toolsets import ListToolsetsInput, list_toolsets

__all__ = [
    "RESOURCES",
    "TEMPLATES",
    "ResourceInfo",
    "read_resource",
]


class ResourceInfo(BaseModel):
    """A static resource or a template, as resources/list shows it."""

    model_config = ConfigDict(frozen=True)

    uri: str
    name: str
    description: str


#: REQ-06-02..05: the static resources (system/info named and described as the seed shows it)
RESOURCES: Final = (
    ResourceInfo(
        uri="odoo://system/info",
        name="Odoo Instance Info",
        description="Connection details, Odoo version, and server capabilities",
    ),
    ResourceInfo(
        uri="odoo://system/modules",
        name="Installed Modules",
        description="The Odoo modules installed on the database",
    ),
    ResourceInfo(
        uri="odoo://system/toolsets",
        name="Toolsets",
        description="The toolsets and tools this server offers",
    ),
    ResourceInfo(
        uri="odoo://config/safety",
        name="Safety Configuration",
        description="Operation mode and the model, field and method lists in force",
    ),
)
#: REQ-06-06..11: the templates (fields and record named and described as the seed shows them)
TEMPLATES: Final = (
    ResourceInfo(
        uri="odoo://model/{model_name}/fields",
        name="Model Fields",
        description="Field definitions for an Odoo model. Example: odoo://model/sale.order/fields",
    ),
    ResourceInfo(
        uri="odoo://model/{model_name}/methods",
        name="Model Methods",
        description="The action and button methods of a model",
    ),
    ResourceInfo(
        uri="odoo://model/{model_name}/states",
        name="Model States",
        description="A model's states and the methods that move between them",
    ),
    ResourceInfo(
        uri="odoo://record/{model_name}/{record_id}",
        name="Odoo Record",
        description="Read a specific Odoo record by model and ID",
    ),
    ResourceInfo(
        uri="odoo://record/{model_name}{?domain,limit}",
        name="Odoo Records",
        description="Records matching a URL-encoded JSON domain (limit 20, at most 100)",
    ),
)


def _not_found(message: str, model: str | None) -> ToolError:
    return ToolError(
        "NOT_FOUND",
        message,
        category=ErrorCategory.NOT_FOUND,
        suggestion="Check the model name with odoo_core_list_models and the id with "
        "odoo_core_search_read.",
        details={"model": model} if model else None,
    )


#: REQ-06-02: the connection states in which Odoo was just found unreachable
_OUTAGE_STATES: Final = frozenset({"error", "reconnecting"})


async def _system_info(rc: ServerContext) -> dict[str, Any]:
    """REQ-06-02: the Odoo instance and this server, with the seed's keys; also the
    connection's state (what subscribers of system/info hear about, REQ-06-15) and the
    subscription poll interval (REQ-06-14: configurable, 60 s by default).

    REQ-06-02 during an outage (``state`` is ``error`` or ``reconnecting``): the seed's types
    are kept with the values last known: the version string, edition and protocol of the
    last login, its integer uid and the user's name as read while connected (no Odoo call is
    made for it then; the login where the name was never read, as decision 32 has it for
    an unreadable res.users). Only a connection that never logged in has no version, no
    protocol and no uid (null), and ``state`` then says why (``disconnected``, ``error``).
    """
    odoo = rc.odoo
    info = odoo.get_connection_info() if hasattr(odoo, "get_connection_info") else None
    uid = getattr(info, "uid", None)
    login = getattr(info, "username", None)
    state = str(getattr(getattr(info, "state", None), "value", "unknown"))
    if state in _OUTAGE_STATES:
        name = rc.user_names.get(uid, login) if isinstance(uid, int) else login
    else:
        name = await rc.user_display_name(uid, login)
    if info is not None:
        version, edition = info.odoo_version, info.edition
    else:
        known = odoo.odoo_version
        version = str(known) if known else None
        edition = getattr(known, "edition", "unknown") if known else "unknown"
    return {
        "server_version": version,
        "server_edition": edition,
        "database": getattr(info, "database", None),
        "url": getattr(info, "url", None),
        "protocol": getattr(info, "protocol", None),
        "user": {"uid": uid, "name": name},
        "state": state,
        "mcp_server_version": rc.server_version,
        "subscription_poll_interval": rc.poll_interval,
    }


async def _system_modules(rc: ServerContext) -> dict[str, Any]:
    """REQ-06-03: installed modules: the registry's (read at start-up, REQ-07-09), else one
    search_read, kept for the next time."""
    found = await rc.registry.get_installed_modules()
    modules = [{"name": m.name, "state": "installed", "shortdesc": m.shortdesc} for m in found]
    return {"modules": modules, "count": len(modules)}


def _config_safety(rc: ServerContext) -> dict[str, Any]:
    """REQ-06-05: the mode and the effective lists, defaults included (decision 12)."""
    described = rc.policy.describe()
    return {"operation_mode": described.pop("mode"), **described, "rate_limit": rc.rate_limit}


async def _model_methods(rc: ServerContext, model: str) -> dict[str, Any]:
    """REQ-06-07: action_/button_ methods of well-known models (decision 8's static table).

    REQ-07-20: the registry backs it: the static registry file's methods are merged in.
    """
    version = rc.odoo.odoo_version
    flow = workflow_for(model, version.major if version else None)
    static = rc.registry.static_model(model)
    table = merge_methods(model, static.methods if static else {}, flow.methods if flow else ())
    methods = [m.model_dump() for m in table]
    visible = [m for m in methods if rc.policy.is_method_allowed(m["name"])]
    note = None if table else "No method table for this model: odoo_core_execute can still "
    "call its public methods; odoo_core_fields_get shows its fields."
    return {"model": model, "methods": visible, **({"note": note} if note else {})}


async def _model_states(rc: ServerContext, model: str) -> dict[str, Any]:
    """REQ-06-08: states from the selection, transitions from the static table.

    REQ-07-20: the states are the registry's (live selection, merged with the static file).
    """
    version = rc.odoo.odoo_version
    flow = workflow_for(model, version.major if version else None)
    state_field = flow.state_field if flow else "state"
    fields = await rc.registry.get_fields(model)
    info = fields.get(state_field)
    if info is None or info.type != "selection" or rc.policy.is_field_blocked(model, state_field):
        raise _not_found(f"{model} has no state field; it has no state machine", model)
    static = rc.registry.static_model(model)
    states = merge_states(model, static.states if static else None, info.selection or ())
    return {
        "model": model,
        "state_field": state_field,
        "states": [{"value": value, "label": label} for value, label in states or ()],
        "transitions": [
            {"from": t.from_state, "to": t.to_state, "method": t.method}
            for t in (flow.transitions if flow else ())
        ],
    }


async def _record(rc: ServerContext, ref: ResourceRef) -> dict[str, Any]:
    """REQ-06-09/10: the key fields of one record, normalised, no binary; one read."""
    ctx, model = rc, str(ref.model)
    names = await ctx.registry.key_fields(model, ctx.policy.is_field_blocked)
    rows = await ctx.odoo.read(model, [int(ref.record_id or 0)], ["id", *names])
    if not rows:
        raise _not_found(f"{model} record {ref.record_id} does not exist", model)
    fields = await ctx.registry.get_fields(model)
    record = normalize_records(rows, fields, options=ctx.formatting)[0]
    return {"model": model, "record": record}


async def _listing(rc: ServerContext, ref: ResourceRef) -> dict[str, Any]:
    """REQ-06-11: records of a domain (validated like the tools'), key fields only.

    REQ-06-12: the limit is 20 unless given, and at most 100 (parse_uri clamps it).
    """
    ctx, model = rc, str(ref.model)
    domain, warnings = await checked_domain(ctx, model, list(ref.domain))
    names = await ctx.registry.key_fields(model, ctx.policy.is_field_blocked)
    rows = await ctx.odoo.search_read(model, domain, ["id", *names], limit=ref.limit)
    fields = await ctx.registry.get_fields(model)
    records = normalize_records(rows, fields, options=ctx.formatting)
    result: dict[str, Any] = {
        "model": model,
        "domain": domain,
        "limit": ref.limit,
        "count": len(records),
        "has_more": len(records) >= ref.limit,
        "records": records,
    }
    if warnings:
        result["warnings"] = list(warnings)
    return result


async def read_resource(rc: ServerContext, uri: str) -> dict[str, Any]:
    """REQ-06-01: parse, check the safety policy (REQ-06-22), then answer; Odoo's refusals
    and the policy's come back as errors, never as an empty answer (REQ-06-23).

    REQ-06-04: odoo://system/toolsets is the answer of odoo_core_list_toolsets.
    """
    ref = parse_uri(uri)
    if ref.model is not None:
        rc.policy.check_operation(Operation.READ, ref.model)
    match ref.kind:
        case "system_info":
            return await _system_info(rc)
        case "system_modules":
            return await _system_modules(rc)
        case "system_toolsets":
            answer = await list_toolsets(rc, ListToolsetsInput())
            return answer.model_dump(mode="json")
        case "config_safety":
            return _config_safety(rc)
        case "model_fields":
            described = await fields_get(rc, FieldsGetInput(model=str(ref.model)))
            return described.model_dump(mode="json")
        case "model_methods":
            return await _model_methods(rc, str(ref.model))
        case "model_states":
            return await _model_states(rc, str(ref.model))
        case "record":
            return await _record(rc, ref)
        case "listing":
            return await _listing(rc, ref)
    raise AssertionError(ref.kind)  # pragma: no cover - the match is exhaustive
