"""Matching one stored value against one domain condition, as Odoo's SQL would.

The value-level half of ``domain_eval``: ``=`` on empty values, the negative operators as
complements, SQL ``LIKE`` patterns, x2many membership.  Kept apart so both halves stay small.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from fake_odoo.orm import domain as D

X2MANY = ("one2many", "many2many")
NUMERIC = ("integer", "float", "monetary")


def is_empty(ftype: str, value: Any) -> bool:
    if value is None or value is False:
        return True
    if ftype in X2MANY:
        return not value
    if ftype in ("char", "text", "html", "selection"):
        return bool(value == "")
    return ftype in NUMERIC and bool(value == 0)


@lru_cache(maxsize=512)
def like_regex(pattern: str, wrap: bool, insensitive: bool) -> re.Pattern[str]:
    """SQL LIKE pattern -> regex (``%`` any run, ``_`` one char, backslash escapes)."""
    out: list[str] = []
    chars = iter(pattern)
    for char in chars:
        if char == "\\":
            out.append(re.escape(next(chars, "\\")))
        elif char == "%":
            out.append(".*")
        elif char == "_":
            out.append(".")
        else:
            out.append(re.escape(char))
    body = "".join(out)
    if wrap:
        body = f".*{body}.*"
    return re.compile(body, re.DOTALL | (re.IGNORECASE if insensitive else 0))


def _norm(ftype: str, value: Any) -> Any:
    """Make a domain value comparable with a raw stored value of that field type."""
    if hasattr(value, "strftime"):
        fmt = "%Y-%m-%d %H:%M:%S" if ftype == "datetime" else "%Y-%m-%d"
        return value.strftime(fmt)
    if ftype == "datetime" and isinstance(value, str) and len(value) == 10:
        return value + " 00:00:00"
    if hasattr(value, "_ids"):  # a recordset given in a Python-side domain
        return value.id
    return value


def _equal(ftype: str, stored: Any, value: Any) -> bool:
    if value is False or value is None:
        return is_empty(ftype, stored)
    if ftype == "boolean":
        return bool(stored) == bool(value)
    return bool(stored == _norm(ftype, value))


def match_value(ftype: str, stored: Any, operator: str, value: Any) -> bool:
    """Whether one raw (non-x2many) stored value satisfies ``operator value``."""
    if operator == "=?":
        if value is None or value is False:
            return True
        operator = "="
    positive = D.NEGATIVE_OPERATORS.get(operator)
    if positive is not None:
        return not match_value(ftype, stored, positive, value)
    if operator == "=":
        return _equal(ftype, stored, value)
    if operator == "in":
        values = value if isinstance(value, (list, tuple, set, frozenset)) else [value]
        return any(_equal(ftype, stored, v) for v in values)
    if operator in ("<", ">", "<=", ">="):
        if value is None or value is False or (stored is None or stored is False):
            return False
        value = _norm(ftype, value)
        try:
            if operator == "<":
                return bool(stored < value)
            if operator == ">":
                return bool(stored > value)
            if operator == "<=":
                return bool(stored <= value)
            return bool(stored >= value)
        except TypeError:
            return False
    # like family
    if value is None or value is False:
        return is_empty(ftype, stored)
    if stored is None or stored is False:
        return False
    regex = like_regex(str(value), operator in ("like", "ilike"), operator in ("ilike", "=ilike"))
    return regex.fullmatch(str(stored)) is not None


def x2many_match(stored: list[int], operator: str, value: Any) -> bool:
    if operator == "=?":
        if value is None or value is False:
            return True
        operator = "="
    if operator in ("=", "in"):
        values = value if isinstance(value, (list, tuple, set)) else [value]
        if any(v is False or v is None for v in values) and not stored:
            return True
        return any(_norm("many2many", v) in stored for v in values)
    return False


def touches(stored: Any, matching: set[int]) -> bool:
    if isinstance(stored, list):
        return any(i in matching for i in stored)
    return bool(stored) and stored in matching


def is_name(value: Any) -> bool:
    if isinstance(value, str):
        return True
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)
