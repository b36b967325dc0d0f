"""SPEC-11 §3 (REQ-11-14, issue 26): the answer scrub, the second line of defence.

The first line (``SafetyPolicy.check_references`` and the tools' own field checks) refuses a
call that names a blocked field. Whatever still comes back passes this one filter before it
leaves the server, tool results and resource contents alike: a key naming a blocked field (or
one derived from it) is dropped, and so is a domain holding a condition on one (read_group's
``__domain``, ``__extra_domain``). A scrub that fires means the first line missed a channel:
it is logged as a warning with the path the value came through, so that the channel is found
and closed, while the client gets nothing blocked in the meantime.

Issue 37: what the server writes about a call (audit lines, log records, error answers) must
not hold a blocked value either, even of a refused call: :class:`Redaction` is the one place
that finds them (by field name in the arguments) and removes them (from any text).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import pydantic_core

# the context keys made of a field name (``default_email``): the list the reference check uses
from odoo_mcp.field_refs import CONTEXT_FIELD_PREFIXES
from odoo_mcp.safety.blocklists import DEFAULT_FIELD_BLOCKLIST

__all__ = ["BLOCKED_VALUE", "DEFAULT_REDACTION", "Redaction", "scrub", "scrub_to_json"]

logger = logging.getLogger("odoo_mcp.safety.scrub")


def _is_leaf(item: object) -> bool:
    return isinstance(item, list) and len(item) == 3 and isinstance(item[0], str)


def _names_blocked(path: str, blocked: frozenset[str]) -> bool:
    return any(part in blocked for part in path.replace("/", ".").split("."))


def _blocked_domain(value: list[Any], blocked: frozenset[str]) -> bool:
    """A domain (a list of leaves and operators) with a condition on a blocked field."""
    return any(_is_leaf(item) and _names_blocked(item[0], blocked) for item in value)


def scrub(
    value: Any,
    blocked: frozenset[str],
    channel: str,
    *,
    keys: bool = True,
    warn: Callable[..., None] | None = None,
) -> Any:
    """REQ-11-14: ``value`` without keys naming a blocked field (``keys``: the answer's keys
    are Odoo field names) nor domains over one; the same object when nothing was dropped
    (no copy on the common path)."""
    dropped: list[str] = []
    cleaned = _walk(value, blocked, None, dropped, keys)
    if dropped:
        (warn or logger.warning)(
            "answer scrub dropped blocked data from %s at %s: a safety check missed this channel",
            channel,
            ", ".join(dropped[:10]) + (" ..." if len(dropped) > 10 else ""),
        )
    return cleaned


def scrub_to_json(
    value: Any,
    blocked: frozenset[str],
    channel: str,
    *,
    keys: bool = True,
    warn: Callable[..., None] | None = None,
) -> tuple[Any, bytes]:
    """REQ-11-14: :func:`scrub` and the JSON text of what it leaves, together.

    Issue 30: the text is encoded first, and a text in which no blocked name occurs at all
    (not as a key, not inside a string) cannot hold a key naming one nor a domain over one,
    so the walk is skipped: a 500-row answer costs a substring search per blocked name (0.3
    ms for the default blocklist) instead of a Python walk of every value (0.7 ms). Any
    occurrence, even in a partner's note, walks the answer as before: the search only ever
    says "nothing here"."""
    # NaN and infinities as null, as the SDK writes the structured content: the text block
    # stays JSON, and stays the structured content's own encoding (adapter.wire)
    encoded = pydantic_core.to_json(value, inf_nan_mode="null")
    needles = _needles(blocked)
    if needles is not None and not any(needle in encoded for needle in needles):
        return value, encoded
    cleaned = scrub(value, blocked, channel, keys=keys, warn=warn)
    return cleaned, encoded if cleaned is value else pydantic_core.to_json(
        cleaned, inf_nan_mode="null"
    )


def _written_as_is(name: str) -> bool:
    """JSON encoders write this name's characters unescaped."""
    return name.isascii() and name.isprintable() and '"' not in name and "\\" not in name


