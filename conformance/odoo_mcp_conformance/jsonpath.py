"""A tiny path language for feature files: ``records[0].partner_id.name``, ``records[*].id``,
``results[name=contracts].status`` (the first item of a list whose ``name`` is ``contracts``)."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MISSING", "lookup", "matches"]


class _Missing:
    """The absent value; its repr says so in failure messages (not ``<object at 0x...>``)."""

    def __repr__(self) -> str:
        return "<absent>"


MISSING: Any = _Missing()
_PART = re.compile(r"([^.\[\]]+)|\[(\d+|\*|[^\]=]+=[^\]]*)\]")


def lookup(data: Any, path: str) -> Any:
    """The value at ``path`` (``MISSING`` when absent); ``[*]`` maps over a list."""
    if path in ("", "$"):
        return data
    parts = [m.group(1) if m.group(1) is not None else m.group(2) for m in _PART.finditer(path)]
    return _walk(data, parts)


def _walk(data: Any, parts: list[str]) -> Any:
    if not parts:
        return data
    head, rest = parts[0], parts[1:]
    if head == "*":
        if not isinstance(data, list):
            return MISSING
        return [_walk(item, rest) for item in data]
    if isinstance(data, list) and head.isdigit():
        index = int(head)
        return _walk(data[index], rest) if index < len(data) else MISSING
    if isinstance(data, list) and "=" in head:
        # an item chosen by a key's value: lists whose order no seed fixes
        key, _, value = head.partition("=")
        for item in data:
            if isinstance(item, dict) and key in item and str(item[key]) == value:
                return _walk(item, rest)
        return MISSING
    if isinstance(data, dict) and head in data:
        return _walk(data[head], rest)
    return MISSING


def matches(actual: Any, expected: Any) -> bool:
    """Subset match: every key of an expected dict is in actual and matches; lists elementwise.

    The string ``"<any>"`` matches any present value; ``"<int>"``, ``"<str>"``,
    ``"<list>"``, ``"<dict>"``, ``"<bool>"``, ``"<number>"`` match by type.
    """
    if isinstance(expected, str) and expected.startswith("<") and expected.endswith(">"):
        kinds: dict[str, Any] = {
            "<any>": object, "<int>": int, "<str>": str, "<list>": list, "<dict>": dict,
            "<bool>": bool, "<number>": (int, float),
        }  # fmt: skip
        if expected in kinds:
            if expected in ("<int>", "<number>") and isinstance(actual, bool):
                return False
            return actual is not MISSING and isinstance(actual, kinds[expected])
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and matches(actual[key], value) for key, value in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(matches(a, e) for a, e in zip(actual, expected, strict=True))
        )
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(actual) is type(expected) and actual == expected
    return bool(actual == expected)
