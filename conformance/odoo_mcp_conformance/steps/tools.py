"""Steps specific to the tools features (generic ones live in common)."""

from __future__ import annotations
