"""Steps specific to the read features (generic ones live in ``common``)."""

from __future__ import annotations
