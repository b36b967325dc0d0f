"""SPEC-04: what every tool handler is given, and nothing more.

A tool is an input model, a pure async handler ``handler(ctx, params) -> ResultModel`` and one
registry line in ``odoo_mcp.server``.  Handlers never see MCP: they take a ``ToolContext``,
which carries the Odoo connection, the field-metadata registry, the safety policy and the
display options, so they can be tested against the fake Odoo without any transport.
Rate limiting, audit records and the conversion of exceptions into SPEC-10 error results
belong to the dispatcher in ``odoo_mcp.server``, around the handler.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel

from odoo_mcp.connection.base import OdooCalls
from odoo_mcp.formatting import FormatOptions
from odoo_mcp.registry import ModelRegistry
from odoo_mcp.safety.policy import SafetyPolicy

__all__ = ["ToolContext", "ToolSpec"]


@dataclass(frozen=True)
class ToolContext:
    """The collaborators of one server: one per Odoo connection."""

    odoo: OdooCalls  # in production the ConnectionManager (retries, re-authentication)
    registry: ModelRegistry
    policy: SafetyPolicy
    formatting: FormatOptions
    search_default_limit: int = 80
    search_max_limit: int = 500
    #: REQ-03-19: the tools registered on this server (for odoo_core_list_toolsets)
    tool_names: tuple[str, ...] = ()


InputT = TypeVar("InputT", bound=BaseModel)
ResultT = TypeVar("ResultT", bound=BaseModel)


@dataclass(frozen=True)
class ToolSpec(Generic[InputT, ResultT]):
    """One tool: its exact SPEC-04 name, title, input model (= inputSchema), result model
    (= outputSchema) and handler.  Each tools module exports ``TOOLS: list[ToolSpec]``;
    ``odoo_mcp.server`` registers them and takes annotations from ``safety.annotations``."""

    name: str
    title: str
    description: str
    input_model: type[InputT]
    result_model: type[ResultT]
    handler: Callable[[ToolContext, InputT], Awaitable[ResultT]]
    kind: Literal["read", "write"]  # for the rate limiter and the audit log
    #: the tool's ``_meta`` in tools/list (REQ-LUJ-14: a contract's version, decision 31)
    meta: dict[str, Any] | None = None
