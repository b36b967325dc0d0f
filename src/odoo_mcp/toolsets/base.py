"""SPEC-03 REQ-03-01..03: what a toolset is: its declared metadata and its tools."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from odoo_mcp.tools.spec import ToolSpec

__all__ = ["AnySpec", "BaseToolset", "ToolsetMetadata"]

AnySpec = ToolSpec[Any, Any]


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


class BaseToolset(ABC):
    """REQ-03-01: a toolset: its metadata and the tools it owns (REQ-03-16: adding one is a
    module with a subclass and a line in ``ALL_TOOLSETS``)."""

    @abstractmethod
    def metadata(self) -> ToolsetMetadata:
        """REQ-03-02: the toolset's declared metadata."""

    @abstractmethod
    def tools(self) -> Sequence[AnySpec]:
        """The tools this toolset owns, each one ``ToolSpec``."""