@lru_cache(maxsize=16)
def _needles(blocked: frozenset[str]) -> tuple[bytes, ...] | None:
    """The blocked names as they appear in JSON text; None when one of them could be
    written otherwise (escaped or non-ASCII) or is empty: then every answer is walked."""
    if "" in blocked or not all(map(_written_as_is, blocked)):
        return None
    # a name holding another (password_crypt, password) is found by the other's search;
    # longer needles first: the search skips about a needle's length per step
    needles = {name for name in blocked if not any(o != name and o in name for o in blocked)}
    return tuple(name.encode("ascii") for name in sorted(needles, key=len, reverse=True))


#: where a value sits: ``None`` for the answer itself, else (parent's place, key or index);
#: rendered as ``$.records[3].email`` only for what is dropped (issue 30: a 500-row answer
#: walked 55,000 values, formatting each one's path for nothing)
Place = tuple["Place | None", Any] | None


def _render(place: Place) -> str:
    parts: list[str] = []
    while place is not None:
        place, step = place
        parts.append(f"[{step}]" if isinstance(step, int) else f".{step}")
    return "$" + "".join(reversed(parts))


def _walk(value: Any, blocked: frozenset[str], place: Place, dropped: list[str], keys: bool) -> Any:
    # iterative over the breadth of each container, recursive over depth (only into
    # containers): answers are JSON the server built or parsed, whose depth is bounded
    if isinstance(value, dict):
        # a record none of whose keys is blocked (the common case) skips the per-key test
        check_keys = keys and not blocked.isdisjoint(value)
        out: dict[Any, Any] | None = None
        for key, item in value.items():
            drop = check_keys and isinstance(key, str) and key in blocked
            if not drop and not isinstance(item, (dict, list)):  # subclasses too: fail closed
                continue
            if not drop and isinstance(item, list) and _blocked_domain(item, blocked):
                drop = True
            if drop:
                dropped.append(_render((place, key)))
                if out is None:
                    out = {k: v for k, v in value.items() if k != key}
                else:
                    out.pop(key, None)
                continue
            cleaned = _walk(item, blocked, (place, key), dropped, keys)
            if cleaned is not item:
                if out is None:
                    out = dict(value)
                out[key] = cleaned
        return value if out is None else out
    if isinstance(value, list):
        items: list[Any] | None = None  # a copy, from the first change on
        for index, item in enumerate(value):
            if not isinstance(item, (dict, list)):
                if items is not None:
                    items.append(item)
                continue
            if _is_leaf(item) and _names_blocked(item[0], blocked):
                dropped.append(_render((place, index)))
                if items is None:
                    items = list(value[:index])
                continue
            cleaned = _walk(item, blocked, (place, index), dropped, keys)
            if cleaned is not item and items is None:
                items = list(value[:index])
            if items is not None:
                items.append(cleaned)
        return value if items is None else items
    return value


# -- issue 37: blocked values in what the server writes (logs, audit lines, error answers) ----

#: what a blocked value is replaced by in an audit line, a log record or an error answer
BLOCKED_VALUE: Final = "[blocked]"
#: a known blocked value shorter than this is not searched for in text: removing every "ab"
#: from a message would garble it while telling nothing
_MIN_TEXT = 3


def _key_blocked(key: str, blocked: frozenset[str]) -> bool:
    """A key naming a blocked field: the field, a dotted path through one, or a context key
    made of one (``default_email``, ``search_default_email``)."""
    if _names_blocked(key, blocked):
        return True
    for prefix in CONTEXT_FIELD_PREFIXES:
        if key.startswith(prefix) and _names_blocked(key[len(prefix) :], blocked):
            return True
    return False


def _strings(value: Any, found: set[str]) -> None:
    """Every scalar of ``value`` as the text a message could quote it as."""
    if isinstance(value, str):
        if len(value) >= _MIN_TEXT:
            found.add(value)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        _strings(str(value), found)
    elif isinstance(value, Mapping):
        for item in value.values():
            _strings(item, found)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            _strings(item, found)


#: ``(field path, value) -> bool``: a domain condition whose value is blocked though no part of
#: its path is (one that makes Odoo run a name search matching a blocked field)
LeafCheck = Callable[[str, Any], bool]


def _blocked_leaf(
    value: list[Any] | tuple[Any, ...], blocked: frozenset[str], leaf: LeafCheck | None
) -> bool:
    if len(value) != 3 or not isinstance(value[0], str):
        return False
    return _key_blocked(value[0], blocked) or (leaf is not None and leaf(value[0], value[2]))


