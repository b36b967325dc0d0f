"""SPEC-10 §9 / SPEC-11 §7-8: the dispatcher around every tool handler.

``tools/list`` answers the registered tools with the input model as inputSchema, the result
model as outputSchema and all four annotation hints. ``tools/call``: look the tool up (unknown
or hidden: JSON-RPC -32601), validate the arguments with its input model (-32602), rate limit
per MCP session, run the handler, audit the call. Any other failure becomes a SPEC-10 error
result with ``isError: true`` and no traceback (REQ-10-14/17).
"""

from __future__ import annotations

import logging
import time
import traceback
import weakref
from collections.abc import Mapping
from typing import Any, Literal

from mcp.server import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
    ToolAnnotations,
    ToolListChangedNotification,
)
from pydantic import BaseModel, ValidationError

from odoo_mcp.adapter.client_logging import ClientLogLevels, mcp_level
from odoo_mcp.adapter.errors import (
    error_tool_result,
    internal_error,
    invalid_params_error,
    to_tool_result,
    unknown_tool_error,
)
from odoo_mcp.adapter.wire import kept_result
from odoo_mcp.callers import CallerRouter, current_caller
from odoo_mcp.connection import OdooError
from odoo_mcp.context import ServerContext
from odoo_mcp.domain.values import DomainError
from odoo_mcp.errors import ErrorCategory, invalid_params_response, log_error, log_level
from odoo_mcp.errors.log import redact_response
from odoo_mcp.errors.suggestions import FieldHint
from odoo_mcp.field_refs import context_refs
from odoo_mcp.safety import AuditLogger
from odoo_mcp.safety.annotations import ToolHints
from odoo_mcp.safety.redaction import call_redaction
from odoo_mcp.safety.scrub import Redaction, scrub_to_json
from odoo_mcp.state import RateLimiter
from odoo_mcp.tools.catalogue import DeferredToolSpec
from odoo_mcp.tools.spec import ToolSpec
from odoo_mcp.toolsets.registration import ToolsetCheckFailed, ToolsetRegistry

__all__ = ["AnySpec", "ToolDispatcher", "session_key", "tool_annotations", "tool_definition"]

logger = logging.getLogger("odoo_mcp.server")

AnySpec = ToolSpec[Any, Any]


def session_key(ctx: ServerRequestContext[Any, Any]) -> str:
    """REQ-11-20, REQ-HTTP-16: the MCP session a call belongs to, for per-session rate limits
    and audit records.

    The SDK builds a new session proxy per message, so the key is the ``Mcp-Session-Id`` header
    on HTTP. A stateless HTTP server has no session id: each authenticated caller is then its
    own bucket (``uid:<n>``), never one bucket shared by every caller. A stdio (or in-process)
    server has exactly one client.
    """
    request = ctx.request
    headers = getattr(request, "headers", None)
    if headers is not None:
        found = headers.get("mcp-session-id")
        if found:
            return str(found)
        caller = current_caller()
        if caller is not None:
            return f"uid:{caller.uid}"
        return "http"
    return "stdio"


def _result_id(result: BaseModel | None) -> int | list[int] | None:
    """REQ-11-23: ``result_id`` of a create: the new id(s) the result model carries."""
    for name in ("id", "ids"):
        value = getattr(result, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, list) and all(isinstance(item, int) for item in value):
            return list(value)
    return None


def tool_annotations(title: str, hints: ToolHints) -> ToolAnnotations:
    """REQ-11-17, REQ-03-13: a title and the four booleans, every one set explicitly
    (REQ-11-18: openWorld is always true, every tool talks to Odoo)."""
    return ToolAnnotations(
        title=title,
        read_only_hint=hints.read_only,
        destructive_hint=hints.destructive,
        idempotent_hint=hints.idempotent,
        open_world_hint=True,
    )


#: the listed schemas, per model class and mode: classes live as long as the process
_SCHEMAS: dict[tuple[type[BaseModel], str], dict[str, Any]] = {}


