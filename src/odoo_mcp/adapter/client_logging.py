"""MCP logging (the 2025 protocol era): ``logging/setLevel`` and ``notifications/message``.

A client that sets a level gets, for each of its failed tool calls at or above that level, one
log message with the classified error: tool, model, method, category, code and message, the
same record the server logs (REQ-10-18/19), never the raw Odoo error or a traceback
(REQ-10-14). Nothing is sent to a client that has not set a level. The 2026-07-28 protocol era
deprecates this capability; clients of that era simply never call ``logging/setLevel``.
"""

from __future__ import annotations

import logging
import warnings
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final, Literal

from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.types import EmptyResult, SetLevelRequestParams

__all__ = ["LEVELS", "ClientLogLevels"]

logger = logging.getLogger("odoo_mcp.server")

McpLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
#: RFC 5424 severities, least severe first, as MCP names them
LEVELS: Final[tuple[McpLevel, ...]] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)
#: Sessions remembered with their level (the SDK caps and expires sessions too).
MAX_SESSIONS: Final = 10_000


def mcp_level(python_level: int) -> McpLevel:
    """A Python logging level as the nearest MCP level at or below it."""
    if python_level >= logging.CRITICAL:
        return "critical"
    if python_level >= logging.ERROR:
        return "error"
    if python_level >= logging.WARNING:
        return "warning"
    return "info" if python_level >= logging.INFO else "debug"


class ClientLogLevels:
    """The level each MCP session asked for, and the sending of log messages to it."""

    def __init__(self, session_of: Callable[[Any], str]) -> None:
        self._session_of = session_of
        self._levels: OrderedDict[str, McpLevel] = OrderedDict()

    async def set_level(self, ctx: Any, params: SetLevelRequestParams) -> EmptyResult:
        """``logging/setLevel``: from now on, messages at this level or above go to the client."""
        key = self._session_of(ctx)
        self._levels[key] = params.level
        self._levels.move_to_end(key)
        while len(self._levels) > MAX_SESSIONS:
            self._levels.popitem(last=False)
        return EmptyResult()

    async def send(self, ctx: Any, level: McpLevel, data: dict[str, Any]) -> None:
        """One ``notifications/message`` to the calling client, if its level lets it through."""
        wanted = self._levels.get(self._session_of(ctx))
        if wanted is None or LEVELS.index(level) < LEVELS.index(wanted):
            return
        try:
            with warnings.catch_warnings():
                # deprecated for the 2026-07-28 era only: this client asked for it (2025 era)
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await ctx.session.send_log_message(
                    level=level,
                    data=data,
                    logger="odoo_mcp.errors",
                    related_request_id=ctx.request_id,
                )
        except Exception:  # the call's answer matters more than its log line
            logger.debug("could not send a log message to the client", exc_info=True)
