"""SPEC-11 §1-5: one policy object the tools consult before anything reaches Odoo.

Order of the checks in a tool: mode (``check_operation`` / ``check_execute``), model lists,
field lists (requested fields, values, order; domains through ``is_field_blocked``), then the
rate limiter and the Odoo call, then ``strip_record`` / ``strip_fields_get`` on the answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from odoo_mcp.errors.categories import ErrorCode
from odoo_mcp.field_refs import FieldRef
from odoo_mcp.safety.annotations import ToolHints
from odoo_mcp.safety.blocklists import (
    DEFAULT_MODEL_BLOCKLIST,
    EXTRA_DEFAULT_MODEL_BLOCKLIST,
    NAME_SEARCH_FIELDS,
    WRITE_PROTECTED_MODELS,
    FieldFilter,
    MethodFilter,
    ModelFilter,
    RelationLookup,
    SafetyError,
)
from odoo_mcp.safety.modes import (
    Mode,
    Operation,
    enforce_mode,
    is_tool_visible,
    operation_of_method,
)


class FieldSource(Protocol):
    """The fields of a model (the registry; a protocol here: the registry's static file
    loader imports the configuration, which builds this policy)."""

    async def get_fields(self, model: str) -> Mapping[str, Any]: ...

    def cached(self, model: str) -> Mapping[str, Any] | None: ...


__all__ = ["SafetyPolicy"]


def _cached(fields: FieldSource, model: str) -> Mapping[str, Any] | None:
    """The source's cached fields of ``model`` without a round trip (None: it keeps none)."""
    cached = getattr(fields, "cached", None)
    return cached(model) if cached is not None else None


_READS = (Operation.READ, Operation.SEARCH)
_ORDER_TERM = re.compile(
    r"^\s*\"?([\w.]+)\"?(?:\s+(?:asc|desc))?(?:\s+nulls\s+(?:first|last))?\s*$", re.I
)


