"""Steps specific to the domains features (generic ones live in ``common``)."""

from __future__ import annotations
