"""SPEC-03 REQ-03-01..03: what a toolset is: its declared metadata and its tools."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from odoo_mcp.tools.spec import ToolSpec
from odoo_mcp.toolsets.metadata import ToolsetMetadata

__all__ = ["AnySpec", "BaseToolset", "ToolsetMetadata"]

AnySpec = ToolSpec[Any, Any]


class BaseToolset(ABC):
    """REQ-03-01: a toolset: its metadata and the tools it owns (REQ-03-16: adding one is a
    module with a subclass and a line in ``ALL_TOOLSETS``)."""

    @abstractmethod
    def metadata(self) -> ToolsetMetadata:
        """REQ-03-02: the toolset's declared metadata."""

    @abstractmethod
    def tools(self) -> Sequence[AnySpec]:
        """The tools this toolset owns, each one ``ToolSpec``."""
