"""SPEC-11 §3-5: model, field and method lists, and the typed refusal they raise.

Everything here is pure: no Odoo call, no I/O. ``SafetyPolicy`` (``safety.policy``) composes
these lists with the operating mode so a tool can refuse a call before anything reaches Odoo.

Blocked field names are bare names matched on any model (REQ-11-13); ``FieldFilter`` still takes
the model in its signature, so the domain validator's ``is_field_blocked(model, field)`` callable
stays right if per-model entries are ever added.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Literal

__all__ = [
    "COMPUTED_FROM_MODEL",
    "DEFAULT_FIELD_BLOCKLIST",
    "DEFAULT_METHOD_BLOCKLIST",
    "DEFAULT_MODEL_BLOCKLIST",
    "DERIVED_FIELDS",
    "EXTRA_DEFAULT_MODEL_BLOCKLIST",
    "NAME_SEARCH_FIELDS",
    "WRITE_PROTECTED_MODELS",
    "FieldFilter",
    "MethodFilter",
    "ModelFilter",
    "RelationLookup",
    "SafetyCode",
    "SafetyError",
]

SafetyCode = Literal[
    "MODE_VIOLATION", "MODEL_BLOCKED", "FIELD_BLOCKED", "METHOD_BLOCKED", "RATE_LIMITED"
]

#: REQ-11-08: the spec's nine models, the normative minimum.
DEFAULT_MODEL_BLOCKLIST: Final = frozenset(
    {
        "ir.config_parameter",
        "ir.cron",
        "base.automation",
        "ir.rule",
        "ir.model.access",
        "ir.access",  # Odoo 20: replaces ir.model.access and ir.rule (versions.ODOO20)
        "res.users",
        "ir.mail_server",
        "fetchmail.server",
        "payment.provider",
    }
)
#: Decision 12: API key records are blocked too, beyond the spec's nine.
EXTRA_DEFAULT_MODEL_BLOCKLIST: Final = frozenset({"res.users.apikeys"})
#: REQ-11-09 / decision 2: readable, but never created, written or deleted, in any mode.
WRITE_PROTECTED_MODELS: Final = frozenset({"res.users"})
#: REQ-11-13: nine bare field names, blocked on every model.
DEFAULT_FIELD_BLOCKLIST: Final = frozenset(
    {
        "password",
        "password_crypt",
        "oauth_access_token",
        "oauth_provider_id",
        "api_key",
        "api_key_ids",
        "totp_secret",
        "totp_enabled",
        "signature",
    }
)
#: REQ-11-16: nine method names (context manipulation, cache and module lifecycle).
DEFAULT_METHOD_BLOCKLIST: Final = frozenset(
    {
        "sudo",
        "with_user",
        "with_env",
        "with_context",
        "invalidate_cache",
        "clear_caches",
        "init",
        "uninstall",
        "module_uninstall",
    }
)

#: REQ-11-14 (issue 26): fields Odoo computes from another one, blocked with their source when
#: the registry has not told their ``depends`` yet (Odoo 19's res.partner: ``email_normalized``
#: and ``email_formatted`` are the address in other forms).
DERIVED_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "email": ("email_normalized", "email_formatted"),
}
#: REQ-11-14 (issue 28): fields Odoo computes from another model's records without declaring
#: ``depends`` (fields_get shows none), so no metadata can tell: blocked wherever they appear
#: when their source model is blocked. Odoo 19's res.partner (crm, sale, account): a count
#: or sum of a blocked model's rows would tell what the blocklist hides (the non-interference
#: run found ``opportunity_count`` telling crm.lead's).
COMPUTED_FROM_MODEL: Final[Mapping[str, tuple[str, ...]]] = {
    "crm.lead": ("opportunity_count",),
    "sale.order": ("sale_order_count", "credit_to_invoice"),
    "account.move": (
        "account_move_count", "supplier_invoice_count", "total_invoiced", "credit", "debit",
        "days_sales_outstanding",
    ),
    "account.move.line": ("credit", "debit", "days_sales_outstanding"),
}  # fmt: skip
#: fields never blocked through ``depends``: the record's name, which Odoo renders from other
#: fields only under context options (``show_email``: refused by name, field_refs), and its id
NEVER_DERIVED: Final = frozenset({"id", "display_name"})

#: ``(model, field) -> related model or None``: lets a dotted path follow relations.
RelationLookup = Callable[[str, str], str | None]


class SafetyError(Exception):
    """A call refused by the safety layer, before any Odoo call (SPEC-11, SPEC-10 shape).

    ``errors/`` maps it to an error response: ``code``, ``category``, ``message``,
    ``suggestion``, ``retry`` and ``details`` are the fields of REQ-10-02.
    """

    category: str = "access"
    retry: bool = False

    def __init__(
        self,
        code: SafetyCode,
        message: str,
        suggestion: str,
        details: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.code: SafetyCode = code
        self.message = message
        self.suggestion = suggestion
        self.details: dict[str, object] = dict(details or {})


def _names(values: Iterable[str]) -> frozenset[str]:
    return frozenset(v.strip() for v in values if v.strip())


class ModelFilter:
    """REQ-11-06..09: which models a call may read, and which it may change."""

    def __init__(self, allowlist: Iterable[str] = (), blocklist: Iterable[str] = ()) -> None:
        self.allowlist = _names(allowlist)
        self.user_blocklist = _names(blocklist)
        defaults = DEFAULT_MODEL_BLOCKLIST | EXTRA_DEFAULT_MODEL_BLOCKLIST
        #: decision 2: res.users is in the default list for writes only.
        self.read_blocklist = (defaults - WRITE_PROTECTED_MODELS) | self.user_blocklist
        self.write_blocklist = defaults | self.user_blocklist

    def is_readable(self, model: str) -> bool:
        """REQ-11-06: a non-empty allowlist admits only its models; REQ-11-07/08 block on top."""
        if self.allowlist and model not in self.allowlist:
            return False
        return model not in self.read_blocklist

    def is_writable(self, model: str) -> bool:
        """REQ-11-09: res.users stays read-only whatever the configuration (decision 2)."""
        return self.is_readable(model) and model not in self.write_blocklist

    def check_read(self, model: str) -> None:
        """REQ-11-07: a blocked model is never reachable."""
        if not self.is_readable(model):
            raise SafetyError(
                "MODEL_BLOCKED",
                f"Model '{model}' is not accessible through this server",
                self._suggestion(),
                {"model": model},
            )

    def check_write(self, model: str) -> None:
        """REQ-11-09: writes to res.users are refused in every mode (decision 2)."""
        self.check_read(model)
        if model in self.write_blocklist:
            raise SafetyError(
                "MODEL_BLOCKED",
                f"Model '{model}' is read-only through this server: create, write and delete "
                "are refused in every mode",
                "Read the records instead, or ask a human to change them in Odoo.",
                {"model": model},
            )

    def _suggestion(self) -> str:
        if self.allowlist:
            return "Allowed models: " + ", ".join(sorted(self.allowlist - self.read_blocklist))
        return "Use odoo_core_list_models to see the models you can use."


#: Odoo's ``_rec_names_search``: the fields a name search matches, and so a condition on
#: ``display_name`` (Odoo 19's res.partner also matches email, ref, vat, company_registry).
NAME_SEARCH_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "res.partner": ("complete_name", "email", "ref", "vat", "company_registry"),
    "res.users": ("name", "login"),
    "product.product": ("name", "default_code", "barcode"),
    "product.template": ("name", "default_code", "barcode"),
}


class FieldFilter:
    """REQ-11-12/13: blocked field names, for reads, writes, domains and order; with the fields
    derived from them (REQ-11-14, issue 26): a field whose ``depends`` reach a blocked field, or
    whose comodel is a blocked model, is blocked too."""

    def __init__(self, blocklist: Iterable[str] = ()) -> None:
        self.user_blocklist = _names(blocklist)
        self.blocklist = DEFAULT_FIELD_BLOCKLIST | self.user_blocklist
        self.static_derived = frozenset(
            name for source in self.blocklist for name in DERIVED_FIELDS.get(source, ())
        )
        self.names = self.blocklist | self.static_derived
        #: model -> (the fields mapping it was computed from, the derived names)
        self._derived: dict[str, tuple[object, frozenset[str]]] = {}
        self._metadata: Callable[[str], Mapping[str, Any] | None] | None = None
        self._model_blocked: Callable[[str], bool] | None = None

    def use_metadata(
        self,
        metadata: Callable[[str], Mapping[str, Any] | None],
        model_blocked: Callable[[str], bool],
    ) -> None:
        """REQ-11-14: where cached field metadata (``depends``, ``relation``) comes from."""
        self._metadata = metadata
        self._model_blocked = model_blocked

    def counted_from_blocked_models(self) -> frozenset[str]:
        """REQ-11-14: the fields computed from a blocked model's rows (COMPUTED_FROM_MODEL)."""
        blocked = self._model_blocked
        if blocked is None:
            return frozenset()
        return frozenset(
            name
            for source, names in COMPUTED_FROM_MODEL.items()
            if blocked(source)
            for name in names
        )

    def derived(self, model: str) -> frozenset[str]:
        """REQ-11-14: the fields of ``model`` blocked through their ``depends`` or comodel,
        from the cached metadata (none known yet: the static table only)."""
        fields = self._metadata(model) if self._metadata is not None and model else None
        if not fields:
            return self.static_derived | self.counted_from_blocked_models()
        known = self._derived.get(model)
        if known is not None and known[0] is fields:
            return known[1]
        found = set(self.static_derived) | self.counted_from_blocked_models()
        changed = True
        while changed:  # a fixed point: a field derived from a derived field is derived too
            changed = False
            for name, info in fields.items():
                if name in found or name in NEVER_DERIVED or name in self.blocklist:
                    continue
                relation = getattr(info, "relation", None)
                reaches = any(
                    part in self.blocklist or part in found
                    for path in getattr(info, "depends", ()) or ()
                    for part in str(path).split(".")
                )
                to_blocked_model = bool(
                    relation and self._model_blocked is not None and self._model_blocked(relation)
                )
                if reaches or to_blocked_model:
                    found.add(name)
                    changed = True
        result = frozenset(found)
        self._derived[model] = (fields, result)
        self.names = self.names | result
        return result

    def is_field_blocked(self, model: str, field: str) -> bool:
        """REQ-11-12: a blocked field is neither read nor written; a dotted name is a path."""
        parts = field.split(".")
        if any(part in self.blocklist for part in parts):
            return True
        return parts[0] in self.derived(model) or any(p in self.static_derived for p in parts)

    def blocked_check(self, model: str) -> Callable[[str], bool]:
        """``is_field_blocked`` for many names of one model: ``derived(model)`` is looked up
        once, at the first name that needs it, instead of once per name (issue 41: 107
        fields cost 321 lookups of the model's metadata per call). For a loop with no
        ``await`` in it: the metadata cannot change while it runs, so each answer is the
        one ``is_field_blocked`` gives."""
        blocklist, static_derived = self.blocklist, self.static_derived
        derived: frozenset[str] | None = None

        def is_blocked(field: str) -> bool:
            nonlocal derived
            if "." not in field:  # the common case: one name, one part
                if field in blocklist:
                    return True
                if derived is None:
                    derived = self.derived(model)
                return field in derived or field in static_derived
            parts = field.split(".")
            if any(part in blocklist for part in parts):
                return True
            if derived is None:
                derived = self.derived(model)
            return parts[0] in derived or any(p in static_derived for p in parts)

        return is_blocked

    def blocked_among(self, model: str, fields: Iterable[str]) -> list[str]:
        """The names of ``fields`` that ``is_field_blocked(model, name)`` blocks, in order."""
        is_blocked = self.blocked_check(model)
        return [field for field in fields if is_blocked(field)]

    def name_search_blocked(self, model: str) -> list[str]:
        """REQ-11-14: the blocked fields a name search on ``model`` would match on."""
        return [
            name
            for name in NAME_SEARCH_FIELDS.get(model, ())
            if name in self.blocklist or name in self.derived(model)
        ]

    def is_path_blocked(
        self,
        model: str,
        path: str,
        relation_of: RelationLookup | None = None,
        model_readable: Callable[[str], bool] | None = None,
    ) -> bool:
        """REQ-11-14: a dotted path naming a blocked field anywhere is blocked (decision 11).

        With ``relation_of`` the walk follows each relation, and with ``model_readable`` a
        path that passes through a blocked model is blocked as well.
        """
        current: str | None = model
        for segment in path.split("."):
            if self.is_field_blocked(current or "", segment):
                return True
            if current is None or relation_of is None:
                current = None
                continue
            current = relation_of(current, segment)
            if current is not None and model_readable is not None and not model_readable(current):
                return True
        return False


class MethodFilter:
    """REQ-11-15/16: methods refused by ``odoo_core_execute``."""

    def __init__(self, blocklist: Iterable[str] = ()) -> None:
        self.user_blocklist = _names(blocklist)
        self.blocklist = DEFAULT_METHOD_BLOCKLIST | self.user_blocklist

    def is_method_blocked(self, method: str) -> bool:
        """REQ-11-16: default and configured methods, and (REQ-04-26) any private method."""
        return method.startswith("_") or method in self.blocklist

    def check(self, method: str) -> None:
        """REQ-11-15: a blocked method never reaches Odoo."""
        if method.startswith("_"):
            raise SafetyError(
                "METHOD_BLOCKED",
                f"Method '{method}' is private: names starting with '_' cannot be called",
                "Call a public method instead (e.g. action_confirm, button_validate).",
                {"method": method},
            )
        if method in self.blocklist:
            raise SafetyError(
                "METHOD_BLOCKED",
                f"Method '{method}' is blocked by the server's safety configuration",
                "Use the dedicated odoo_core_* tools, or another public method.",
                {"method": method},
            )
