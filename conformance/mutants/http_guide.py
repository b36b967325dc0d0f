"""Mutants of http_guide (see registry.py)."""

from __future__ import annotations
