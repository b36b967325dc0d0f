"""SPEC-04: what a tool is.

A tool is one ``ToolSpec``: its name, title, description, input model, result model, handler
and the facts the server needs around it (annotation hints, the operation the audit log and
the mode check see, the Odoo method errors name). Its toolset lists it (``odoo_mcp.toolsets``):
adding a tool is one spec in one module and one line in its toolset (a core tool: and the
catalogue written again, ``odoo_mcp.tools.catalogue``). Handlers take the
:class:`~odoo_mcp.context.ServerContext` and never see MCP; the MCP adapter
(``odoo_mcp.adapter.tools``) turns a spec into a listed tool and runs its calls.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel

from odoo_mcp.context import ServerContext
from odoo_mcp.safety.annotations import ToolHints
from odoo_mcp.safety.modes import Operation

__all__ = ["ToolSpec"]


InputT = TypeVar("InputT", bound=BaseModel)
ResultT = TypeVar("ResultT", bound=BaseModel)


@dataclass(frozen=True)
class ToolSpec(Generic[InputT, ResultT]):
    """One tool and everything the server needs to know of it, in one place."""

    name: str
    title: str
    description: str
    input_model: type[InputT]
    result_model: type[ResultT]
    handler: Callable[[ServerContext, InputT], Awaitable[ResultT]]
    #: REQ-11-17/18: readOnly, destructive and idempotent (openWorld is always true)
    hints: ToolHints
    #: REQ-11-22: the operation a call stands for (audit, mode), or how to tell it from the
    #: call's arguments (``odoo_core_execute``: the method's); None: read for a read-only
    #: tool, execute for any other
    operation: Operation | Callable[[InputT], Operation] | None = None
    #: REQ-10-19: the Odoo method errors name; None: the call's own ``method`` argument, else
    #: the tool's name
    odoo_method: str | None = None
    #: REQ-LUJ-13: arguments that fail the input model are a result in the tool's own error
    #: format (the storefront contracts), not JSON-RPC -32602
    schema_errors_as_results: bool = False
    #: the tool's ``_meta`` in tools/list (REQ-LUJ-14: a contract's version, decision 31)
    meta: dict[str, Any] | None = None
    #: REQ-11-14: the answer's keys are Odoo field names, so the answer scrub drops those of
    #: blocked fields; a contract's answer has keys of its own schema (its ``email`` is not
    #: res.partner's: the contract maps and checks fields itself), only domains are scrubbed
    answer_keys_are_fields: bool = True

    @property
    def kind(self) -> Literal["read", "write"]:
        """REQ-11-20: the rate limiter's bucket: read-only tools are reads."""
        return "read" if self.hints.read_only else "write"

    def owner_module(self) -> str:
        """REQ-03-12: the module that defines the tool, to name it when two tools clash."""
        return self.handler.__module__

    def operation_of(self, params: InputT) -> Operation:
        """REQ-11-22: the operation one invocation stands for."""
        if callable(self.operation):
            return self.operation(params)
        if self.operation is not None:
            return self.operation
        return Operation.READ if self.hints.read_only else Operation.EXECUTE

    def method_of(self, params: InputT) -> str:
        """REQ-10-19: the Odoo method a call stands for: the tool's, else the call's own."""
        if self.odoo_method is not None:
            return self.odoo_method
        method = getattr(params, "method", None)
        return method if isinstance(method, str) and method else self.name
