"""Where records sit in an answer, and of which model.

SPEC-04 REQ-04-35 normalizes "all tool responses", and SPEC-06 REQ-06-10 gives record
resources the same normalization: every answer that carries Odoo records is judged field by
field. The records of a tool come from its arguments' model; a resource's from its URI. Only
the keys that are fields of the model (as the fake reports them) are judged, so an
implementation adding keys of its own is never blamed for them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import parse_qs, unquote

from odoo_mcp_conformance.answers import Answer

__all__ = ["RecordSet", "record_sets", "resource_model"]

#: execute methods whose result is a list of records of the called model
READ_LIKE = frozenset({"read", "search_read"})
_RECORD_URI = re.compile(r"^odoo://record/([^/?#]+)(?:/(\d+))?(?:\?(.*))?$")


@dataclass(frozen=True)
class RecordSet:
    """Records of one model found in an answer."""

    model: str
    records: list[dict[str, Any]]
    #: the JSON path of the list (``records``, ``result``, ``defaults``, ``$``)
    path: str
    #: ``records``: Odoo's read format; ``values``: default values (a many2one is an id)
    shape: Literal["records", "values"]
    #: where they came from: ``tool`` or ``resource``
    via: Literal["tool", "resource"]
    #: the field names the request named anywhere in its arguments or URI
    named: frozenset[str]
    #: a record resource (one record) or a listing
    single: bool = False


def _names_in(value: Any) -> frozenset[str]:
    """Every string of a request's arguments (a field named by keyword or position)."""
    found: set[str] = set()

    def walk(item: Any) -> None:
        if isinstance(item, str):
            found.add(item)
            found.update(part for part in re.split(r"[^\w.]+", item) if part)
        elif isinstance(item, dict):
            for key, sub in item.items():
                found.add(str(key))
                walk(sub)
        elif isinstance(item, list):
            for sub in item:
                walk(sub)

    walk(value)
    return frozenset(found)


def _dicts(value: Any) -> list[dict[str, Any]] | None:
    if isinstance(value, list) and all(isinstance(item, dict) for item in value):
        return value
    return None


def resource_model(uri: str) -> tuple[str, str | None, dict[str, list[str]]] | None:
    """``odoo://record/{model}[/{id}][?query]`` as (model, id, query), else None."""
    match = _RECORD_URI.match(uri)
    if match is None:
        return None
    return unquote(match.group(1)), match.group(2), parse_qs(match.group(3) or "")


def record_sets(answer: Answer) -> Iterator[RecordSet]:
    """The records an answer carries (successful answers only)."""
    if answer.error is not None or answer.is_error:
        return
    body = answer.body
    if answer.kind == "tool" and isinstance(body, dict):
        args = answer.arguments if isinstance(answer.arguments, dict) else {}
        model = args.get("model")
        if not isinstance(model, str):
            return
        named = _names_in(args)
        if answer.name in ("odoo_core_search_read", "odoo_core_read"):
            records = _dicts(body.get("records"))
            if records is not None:
                yield RecordSet(model, records, "records", "records", "tool", named)
        elif answer.name == "odoo_core_execute" and args.get("method") in READ_LIKE:
            records = _dicts(body.get("result"))
            if records is not None:
                yield RecordSet(model, records, "result", "records", "tool", named)
        elif answer.name == "odoo_core_default_get":
            defaults = body.get("defaults")
            if isinstance(defaults, dict):
                yield RecordSet(model, [defaults], "defaults", "values", "tool", named)
    elif answer.kind == "resource":
        parsed = resource_model(answer.name)
        if parsed is None:
            return
        model, record_id, query = parsed
        named = _names_in(json.dumps(query))
        records = _resource_records(body, single=record_id is not None)
        if records is not None:
            yield RecordSet(
                model, records, "records", "records", "resource", named, record_id is not None
            )


def _resource_records(body: Any, *, single: bool) -> list[dict[str, Any]] | None:
    """A record resource's record, or a listing's records, in the shapes servers give them."""
    if isinstance(body, list):
        return _dicts(body)
    if not isinstance(body, dict):
        return None
    for key in ("records", "results", "items"):
        if (records := _dicts(body.get(key))) is not None:
            return records
    for key in ("record", "data"):
        if isinstance(body.get(key), dict):
            return [body[key]]
    return [body] if single else None
