"""SPEC-03 REQ-03-09: the registration report's shape (no imports of the tools, so that
``odoo_core_list_toolsets`` can carry it)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

__all__ = ["RegistrationReport", "ToolsetRegistrationResult"]


class ToolsetRegistrationResult(BaseModel):
    """REQ-03-09: what happened to one toolset."""

    name: str
    status: Literal["registered", "skipped", "failed"]
    tools_registered: list[str]
    skip_reason: str | None = None
    error: str | None = None


class RegistrationReport(BaseModel):
    """REQ-03-09: what the registration did, toolset by toolset."""

    results: list[ToolsetRegistrationResult]
    total_toolsets: int
    registered_toolsets: int
    total_tools: int
    timestamp: str  # ISO 8601, UTC