def _schema(model: type[BaseModel], mode: Literal["validation", "serialization"]) -> dict[str, Any]:
    key = (model, mode)
    if key not in _SCHEMAS:
        _SCHEMAS[key] = model.model_json_schema(mode=mode)
    return _SCHEMAS[key]


def input_schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """REQ-11-17: a tool's inputSchema, built once per model class: the registry serves its
    tools again once connected (REQ-03-04), and each pass over every schema took 24 ms of a
    server's start on the development machine (issue 41). Nothing changes a listed schema."""
    return _schema(model, "validation")


def output_schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """REQ-11-17: a tool's outputSchema (the result model as serialized), built once."""
    return _schema(model, "serialization")


def listed_input_schema(spec: AnySpec) -> dict[str, Any]:
    """REQ-11-17: a tool's inputSchema: a core tool's from the catalogue (issue 41: listing
    it imports nothing of its module), any other tool's from its input model."""
    if isinstance(spec, DeferredToolSpec):
        return spec.input_schema
    return input_schema_of(spec.input_model)


def listed_output_schema(spec: AnySpec) -> dict[str, Any]:
    """REQ-11-17: a tool's outputSchema, as ``listed_input_schema``."""
    if isinstance(spec, DeferredToolSpec):
        return spec.output_schema
    return output_schema_of(spec.result_model)


def tool_definition(spec: AnySpec) -> Tool:
    """REQ-11-17: a tool as listed: input model as inputSchema, result model as outputSchema,
    all four annotation hints explicit (decision 5)."""
    return Tool(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        input_schema=listed_input_schema(spec),
        output_schema=listed_output_schema(spec),
        annotations=tool_annotations(spec.title, spec.hints),
        _meta=dict(spec.meta) if spec.meta else None,
    )


