"""Mutants of spec10 (see registry.py)."""

from __future__ import annotations
