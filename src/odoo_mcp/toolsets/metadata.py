"""SPEC-03 REQ-03-02: what a toolset declares about itself (apart from its tools, so that the
server context can name it without importing the tools)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ToolsetMetadata"]


class ToolsetMetadata(BaseModel):
    """REQ-03-02: what a toolset declares about itself."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str
    version: str = "1.0.0"
    required_modules: tuple[str, ...] = ()
    min_odoo_version: str = "14.0"
    max_odoo_version: str | None = None
    depends_on: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    #: decision 28: False for a toolset only an explicit ``enabled_toolsets`` entry turns on
    enabled_by_default: bool = Field(default=True)