class ToolDispatcher:
    """REQ-10-16/17: the ``tools/list`` and ``tools/call`` handlers around the tool handlers."""

    def __init__(
        self,
        toolsets: ToolsetRegistry,
        context: ServerContext,
        *,
        limiter: RateLimiter,
        audit: AuditLogger,
        connection: CallerRouter,
        client_log: ClientLogLevels | None = None,
    ) -> None:
        self.toolsets = toolsets
        self.specs: dict[str, AnySpec] = {}
        self.definitions: list[Tool] = []
        self.use_registered_tools()
        #: REQ-03-17: per Odoo connection (ours, and each HTTP caller's), the connections made
        self._connections_seen: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
        self._sessions: weakref.WeakSet[Any] = weakref.WeakSet()
        self.context = context
        self.limiter = limiter
        self.audit = audit
        self.connection = connection
        self.client_log = client_log

    def use_registered_tools(self) -> None:
        """REQ-03-12: serve what the toolset registry registered (names are unique there)."""
        self.specs = {spec.name: spec for spec in self.toolsets.tools()}
        self.definitions = [tool_definition(spec) for spec in self.specs.values()]

    async def register(self) -> None:
        """REQ-03-04: run the toolset registration against the connected Odoo and serve it."""
        await self.toolsets.discover_and_register(self.connection)
        self._connections_seen[self.connection.own] = self.connection.own.connections
        self.use_registered_tools()

    async def _follow_reconnections(self, ctx: ServerRequestContext[Any, Any]) -> None:
        """REQ-03-17/18: after a reconnection (maybe to another Odoo version, other modules)
        the toolsets are checked again; if the tools change, every client seen is sent
        ``notifications/tools/list_changed`` before the new set is served."""
        self._sessions.add(ctx.session)
        current = self.connection.current  # over HTTP with auth, the caller's own connection
        seen = self._connections_seen.setdefault(current, current.connections)
        if current.connections == seen:
            return
        self._connections_seen[current] = current.connections
        try:
            changed = await self.toolsets.recheck(self.connection)
        except ToolsetCheckFailed as exc:  # try again at the next request
            logger.warning("%s after a reconnection; the tools stay as they were", exc)
            self._connections_seen[current] = seen
            return
        if not changed:
            return
        logger.info("the registered tools changed after a reconnection; notifying clients")
        # the asking client hears it on its own request's stream (over HTTP the session
        # stream may not be open); others seen still in memory on their session stream
        await ctx.session.send_notification(
            ToolListChangedNotification(), related_request_id=ctx.request_id
        )
        for session in [s for s in self._sessions if s is not ctx.session]:
            try:
                await session.send_tool_list_changed()
            except Exception:  # a client gone away: nothing to tell it
                logger.debug("tools/list_changed not delivered", exc_info=True)
        self.use_registered_tools()

    def input_schema(self, name: str) -> dict[str, Any] | None:
        """REQ-10-16: the schema the SDK may check header parameters against."""
        spec = self.specs.get(name)
        return None if spec is None else listed_input_schema(spec)

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams
    ) -> ListToolsResult:
        """REQ-11-05: only the tools registered for this mode and these toolsets are listed."""
        await self._follow_reconnections(ctx)
        return ListToolsResult(tools=list(self.definitions))

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: CallToolRequestParams
    ) -> CallToolResult:
        """REQ-10-16: unknown or hidden tool -32601, invalid arguments -32602, a server bug
        -32603; REQ-10-17: Odoo and safety errors are tool results with ``isError: true``."""
        await self._follow_reconnections(ctx)
        spec = self.specs.get(params.name)
        if spec is None:
            # decision 13: a tool hidden by the mode (REQ-11-05) is an unknown tool
            raise unknown_tool_error(params.name, self.specs)
        try:
            arguments = spec.input_model.model_validate(params.arguments or {})
        except ValidationError as exc:
            if spec.schema_errors_as_results:
                # REQ-LUJ-13: the storefront contracts answer a request that fails their schema
                # with their own INVALID_PARAMS error, like their other errors, not -32602
                return to_tool_result(invalid_params_response(spec.name, exc))
            raise invalid_params_error(spec.name, exc) from None
        except DomainError as exc:
            # REQ-04a-13: a domain sent as a JSON string is refused by the input model's
            # validator with the list it meant: INVALID_DOMAIN, as for any other bad domain
            model = (params.arguments or {}).get("model")
            model = model if isinstance(model, str) else None
            response, refusal = error_tool_result(exc, model=model)
            redaction = self._redaction(params.arguments or {})
            if (redacted := redact_response(response, redaction)) is not response:
                response, refusal = redacted, to_tool_result(redacted)
            log_error(
                response,
                model=model,
                method=None,
                kwargs=dict(params.arguments or {}),
                redaction=redaction,
            )
            return refusal
        return await self._run(spec, arguments, ctx)

    async def _run(
        self, spec: AnySpec, params: BaseModel, ctx: ServerRequestContext[Any, Any]
    ) -> CallToolResult:
        """REQ-11-20 rate limit, REQ-11-22 audit, REQ-10-14 no traceback in the result."""
        session = session_key(ctx)
        model = getattr(params, "model", None)
        model = model if isinstance(model, str) else None
        started = time.perf_counter()
        result: BaseModel | None = None
        try:
            # StateUnavailable (Redis down) is a SPEC-10 connection error, retry true: a call
            # the limiter cannot count is not run (decision 37)
            await self.limiter.check(session, spec.kind)
            await self._check_context(model, params)
            result = await spec.handler(self.context, params)
        except MCPError:
            raise
        except Exception as exc:
            method = spec.method_of(params)
            response, error_result = error_tool_result(
                exc, model=model, method=method, fields=self._field_hint
            )
            arguments = _arguments(params)
            redaction = self._redaction(arguments)
            # issue 37: the answer, the log records and the client's log message alike
            if (redacted := redact_response(response, redaction)) is not response:
                response, error_result = redacted, to_tool_result(redacted)
            self._audit(
                spec,
                params,
                session,
                model,
                started,
                success=False,
                result=None,
                redaction=redaction,
            )
            if response.category is ErrorCategory.UNKNOWN and not isinstance(exc, OdooError):
                # REQ-10-16: a bug of the server, not an Odoo error: -32603, details in the log
                if redaction.values:  # the exception's text may quote the arguments
                    trace = redaction.text("".join(traceback.format_exception(exc)))
                    logger.error("tool %s failed unexpectedly\n%s", spec.name, trace)
                else:
                    logger.error("tool %s failed unexpectedly", spec.name, exc_info=exc)
                raise internal_error(exc) from None
            log_error(response, model=model, method=method, kwargs=arguments, redaction=redaction)
            if self.client_log is not None:
                await self.client_log.send(
                    ctx,
                    mcp_level(log_level(response.category)),
                    {
                        "tool": spec.name,
                        "model": model,
                        "method": method,
                        "category": response.category.value,
                        "code": response.code,
                        "message": response.message,
                    },
                )
            return error_result
        self._audit(spec, params, session, model, started, success=True, result=result)
        # issue 30: the result is turned into plain JSON values once (records as built); the
        # text block (for clients that read text only) is those values encoded by
        # pydantic-core's encoder (Rust: json.dumps took 1.6x as long)
        # loaded with the tool that returned it (issue 41: a start does not load the core
        # tools' shared models and, through them, the domain validators)
        from odoo_mcp.tools.core_common import ResultModel

        if isinstance(result, ResultModel):
            structured = result.json_values()
        else:
            structured = result.model_dump(mode="json", by_alias=True)
        # REQ-11-14 (issue 26): the second line: nothing naming a blocked field leaves
        scrubbed, encoded = scrub_to_json(
            structured,
            self.context.policy.blocked_names(),
            f"tool {spec.name}",
            keys=spec.answer_keys_are_fields,
        )
        text = encoded.decode()
        if isinstance(scrubbed, dict):  # issue 41: the SDK serializes it once, from the text
            return kept_result(scrubbed, text)
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=scrubbed
        )

    async def _check_context(self, model: str | None, params: BaseModel) -> None:
        """REQ-11-14 (issue 26): an Odoo context given to any tool may name fields
        (``group_by``, ``default_<f>``, ``show_email``): refused when one is blocked."""
        context = getattr(params, "context", None)
        if model is not None and isinstance(context, dict) and context:
            refs = context_refs(context, "context")
            await self.context.policy.check_references(model, refs, self.context.registry)

    def _redaction(self, arguments: Mapping[str, object]) -> Redaction:
        """REQ-11-14 (issue 37): what this call's logs, audit line and error answer omit."""
        return call_redaction(self.context.policy, self.context.registry.cached, arguments)

    def _field_hint(self, model: str, name: str) -> FieldHint | None:
        """REQ-10-09: what the cached metadata says of a field an error names (no Odoo call),
        so that the suggestion can give its type, relation or valid values."""
        info = (self.context.registry.cached(model) or {}).get(name)
        if info is None:
            return None
        selection = tuple(value for value, _ in info.selection or ())
        return FieldHint(name, info.label, info.type, info.relation, selection)

    def _audit(
        self,
        spec: AnySpec,
        params: BaseModel,
        session: str,
        model: str | None,
        started: float,
        *,
        success: bool,
        result: BaseModel | None,
        redaction: Redaction | None = None,
    ) -> None:
        """REQ-11-22/23: one audit line per invocation of a logged kind; REQ-11-24 (issue
        37): without a blocked field's value."""
        try:
            operation = spec.operation_of(params)
            if not self.audit.should_log(operation):  # the arguments are not dumped for nothing
                return
            values = _arguments(params)
            self.audit.record(
                session_id=session,
                tool=spec.name,
                model=model,
                operation=operation,
                values=values,
                success=success,
                duration_ms=(time.perf_counter() - started) * 1000.0,
                odoo_uid=self.connection.uid,
                result_id=_result_id(result),
                redaction=redaction or self._redaction(values),
            )
        except Exception:  # the call happened; a broken audit line must not change its answer
            logger.exception("audit record for %s failed", spec.name)


def _arguments(params: BaseModel) -> dict[str, object]:
    return params.model_dump(mode="json", exclude_none=True)
