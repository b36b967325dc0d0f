"""The seed rules that hold for every answer, each judging its own requirement.

Issue 36: a rule the seeds state for "all responses", "every error response", "all datetime
fields" or "the safety blocklist" is checked on every answer a kit run receives, through
every tool and resource, on every page, protocol and transport, not in the one place a
scenario looks. Each rule names the sentence it rests on and fails only the requirement that
sentence belongs to; an answer it cannot read is not judged by it (a presence check belongs
to the scenario that asks for the answer). Values are judged against what the kit reads from
the fake itself (field types, the blocklists in force), never against the reference server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeGuard

from odoo_mcp_conformance.answers import Answer
from odoo_mcp_conformance.invariants.records import RecordSet, record_sets, resource_model
from odoo_mcp_conformance.invariants.truth import FieldTypes, Scope

__all__ = ["RULES", "Context", "Rule", "Violation"]


@dataclass(frozen=True)
class Violation:
    """One place an answer breaks a rule."""

    requirement: str
    path: str
    what: str


@dataclass(frozen=True)
class Context:
    types: FieldTypes
    scope: Scope


#: ``None``: the rule does not apply to the answer; else the violations it found (maybe none)
Judge = Callable[[Answer, Context], "list[Violation] | None"]


@dataclass(frozen=True)
class Rule:
    name: str
    #: every requirement the rule can fail
    requirements: tuple[str, ...]
    #: the sentence it rests on (document, section, quote)
    seed: str
    judge: Judge


# -- records: SPEC-04 §4 normalization, binary fields, blocked fields ------------------------
_ISO_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
#: a markup tag as Odoo's editor writes them (not a lone "<" or "a < b")
_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(\s[^<>]*)?/?>")
_STRING_TYPES = frozenset({"char", "text", "html"})


def _normalization_req(records: RecordSet, seed_req: str) -> str:
    """A record resource's normalization is REQ-06-10's ("the same normalization as tool
    responses"); a tool's is the SPEC-04 requirement of the rule."""
    return "REQ-06-10" if records.via == "resource" else seed_req


def _fields(answer: Answer, ctx: Context) -> Iterator[tuple[RecordSet, str, int, str, Any, str]]:
    """(records, path, index, field, value, type) of every field value the answer shows."""
    for records in record_sets(answer):
        types = ctx.types.of(records.model)
        if not types:
            continue
        for index, record in enumerate(records.records):
            for name, value in record.items():
                kind = types.get(name)
                if kind:
                    yield records, f"{records.path}[{index}].{name}", index, name, value, kind


def _shown(value: Any) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= 120 else text[:119] + "…"


def _many2one(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-05: a many2one is ``{"id": int, "name": str}`` (or null when empty), never
    Odoo's ``[id, name]`` pair; default values may name a record by its id alone."""
    found: list[Violation] = []
    seen = False
    for records, path, _, _, value, kind in _fields(answer, ctx):
        if kind != "many2one":
            continue
        seen = True
        if value is None or value is False:  # an empty one is REQ-04-35's row (_empty_values)
            continue
        if records.shape == "values" and isinstance(value, int) and not isinstance(value, bool):
            continue
        ok = (
            isinstance(value, dict)
            and isinstance(value.get("id"), int)
            and isinstance(value.get("name"), str)
        )
        if not ok:
            req = _normalization_req(records, "REQ-04-05")
            found.append(Violation(req, path, f"many2one value {_shown(value)}"))
    return found if seen else None


def _empty_values(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-35's table: Odoo's ``False`` becomes ``null`` for an empty many2one or date,
    ``""`` for an empty string field; x2many ids stay a list of ids. Default values are
    not records: Odoo gives x2many defaults as commands, which the table does not cover."""
    found: list[Violation] = []
    seen = False
    for records, path, _, _, value, kind in _fields(answer, ctx):
        req = _normalization_req(records, "REQ-04-35")
        if records.shape == "values" and kind not in ("many2one", "date", "datetime"):
            continue
        if kind in ("many2one", "date", "datetime"):
            seen = True
            if value is False:
                found.append(Violation(req, path, f"empty {kind} as false, expected null"))
        elif kind in _STRING_TYPES:
            seen = True
            if value is False or value is None:
                found.append(Violation(req, path, f'empty {kind} as {_shown(value)}, expected ""'))
        elif kind in ("one2many", "many2many"):
            seen = True
            ids = isinstance(value, list) and all(
                isinstance(item, int) and not isinstance(item, bool) for item in value
            )
            if not ids:
                found.append(Violation(req, path, f"{kind} value {_shown(value)}, expected ids"))
    return found if seen else None


def _datetimes(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-37: every datetime is ISO 8601 with ``Z`` (``2025-02-09T14:30:00Z``), never
    Odoo's naive ``2025-02-09 14:30:00``. A default value may be a date alone (SPEC-04's own
    default_get example gives ``date_order`` as ``2025-02-09``)."""
    found: list[Violation] = []
    seen = False
    for records, path, _, _, value, kind in _fields(answer, ctx):
        if kind != "datetime" or value is None or value is False:
            continue
        seen = True
        good = isinstance(value, str) and (
            _ISO_DATETIME.match(value)
            or (records.shape == "values" and _ISO_DATE.match(value) is not None)
        )
        if not good:
            req = _normalization_req(records, "REQ-04-37")
            what = f"datetime {_shown(value)}, expected ISO 8601 with Z"
            found.append(Violation(req, path, what))
    return found if seen else None


def _html(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-35: HTML content is stripped to plain text (the default; a scenario that turns
    stripping off, or whose settings the kit cannot read, is not judged by this rule)."""
    if not ctx.scope.strip_html:
        return None
    found: list[Violation] = []
    seen = False
    for records, path, _, _, value, kind in _fields(answer, ctx):
        if kind != "html" or not isinstance(value, str):
            continue
        seen = True
        if (tag := _TAG.search(value)) is not None:
            req = _normalization_req(records, "REQ-04-35")
            found.append(Violation(req, path, f"html value keeps the tag {tag.group(0)!r}"))
    return found if seen else None


def _binary(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-36: binary fields are not returned by search_read or read (through either tool
    or execute) unless the request names them; REQ-06-10: a record resource never shows one."""
    found: list[Violation] = []
    seen = False
    for records in record_sets(answer):
        if records.shape == "values":
            continue
        types = ctx.types.of(records.model)
        binaries = {name for name, kind in types.items() if kind == "binary"}
        if not binaries:
            continue
        seen = True
        for index, record in enumerate(records.records):
            for name in sorted(binaries & set(record)):
                path = f"{records.path}[{index}].{name}"
                if records.via == "resource" and records.single:
                    what = "a binary field in a record resource"
                    found.append(Violation("REQ-06-10", path, what))
                elif name not in records.named:
                    req = "REQ-06-10" if records.via == "resource" else "REQ-04-36"
                    found.append(Violation(req, path, "a binary field the request did not name"))
    return found if seen else None


def _blocked_fields(answer: Answer, ctx: Context) -> list[Violation] | None:
    """SPEC-11 REQ-11-14: a blocked field (built-in or configured) is dropped from every read
    result; REQ-06-22: the safety configuration applies to resources too; REQ-04-24: and to
    field definitions."""
    found: list[Violation] = []
    seen = False
    for records in record_sets(answer):
        seen = True
        req = "REQ-06-22" if records.via == "resource" else "REQ-11-14"
        for index, record in enumerate(records.records):
            for name in record:
                if why := ctx.scope.field_blocked(name):
                    path = f"{records.path}[{index}].{name}"
                    found.append(Violation(req, path, f"the field {name!r} is on {why}"))
    definitions = _field_definitions(answer)
    if definitions is not None:
        seen = True
        path, names = definitions
        for name in names:
            if why := ctx.scope.field_blocked(name):
                found.append(Violation("REQ-04-24", f"{path}.{name}", f"{name!r} is on {why}"))
    return found if seen else None


def _field_definitions(answer: Answer) -> tuple[str, list[str]] | None:
    """The field names a fields_get answer or a model fields resource describes."""
    body = answer.body
    if answer.error is not None or answer.is_error or not isinstance(body, dict):
        return None
    tool = answer.kind == "tool" and answer.name == "odoo_core_fields_get"
    resource = answer.kind == "resource" and re.match(r"^odoo://model/[^/]+/fields", answer.name)
    if not (tool or resource):
        return None
    fields = body.get("fields", body)
    if isinstance(fields, dict):
        return "fields", [str(name) for name in fields]
    if isinstance(fields, list):
        names = [f.get("name") for f in fields if isinstance(f, dict)]
        return "fields", [str(name) for name in names if isinstance(name, str)]
    return None


# -- safety: blocked models never reachable -------------------------------------------------
_MODEL_TOOLS = frozenset(
    {
        "odoo_core_search_read", "odoo_core_read", "odoo_core_count", "odoo_core_fields_get",
        "odoo_core_name_get", "odoo_core_default_get", "odoo_core_create", "odoo_core_write",
        "odoo_core_unlink", "odoo_core_execute",
    }
)  # fmt: skip


def _blocked_models(answer: Answer, ctx: Context) -> list[Violation] | None:
    """SPEC-11 REQ-11-06/07/08: a blocked model is never reachable (a tool on it is refused);
    REQ-06-22: nor through a resource; REQ-04-34: nor listed by odoo_core_list_models."""
    if answer.kind == "tool" and answer.name == "odoo_core_list_models":
        body = answer.body
        if answer.error is not None or answer.is_error or not isinstance(body, dict):
            return None
        models = body.get("models")
        if not isinstance(models, list):
            return None
        found = []
        for index, entry in enumerate(models):
            name = entry.get("model") if isinstance(entry, dict) else None
            why = ctx.scope.model_blocked(name) if isinstance(name, str) else ""
            if why:
                found.append(Violation("REQ-04-34", f"models[{index}]", f"{name!r} is on {why}"))
        return found
    model = _model_of(answer)
    if model is None:
        return None
    why = ctx.scope.model_blocked(model)
    refused = answer.error is not None or answer.is_error or _is_error_object(answer.body)
    if not why or refused:  # a refusal without isError is REQ-10-17's defect, not this one
        return []
    if answer.kind == "resource":
        return [Violation("REQ-06-22", "$", f"{model!r} is on {why}, yet it was read")]
    req = "REQ-11-08" if "built-in" in why else "REQ-11-06" if "allowlist" in why else "REQ-11-07"
    return [Violation(req, "$", f"{model!r} is on {why}, yet {answer.name} answered")]


def _is_error_object(body: Any) -> bool:
    return isinstance(body, dict) and body.get("error") is True and "category" in body


def _model_of(answer: Answer) -> str | None:
    if answer.kind == "tool" and answer.name in _MODEL_TOOLS:
        model = answer.arguments.get("model") if isinstance(answer.arguments, dict) else None
        return model if isinstance(model, str) else None
    if answer.kind == "resource":
        parsed = resource_model(answer.name)
        if parsed is not None:
            return parsed[0]
        match = re.match(r"^odoo://model/([^/]+)/", answer.name)
        return match.group(1) if match else None
    return None


# -- envelopes: SPEC-04's response formats ---------------------------------------------------
def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _success_body(answer: Answer, tool: str) -> dict[str, Any] | None:
    if answer.kind != "tool" or answer.name != tool:
        return None
    if answer.error is not None or answer.is_error or not isinstance(answer.body, dict):
        return None
    if _is_error_object(answer.body):  # an error without isError: REQ-10-17's, not ours
        return None
    return answer.body


def _args(answer: Answer) -> dict[str, Any]:
    return answer.arguments if isinstance(answer.arguments, dict) else {}


def _search_read(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-03's envelope (records, count, model, limit, offset, has_more, each of its
    type, model and offset as asked); REQ-04-04: ``has_more`` is true when as many records
    came as the limit; REQ-04-02: never more than the maximum (500) nor than asked; REQ-04-01:
    80 by default."""
    body = _success_body(answer, "odoo_core_search_read")
    if body is None:
        return None
    args = _args(answer)
    found: list[Violation] = []

    def bad(req: str, path: str, what: str) -> None:
        found.append(Violation(req, path, what))

    records = body.get("records")
    kinds = {"records": list, "count": int, "model": str, "limit": int, "offset": int,
             "has_more": bool}  # fmt: skip
    for key, kind in kinds.items():
        value = body.get(key)
        typed = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
        if not typed:
            bad("REQ-04-03", key, f"{key} is {_shown(value)}, expected a {kind.__name__}")
    if isinstance(body.get("model"), str) and body["model"] != args.get("model"):
        bad("REQ-04-03", "model", f"model {body['model']!r}, asked {args.get('model')!r}")
    asked_offset = args.get("offset", 0)
    if _is_int(body.get("offset")) and _is_int(asked_offset) and body["offset"] != asked_offset:
        bad("REQ-04-03", "offset", f"offset {body['offset']}, asked {asked_offset}")
    if not isinstance(records, list):
        return found
    limit = body.get("limit")
    if _is_int(limit) and len(records) == limit and body.get("has_more") is not True:
        bad("REQ-04-04", "has_more", f"{len(records)} records at limit {limit}, has_more "
            f"{_shown(body.get('has_more'))}")  # fmt: skip
    asked = args.get("limit")
    if ctx.scope.max_limit is not None and len(records) > max(ctx.scope.max_limit, 500):
        bad("REQ-04-02", "records", f"{len(records)} records, more than the maximum 500")
    if _is_int(asked) and asked > 0 and len(records) > asked:
        bad("REQ-04-02", "records", f"{len(records)} records, {asked} asked")
    default = ctx.scope.default_limit
    if asked is None and default is not None and len(records) > default:
        bad("REQ-04-01", "records", f"{len(records)} records with no limit given, more than "
            f"the default {default}")  # fmt: skip
    return found


def _read(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-07: the ids asked for that do not exist come back as ``missing_ids`` beside the
    records that do."""
    body = _success_body(answer, "odoo_core_read")
    if body is None:
        return None
    records, ids = body.get("records"), _args(answer).get("ids")
    if not isinstance(records, list) or not isinstance(ids, list):
        return [Violation("REQ-04-07", "records", f"records is {_shown(records)}")]
    returned = {r.get("id") for r in records if isinstance(r, dict)}
    absent = sorted({i for i in ids if _is_int(i)} - returned)
    if not absent:
        return []
    missing = body.get("missing_ids")
    if not isinstance(missing, list) or set(absent) - set(missing):
        return [Violation("REQ-04-07", "missing_ids", f"{_shown(missing)}, expected {absent}")]
    return []


def _message(body: dict[str, Any], req: str) -> list[Violation]:
    message = body.get("message")
    if isinstance(message, str) and message.strip():
        return []
    return [Violation(req, "message", f"message {_shown(message)}, expected a sentence")]


def _create(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-10: ``{id, model, message}``: the new record's id, the model asked, a message."""
    body = _success_body(answer, "odoo_core_create")
    if body is None:
        return None
    found = _message(body, "REQ-04-10")
    ids = body.get("id")
    if not (_is_int(ids) or (isinstance(ids, list) and ids and all(map(_is_int, ids)))):
        found.append(Violation("REQ-04-10", "id", f"id {_shown(ids)}, expected the new id"))
    if body.get("model") != _args(answer).get("model"):
        found.append(Violation("REQ-04-10", "model", f"model {_shown(body.get('model'))}"))
    return found


def _ids_answer(tool: str, req: str, key: str) -> Judge:
    def judge(answer: Answer, ctx: Context) -> list[Violation] | None:
        body = _success_body(answer, tool)
        if body is None:
            return None
        found = _message(body, req)
        if body.get("success") is not True:
            found.append(Violation(req, "success", f"success {_shown(body.get('success'))}"))
        if body.get("model") != _args(answer).get("model"):
            found.append(Violation(req, "model", f"model {_shown(body.get('model'))}"))
        asked, given = _args(answer).get("ids"), body.get(key)
        if not isinstance(given, list) or (
            isinstance(asked, list) and sorted(map(str, given)) != sorted(map(str, asked))
        ):
            found.append(Violation(req, key, f"{key} {_shown(given)}, asked {_shown(asked)}"))
        return found

    judge.__doc__ = f"{req}: ``{{success, model, {key}, message}}`` for the ids asked."
    return judge


def _count(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-21: ``{model, domain, count}``, count a whole number."""
    body = _success_body(answer, "odoo_core_count")
    if body is None:
        return None
    found = []
    count = body.get("count")
    if not (_is_int(count) and count >= 0):
        found.append(Violation("REQ-04-21", "count", f"count {_shown(count)}"))
    if body.get("model") != _args(answer).get("model"):
        found.append(Violation("REQ-04-21", "model", f"model {_shown(body.get('model'))}"))
    if not isinstance(body.get("domain"), list):
        found.append(Violation("REQ-04-21", "domain", f"domain {_shown(body.get('domain'))}"))
    return found


def _name_get(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-29: ``{model, names: [{id, name}]}`` for ids that were asked."""
    body = _success_body(answer, "odoo_core_name_get")
    if body is None:
        return None
    names, asked = body.get("names"), _args(answer).get("ids")
    if not isinstance(names, list):
        return [Violation("REQ-04-29", "names", f"names {_shown(names)}")]
    found = []
    for index, entry in enumerate(names):
        ok = (
            isinstance(entry, dict)
            and _is_int(entry.get("id"))
            and isinstance(entry.get("name"), str)
        )
        if not ok:
            found.append(Violation("REQ-04-29", f"names[{index}]", f"{_shown(entry)}"))
        elif isinstance(asked, list) and entry["id"] not in asked:
            found.append(Violation("REQ-04-29", f"names[{index}]", "an id that was not asked"))
    return found


def _default_get(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-31: ``{model, defaults}``."""
    body = _success_body(answer, "odoo_core_default_get")
    if body is None:
        return None
    found = []
    if not isinstance(body.get("defaults"), dict):
        found.append(Violation("REQ-04-31", "defaults", f"{_shown(body.get('defaults'))}"))
    if body.get("model") != _args(answer).get("model"):
        found.append(Violation("REQ-04-31", "model", f"model {_shown(body.get('model'))}"))
    return found


_ACCESS = frozenset({"read", "write", "create", "unlink"})


def _list_models(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-33: every entry is ``{model, name, transient, field_count, access}`` with a real
    field count (a whole number no larger than the fields Odoo has) and access named from
    read/write/create/unlink; REQ-04-32: no transient model unless asked for."""
    body = _success_body(answer, "odoo_core_list_models")
    if body is None:
        return None
    models = body.get("models")
    if not isinstance(models, list) or not _is_int(body.get("count")):
        return [Violation("REQ-04-33", "$", f"models/count {_shown(body)}")]
    found = []
    with_transient = _args(answer).get("transient") is True
    for index, entry in enumerate(models):
        path = f"models[{index}]"
        if not isinstance(entry, dict):
            found.append(Violation("REQ-04-33", path, _shown(entry)))
            continue
        name = entry.get("model")
        if not isinstance(name, str) or not isinstance(entry.get("name"), str):
            found.append(Violation("REQ-04-33", path, f"model/name {_shown(entry)}"))
            continue
        if not isinstance(entry.get("transient"), bool):
            found.append(Violation("REQ-04-33", f"{path}.transient", _shown(entry)))
        elif entry["transient"] and not with_transient:
            found.append(Violation("REQ-04-32", path, f"transient {name!r} not asked for"))
        count = entry.get("field_count")
        real = len(ctx.types.of(name))
        if not _is_int(count) or count < 1 or (real and count > real):
            what = f"{_shown(count)} for {name!r}, which has {real} fields"
            found.append(Violation("REQ-04-33", f"{path}.field_count", what))
        access = entry.get("access")
        parts = set(access.split(",")) if isinstance(access, str) else set()
        if not parts or not parts <= _ACCESS:
            found.append(Violation("REQ-04-33", f"{path}.access", f"access {_shown(access)}"))
    return found


def _execute(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-04-27: an execute answer says ``result_type``: an ``action`` with a non-empty
    ``summary``, or a ``value`` with its ``result``."""
    body = _success_body(answer, "odoo_core_execute")
    if body is None:
        return None
    kind = body.get("result_type")
    if kind == "value":
        return [] if "result" in body else [Violation("REQ-04-27", "result", "no result")]
    if kind == "action":
        action = body.get("action")
        summary = action.get("summary") if isinstance(action, dict) else None
        if isinstance(summary, str) and summary.strip():
            return []
        return [Violation("REQ-04-27", "action.summary", f"summary {_shown(summary)}")]
    return [Violation("REQ-04-27", "result_type", f"result_type {_shown(kind)}")]


# -- errors: SPEC-10 ---------------------------------------------------------------------------
CATEGORIES = {
    "validation": True, "access": False, "not_found": True, "constraint": True, "state": True,
    "wizard": True, "connection": True, "rate_limit": True, "configuration": False,
    "unknown": False,
}  # fmt: skip
_TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\", line \d+")


def _error_objects(answer: Answer) -> Iterator[tuple[str, Any, bool]]:
    """(path, object, required) of the SPEC-10 error objects an answer carries: a tool
    error's body (required: REQ-10-02 'every error response'), and the ``data`` of a JSON-RPC
    error when it holds one (optional there: judged only if present)."""
    if answer.kind == "tool" and answer.is_error:
        yield "$", answer.body, True
    if answer.error is not None:
        data = answer.error[2]
        if isinstance(data, dict) and ("category" in data or data.get("error") is True):
            yield "error.data", data, False


def _error_shape(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-10-02/03: every error response is the SPEC-10 object, with ``error: true``,
    ``category``, ``code``, ``message``, ``suggestion`` and a boolean ``retry``; REQ-10-01:
    its category is one of the ten; REQ-10-04: ``details`` an object and ``original_error``
    a string when present."""
    objects = list(_error_objects(answer))
    if not objects:
        return None
    found = []
    for path, body, _ in objects:
        if not isinstance(body, dict):
            found.append(Violation("REQ-10-02", path, f"not a JSON object: {_shown(body)}"))
            continue
        if body.get("error") is not True:
            found.append(Violation("REQ-10-03", f"{path}.error", f"{_shown(body.get('error'))}"))
        for key in ("category", "code", "message", "suggestion"):
            if not (isinstance(body.get(key), str) and body[key].strip()):
                found.append(Violation("REQ-10-03", f"{path}.{key}", _shown(body.get(key))))
        if not isinstance(body.get("retry"), bool):
            found.append(Violation("REQ-10-03", f"{path}.retry", _shown(body.get("retry"))))
        category = body.get("category")
        if isinstance(category, str) and category not in CATEGORIES:
            found.append(Violation("REQ-10-01", f"{path}.category", f"{category!r}"))
        if "details" in body and not isinstance(body["details"], dict | None):
            found.append(Violation("REQ-10-04", f"{path}.details", _shown(body["details"])))
        original = body.get("original_error")
        if original is not None and not isinstance(original, str):
            found.append(Violation("REQ-10-04", f"{path}.original_error", _shown(original)))
    return found


def _retry(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-10-15: ``retry`` follows the category's row of the table, on every error object
    (those built from Odoo's errors and the server's own refusals alike)."""
    found, seen = [], False
    for path, body, _ in _error_objects(answer):
        if not isinstance(body, dict) or body.get("category") not in CATEGORIES:
            continue
        seen = True
        expected = CATEGORIES[body["category"]]
        if body.get("retry") is not expected and isinstance(body.get("retry"), bool):
            found.append(Violation("REQ-10-15", f"{path}.retry",
                                   f"retry {body['retry']} for category {body['category']!r}, "
                                   f"the table says {expected}"))  # fmt: skip
    return found if seen else None


def _is_error_flag(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-10-17: an error is a tool result with ``isError: true``: an answer whose body is a
    SPEC-10 error object must carry the flag."""
    if answer.kind != "tool" or answer.error is not None or answer.is_error:
        return None
    body = answer.body
    if isinstance(body, dict) and body.get("error") is True and "category" in body:
        return [Violation("REQ-10-17", "isError", "a SPEC-10 error object without isError")]
    return []


def _without_original(value: Any) -> Any:
    """REQ-10-13 keeps the full traceback in ``original_error``: the rest is what the client
    is shown."""
    if isinstance(value, dict):
        return {k: _without_original(v) for k, v in value.items() if k != "original_error"}
    if isinstance(value, list):
        return [_without_original(v) for v in value]
    return value


def _traceback(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-10-14: no Python traceback in any answer (tool results, JSON-RPC errors,
    resources, prompts, notifications), ``original_error`` aside (REQ-10-13)."""
    texts = list(answer.texts) or [json.dumps([answer.body, answer.error], default=str)]
    if any("original_error" in text for text in texts):
        parts: list[Any] = [answer.body]
        if answer.error is not None:
            parts.append([answer.error[1], answer.error[2]])
        texts = [json.dumps(_without_original(parts), default=str)]
    for text in texts:
        if (match := _TRACEBACK.search(text)) is not None:
            return [Violation("REQ-10-14", "$", f"a traceback: {match.group(0)!r}")]
    return []


# -- resources: SPEC-06 ------------------------------------------------------------------------
_URI = re.compile(r"^odoo://[a-z][a-z_]*/\S+$")


def _resource_uris(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-06-01: every resource and template the server lists is ``odoo://{category}/{path}``."""
    if answer.kind != "listing" or answer.request != "resources/list" or answer.body is None:
        return None
    entries = getattr(answer.body, "resources", None) or []
    templates = getattr(answer.body, "resource_templates", None) or []
    found = []
    for entry in entries:
        if not _URI.match(str(entry.uri)):
            found.append(Violation("REQ-06-01", "resources", f"{str(entry.uri)!r}"))
    for template in templates:
        if not _URI.match(str(template.uri_template)):
            found.append(Violation("REQ-06-01", "resourceTemplates", f"{template.uri_template!r}"))
    return found


def _listing_limits(answer: Answer, ctx: Context) -> list[Violation] | None:
    """REQ-06-12: a record listing gives at most 100 records, 20 when no limit is given, and
    never more than the limit asked."""
    if answer.kind != "resource" or answer.error is not None:
        return None
    parsed = resource_model(answer.name)
    if parsed is None or parsed[1] is not None:
        return None
    sets = list(record_sets(answer))
    if not sets:
        return None
    count = len(sets[0].records)
    limit = parsed[2].get("limit", [""])[0]
    cap = 20 if not limit else min(100, int(limit)) if limit.isdigit() and int(limit) > 0 else 100
    if count > cap:
        return [Violation("REQ-06-12", "records", f"{count} records, at most {cap} allowed")]
    return []


RULES: tuple[Rule, ...] = (
    Rule("many2one values are {id, name}", ("REQ-04-05", "REQ-06-10"),
         "SPEC-04 §3.1 REQ-04-05: 'Many2one fields MUST be returned as objects'", _many2one),
    Rule("empty values and x2many ids as the normalization table says",
         ("REQ-04-35", "REQ-06-10"), "SPEC-04 §4 REQ-04-35's table", _empty_values),
    Rule("datetimes in ISO 8601 with Z", ("REQ-04-37", "REQ-06-10"),
         "SPEC-04 §4 REQ-04-37: 'The server MUST append Z'", _datetimes),
    Rule("HTML stripped to text", ("REQ-04-35", "REQ-06-10"),
         "SPEC-04 §4 REQ-04-35: 'HTML content ... Stripped to plain text (default: strip)'", _html),
    Rule("binary fields only when named", ("REQ-04-36", "REQ-06-10"),
         "SPEC-04 §4 REQ-04-36; SPEC-06 §4.2 REQ-06-10: 'Binary fields MUST be excluded'", _binary),
    Rule("blocked fields never shown", ("REQ-11-14", "REQ-06-22", "REQ-04-24"),
         "SPEC-11 REQ-11-13/14; SPEC-06 REQ-06-22; SPEC-04 REQ-04-24", _blocked_fields),
    Rule("blocked models never reachable",
         ("REQ-04-34", "REQ-06-22", "REQ-11-06", "REQ-11-07", "REQ-11-08"),
         "SPEC-11 REQ-11-06/07/08; SPEC-04 REQ-04-34; SPEC-06 REQ-06-22", _blocked_models),
    Rule("search_read envelope, has_more and limits",
         ("REQ-04-01", "REQ-04-02", "REQ-04-03", "REQ-04-04"),
         "SPEC-04 §3.1 REQ-04-02/03/04", _search_read),
    Rule("read reports missing ids", ("REQ-04-07",), "SPEC-04 §3.2 REQ-04-07", _read),
    Rule("create answers {id, model, message}", ("REQ-04-10",), "SPEC-04 §3.3 REQ-04-10",
         _create),
    Rule("write answers {success, model, ids, message}", ("REQ-04-15",),
         "SPEC-04 §3.4 REQ-04-15", _ids_answer("odoo_core_write", "REQ-04-15", "ids")),
    Rule("unlink answers {success, model, deleted_ids, message}", ("REQ-04-19",),
         "SPEC-04 §3.5 REQ-04-19",
         _ids_answer("odoo_core_unlink", "REQ-04-19", "deleted_ids")),
    Rule("count answers {model, domain, count}", ("REQ-04-21",), "SPEC-04 §3.6 REQ-04-21",
         _count),
    Rule("name_get answers {model, names}", ("REQ-04-29",), "SPEC-04 §3.9 REQ-04-29",
         _name_get),
    Rule("default_get answers {model, defaults}", ("REQ-04-31",), "SPEC-04 §3.10 REQ-04-31",
         _default_get),
    Rule("list_models entries and real field counts", ("REQ-04-32", "REQ-04-33"),
         "SPEC-04 §3.11 REQ-04-32/33", _list_models),
    Rule("execute says its result_type", ("REQ-04-27",), "SPEC-04 §3.8 REQ-04-27", _execute),
    Rule("every error is the SPEC-10 object", ("REQ-10-01", "REQ-10-02", "REQ-10-03",
         "REQ-10-04"), "SPEC-10 §3 REQ-10-02/03/04; §2 REQ-10-01", _error_shape),
    Rule("retry follows the category", ("REQ-10-15",), "SPEC-10 §8 REQ-10-15", _retry),
    Rule("errors are isError results", ("REQ-10-17",), "SPEC-10 §9 REQ-10-17", _is_error_flag),
    Rule("no traceback in any answer", ("REQ-10-14",), "SPEC-10 §7 REQ-10-14", _traceback),
    Rule("resource URIs are odoo://{category}/{path}", ("REQ-06-01",), "SPEC-06 REQ-06-01",
         _resource_uris),
    Rule("record listings keep their limits", ("REQ-06-12",), "SPEC-06 §4.3 REQ-06-12",
         _listing_limits),
)  # fmt: skip
