"""Steps specific to the errors features (generic ones live in common)."""

from __future__ import annotations