class SafetyPolicy:
    """REQ-11-03: mode, model, field and method checks, each raising ``SafetyError``."""

    def __init__(
        self,
        *,
        mode: Mode = Mode.READONLY,
        model_allowlist: Iterable[str] = (),
        model_blocklist: Iterable[str] = (),
        write_allowlist: Iterable[str] = (),
        field_blocklist: Iterable[str] = (),
        method_blocklist: Iterable[str] = (),
    ) -> None:
        self.mode = mode
        self.models = ModelFilter(model_allowlist, model_blocklist)
        self.fields = FieldFilter(field_blocklist)
        self.methods = MethodFilter(method_blocklist)
        self.write_allowlist = frozenset(m.strip() for m in write_allowlist if m.strip())

    # -- tools -------------------------------------------------------------------------------

    def is_tool_visible(self, tool: str, hints: ToolHints) -> bool:
        """REQ-11-05: a tool hidden by the mode is not listed."""
        return is_tool_visible(tool, self.mode, hints)

    # -- models and operations ---------------------------------------------------------------

    def check_operation(self, operation: Operation, model: str) -> None:
        """REQ-11-03: mode, then model lists, for one operation on one model."""
        enforce_mode(self.mode, operation, model, self.write_allowlist)
        if operation in _READS:
            self.models.check_read(model)
        else:
            self.models.check_write(model)

    def check_execute(self, model: str, method: str) -> None:
        """REQ-04-26: private and blocked methods are refused, then the mode (decision 1)."""
        self.methods.check(method)
        self.check_operation(operation_of_method(method), model)

    def is_method_allowed(self, method: str) -> bool:
        """REQ-06-22: resources list only methods odoo_core_execute would accept."""
        try:
            self.methods.check(method)
        except SafetyError:
            return False
        return True

    def is_model_readable(self, model: str) -> bool:
        """REQ-04-34: blocked models are left out of odoo_core_list_models."""
        return self.models.is_readable(model)

    # -- fields ------------------------------------------------------------------------------

    def is_field_blocked(self, model: str, field: str) -> bool:
        """REQ-11-12: the callable the domain validator takes (decision 11)."""
        return self.fields.is_field_blocked(model, field)

    def is_filter_blocked(self, model: str, field: str) -> bool:
        """REQ-11-14: a field a filter may not name (the domain validator's callable): a blocked
        field, or ``display_name`` where Odoo's name search would match a blocked field."""
        if self.is_field_blocked(model, field):
            return True
        return field == "display_name" and bool(self.fields.name_search_blocked(model))

    def check_name_search(self, model: str) -> None:
        """REQ-11-14: a name search that would match on a blocked field is refused: its answer
        would tell which records hold a value the caller may not read."""
        blocked = self.fields.name_search_blocked(model)
        if blocked:
            raise SafetyError(
                "FIELD_BLOCKED",
                f"A name search on {model} also matches {', '.join(blocked)}, which the server's "
                "safety settings block",
                f"Search with odoo_core_search_read on {model} with a condition on 'name', e.g. "
                "[['name', 'ilike', 'text']].",
                {"model": model, "fields": blocked},
            )

    def is_path_blocked(
        self, model: str, path: str, relation_of: RelationLookup | None = None
    ) -> bool:
        """REQ-11-14: a dotted path through a blocked field or model is blocked (decision 11)."""
        return self.fields.is_path_blocked(model, path, relation_of, self.models.is_readable)

    def use_metadata(self, registry: FieldSource) -> None:
        """REQ-11-14: derived fields are found in the registry's cached metadata (``cached``)."""
        self.fields.use_metadata(registry.cached, lambda m: not self.models.is_readable(m))

    def blocked_names(self) -> frozenset[str]:
        """REQ-11-14: every field name the answer scrub drops: the blocklist and every field
        found derived from it so far."""
        return self.fields.names

    async def check_references(
        self, model: str, refs: Iterable[FieldRef], fields: FieldSource, *, verb: str = "use"
    ) -> None:
        """REQ-11-14 (issue 26): each reference is walked along its path with the registry:
        a blocked field (or one derived from it) on any segment, a path through a blocked
        model, or a condition that makes Odoo run a name search matching a blocked field
        (``display_name``, or a string value on a relational field) refuses the call."""
        refs = list(refs)
        for ref in refs:  # a name blocked anywhere costs no round trip
            for name in ref.path:
                if name in self.fields.blocklist or name in self.fields.static_derived:
                    self._refuse_reference(model, ref, name, None, verb)
        # issue 41: ``model``'s fields as ``get_fields`` answered them, with no ``await``
        # since (None: ask again). A one-name reference (a field list's) then reads them
        # and ``blocked`` without awaiting ``get_fields``: that answer would be the same
        # object (a cache hit, checked against ``cached``), and a wide field list no longer
        # costs two metadata lookups per name.
        known: Mapping[str, Any] | None = None
        blocked = self.fields.blocked_check(model)
        for ref in refs:
            current: str | None = model
            info: Any = None
            if known is not None and len(ref.path) == 1:
                name = ref.path[0]
                info = known.get(name)
                if blocked(name):
                    self._refuse_reference(model, ref, name, current, verb)
            else:
                known = None
            for depth, name in enumerate(ref.path if known is None else ()):
                info = None
                if current is None:  # unresolved: any name found derived anywhere is refused
                    if name in self.fields.names:
                        self._refuse_reference(model, ref, name, current, verb)
                else:
                    try:
                        answer = await fields.get_fields(current)
                        info = answer.get(name)
                    except Exception as exc:  # Odoo answers for the unknown model itself
                        if getattr(exc, "code", None) == ErrorCode.TOO_MANY_MODELS:
                            raise  # issue 37: the call's lookup cap, never a partial check
                        info = None
                    else:
                        if len(ref.path) == 1 and _cached(fields, current) is answer:
                            known, blocked = answer, self.fields.blocked_check(model)
                    # after the metadata: fields derived from a blocked one are known
                    if self.fields.is_field_blocked(current, name):
                        self._refuse_reference(model, ref, name, current, verb)
                relation = getattr(info, "relation", None)
                if depth < len(ref.path) - 1:
                    if relation and not self.models.is_readable(relation):
                        self._refuse_reference(model, ref, name, current, verb)
                    current = relation if relation else None
            if not ref.searches_names or not ref.path:
                continue
            last = ref.path[-1]
            if last == "display_name" and current is not None:
                self.check_name_search(current)
            elif info is not None and getattr(info, "relation", None):
                self.check_name_search(str(info.relation))
            elif info is None and current is None:
                # unresolved path: any model whose name search would match a blocked field
                for searched in sorted(NAME_SEARCH_FIELDS):
                    self.check_name_search(searched)

    def _refuse_reference(
        self, model: str, ref: FieldRef, name: str, owner: str | None, verb: str
    ) -> None:
        where = f" in {ref.where}" if ref.where else ""
        on = f" on {owner}" if owner and owner != model else ""
        raise SafetyError(
            "FIELD_BLOCKED",
            f"Field '{ref.dotted}'{where} cannot be used: '{name}'{on} is blocked by the "
            "server's safety settings",
            "Leave the blocked field out; odoo_core_fields_get lists the usable fields.",
            {"model": model, "fields": [ref.dotted]},
        )

    def check_read_fields(self, model: str, fields: Iterable[str]) -> None:
        """REQ-04-02: requested fields are validated against the field blocklist."""
        self._refuse_fields(model, self.fields.blocked_among(model, fields), "read")

    def check_values(self, model: str, values: Mapping[str, object]) -> None:
        """REQ-11-14: a blocked field in create/write values is refused with a clear error."""
        self._refuse_fields(model, sorted(self._blocked_in_values(model, values)), "write")

    def check_order(self, model: str, order: str | None) -> None:
        """REQ-11-14: an order naming a blocked field is refused (decision 11)."""
        if not order:
            return
        blocked: list[str] = []
        for term in order.split(","):
            match = _ORDER_TERM.match(term)
            name = match.group(1) if match else term.strip()
            if self.is_field_blocked(model, name):
                blocked.append(name)
        self._refuse_fields(model, blocked, "sort by")

    def strip_fields_get(self, model: str, fields: Mapping[str, object]) -> dict[str, object]:
        """REQ-11-14: blocked fields are dropped from fields_get output (REQ-04-24)."""
        blocked = set(self.fields.blocked_among(model, fields))
        return {k: v for k, v in fields.items() if k not in blocked}

    def strip_record(self, model: str, record: Mapping[str, object]) -> dict[str, object]:
        """REQ-11-14: blocked fields are dropped from search_read/read results."""
        return {k: v for k, v in record.items() if not self.is_field_blocked(model, k)}

    def strip_records(
        self, model: str, records: Sequence[dict[str, Any]]
    ) -> Sequence[dict[str, Any]]:
        """REQ-11-14: blocked fields are dropped from every record of an answer; each field
        name is checked once per answer, and an answer without one is returned as it is."""
        names = set().union(*records)
        blocked = set(self.fields.blocked_among(model, names))
        if not blocked:
            return records
        return [{k: v for k, v in row.items() if k not in blocked} for row in records]

    def _blocked_in_values(self, model: str, values: Mapping[str, object]) -> set[str]:
        found = {k for k in values if self.is_field_blocked(model, k)}
        for value in values.values():
            # x2many commands carry nested value dicts: [(0, 0, {...}), (1, id, {...})]
            if isinstance(value, list | tuple):
                for command in value:
                    if isinstance(command, list | tuple) and len(command) == 3:
                        nested = command[2]
                        if isinstance(nested, Mapping):
                            found |= self._blocked_in_values("", nested)
        return found

    def _refuse_fields(self, model: str, blocked: list[str], verb: str) -> None:
        if blocked:
            names = ", ".join(f"'{b}'" for b in dict.fromkeys(blocked))
            raise SafetyError(
                "FIELD_BLOCKED",
                f"Field(s) {names} of '{model}' are blocked: this server does not {verb} them",
                "Leave the blocked field(s) out; odoo_core_fields_get lists the usable fields.",
                {"model": model, "fields": list(dict.fromkeys(blocked))},
            )

    # -- description -------------------------------------------------------------------------

    def describe(self) -> dict[str, object]:
        """REQ-11-08: the effective lists, defaults included (odoo://config/safety)."""
        return {
            "mode": self.mode.value,
            "write_allowlist": sorted(self.write_allowlist),
            "model_allowlist": sorted(self.models.allowlist),
            "model_blocklist": sorted(self.models.user_blocklist),
            "default_model_blocklist": sorted(DEFAULT_MODEL_BLOCKLIST),
            "extra_default_model_blocklist": sorted(EXTRA_DEFAULT_MODEL_BLOCKLIST),
            "write_protected_models": sorted(WRITE_PROTECTED_MODELS),
            "field_blocklist": sorted(self.fields.blocklist),
            "method_blocklist": sorted(self.methods.blocklist),
            "private_methods_blocked": True,
        }
