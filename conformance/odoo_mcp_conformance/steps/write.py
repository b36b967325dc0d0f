"""Steps specific to the write features (generic ones live in ``common``)."""

from __future__ import annotations
