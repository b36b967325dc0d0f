"""Steps specific to the safety features (generic ones live in common)."""

from __future__ import annotations
