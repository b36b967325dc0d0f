"""The server's context: the collaborators of one server, given to every tool handler,
resource and prompt (they never see MCP, so they can be tested against the fake Odoo without a
transport).

It carries the Odoo connection (the caller's, over HTTP with authentication, through
``odoo_mcp.callers.CallerRouter``), the field-metadata registry, the safety policy, the display
options and limits, what the toolset registration did, and what only resources show (server
version, rate limits, poll interval). Rate limiting, audit records and the conversion of
exceptions into SPEC-10 results belong to the MCP adapter (``odoo_mcp.adapter``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from odoo_mcp.connection import OdooError
from odoo_mcp.connection.base import OdooCalls
from odoo_mcp.formatting import FormatOptions
from odoo_mcp.registry import ModelRegistry
from odoo_mcp.safety.policy import SafetyPolicy

if TYPE_CHECKING:  # importing odoo_mcp.toolsets runs its __init__, which imports the tools
    from odoo_mcp.toolsets.metadata import ToolsetMetadata
    from odoo_mcp.toolsets.report import RegistrationReport

__all__ = ["RegisteredToolsets", "ServerContext"]


class RegisteredToolsets(Protocol):
    """REQ-03-10/19: what the toolset registration did, as tools, resources and prompts read it
    (``odoo_mcp.toolsets.ToolsetRegistry``; a protocol here, since toolsets hold the tools and
    the tools hold this context)."""

    @property
    def report(self) -> RegistrationReport: ...

    def tool_names(self) -> tuple[str, ...]: ...

    def get_registered_toolsets(self) -> list[ToolsetMetadata]: ...

    def get_toolset_for_tool(self, tool: str) -> str | None: ...

    def tools_by_toolset(self) -> Mapping[str, list[str]]: ...


@dataclass(frozen=True)
class ServerContext:
    """The collaborators of one server: one per Odoo connection."""

    odoo: OdooCalls  # in production the CallerRouter over the ConnectionManager
    registry: ModelRegistry
    policy: SafetyPolicy
    formatting: FormatOptions
    search_default_limit: int = 80
    search_max_limit: int = 500
    #: REQ-03-10/19: what the toolset registration did (None outside a server, in unit tests)
    toolsets: RegisteredToolsets | None = field(default=None)
    #: REQ-06-02: this server's version, shown in system/info
    server_version: str = ""
    #: REQ-06-05: the rate limits in force, shown in config/safety
    rate_limit: Mapping[str, object] = field(default_factory=dict)
    #: REQ-06-14: the subscription poll interval in seconds, shown in system/info
    poll_interval: float | None = None
    #: uid -> the user's display name, read once (system/info is polled by subscriptions)
    user_names: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # REQ-11-14: the policy finds fields derived from blocked ones in this registry's
        # cached metadata (their ``depends`` and comodels)
        self.policy.use_metadata(self.registry)

    @property
    def tool_names(self) -> tuple[str, ...]:
        """REQ-03-19: the tools registered on this server."""
        return () if self.toolsets is None else self.toolsets.tool_names()

    async def user_display_name(self, uid: object, login: object) -> object:
        """REQ-06-02: the user's display name ("Mitchell Admin", not the login "admin"), read
        once per uid; the login where res.users is blocked or the read fails."""
        if not isinstance(uid, int) or not self.policy.is_model_readable("res.users"):
            return login
        if uid not in self.user_names:
            try:
                rows = await self.odoo.read("res.users", [uid], ["name"])
            except OdooError:
                return login
            if not rows or not rows[0].get("name"):
                return login
            self.user_names[uid] = str(rows[0]["name"])
        return self.user_names[uid]
