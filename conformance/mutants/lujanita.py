"""Mutants of lujanita (see registry.py)."""

from __future__ import annotations