def _redact(
    value: Any, blocked: frozenset[str], found: set[str], leaf: LeafCheck | None = None
) -> Any:
    if isinstance(value, Mapping):
        out: dict[Any, Any] = {}
        for key, item in value.items():
            if isinstance(key, str) and _key_blocked(key, blocked):
                _strings(item, found)
                out[key] = BLOCKED_VALUE
            else:
                out[key] = _redact(item, blocked, found, leaf)
        return out
    if isinstance(value, list | tuple):
        # a domain condition on a blocked field keeps its field and operator (they tell the
        # reader what was refused), never its value; ``any`` sub-domains are walked as lists
        if _blocked_leaf(value, blocked, leaf):
            _strings(value[2], found)
            return [value[0], _redact(value[1], blocked, found), BLOCKED_VALUE]
        return [_redact(item, blocked, found, leaf) for item in value]
    if isinstance(value, str) and value.lstrip().startswith("["):
        # a domain sent as JSON text (refused by the input model, REQ-04a-13): its blocked
        # values are found here and removed from the text by ``Redaction.texts``
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        _redact(parsed, blocked, found, leaf)
    return value


@dataclass(frozen=True, slots=True)
class Redaction:
    """REQ-11-14, REQ-11-24 (issue 37): what the server must not write for one call, in a log
    record, an audit line or an error answer: the values of blocked fields, found by field
    name in its arguments, and those same values wherever a text quotes them (Odoo's message
    may echo what it was sent). The one redaction: the audit log, the error log and the error
    answers all go through it."""

    blocked: frozenset[str] = frozenset()
    #: the blocked values the call carried, longest first (a value holding another goes first)
    values: tuple[str, ...] = ()

    @classmethod
    def of_call(
        cls,
        arguments: object,
        blocked: Iterable[str],
        *,
        values: Iterable[object] = (),
        leaf: LeafCheck | None = None,
    ) -> Redaction:
        """REQ-11-14: the redaction of one call: ``blocked`` names and the values its
        ``arguments`` hold under them (values dicts, ``vals_list``, domains, context keys,
        execute args and kwargs), with ``values`` the caller knows are blocked too (a name
        search's text where it would match a blocked field) and the values of the domain
        conditions ``leaf`` says are blocked. Only the values found here are searched for in
        texts and logged strings later (:meth:`text`, :meth:`arguments`)."""
        names = frozenset(blocked)
        found: set[str] = set()
        _redact(arguments, names, found, leaf)
        _strings(list(values), found)
        return cls(names, _longest_first(found))

    def arguments(self, value: Any) -> Any:
        """REQ-11-24: a copy of ``value`` (call arguments) with every blocked value replaced
        by :data:`BLOCKED_VALUE`, by field name, then wherever a string holds one of the
        call's blocked values; lists and tuples become lists (JSON)."""
        if not self.blocked:
            return self.texts(value)
        found: set[str] = set()
        value = _redact(value, self.blocked, found)
        if found.issubset(self.values):
            return self.texts(value)
        return Redaction(self.blocked, _longest_first(found.union(self.values))).texts(value)

    def text(self, text: str) -> str:
        """REQ-11-14: ``text`` without any blocked value of the call, as written or as JSON
        escapes it (best effort: a value Odoo reworded is not found)."""
        for value in self.values:
            if value in text:
                text = text.replace(value, BLOCKED_VALUE)
            escaped = json.dumps(value, ensure_ascii=False)[1:-1]
            if escaped != value and escaped in text:
                text = text.replace(escaped, BLOCKED_VALUE)
        return text

    def texts(self, value: Any) -> Any:
        """REQ-11-14: :meth:`text` on every string (and key) of a JSON value."""
        if not self.values:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {self.texts(k): self.texts(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.texts(item) for item in value]
        return value


def _longest_first(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(values, key=lambda v: (-len(v), v)))


#: REQ-11-24: for a writer given no call's redaction, the built-in field blocklist's: safety
#: fails closed (password, api_key, ... are hidden even then)
DEFAULT_REDACTION: Final = Redaction(DEFAULT_FIELD_BLOCKLIST)
