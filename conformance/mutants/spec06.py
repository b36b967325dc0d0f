"""Mutants of spec06 (see registry.py)."""

from __future__ import annotations
