"""SPEC-07: the registry: live field metadata cached per model and Odoo user, the installed
modules, model existence, and the static registry file merged in.

Fields come from one ``fields_get`` per model per user, refreshed only on request or when Odoo
disagrees with the cache (REQ-07-12), never on a timer. A lasting refusal (no such model, or
one the user may not describe) is cached the same way, per user, with the same refreshes: a
call naming hundreds of fields on an unknown model costs one ``fields_get``, once (issue 37).
The start-up introspection (``build_at_startup``) fills the same cache in the background.
Listing readable models (REQ-04-34) lives in ``odoo_mcp.model_listing``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from odoo_mcp.connection import OdooCalls, OdooError, OdooRpcError
from odoo_mcp.connection.errors import OdooUnsendableCall
from odoo_mcp.errors import ErrorCategory, ErrorCode
from odoo_mcp.errors.classify import classify_rpc_error
from odoo_mcp.registry.fields import REGISTRY_ATTRIBUTES, FieldInfo
from odoo_mcp.registry.introspection import (
    DEFAULT_INTROSPECT_MODELS,
    DEFAULT_LIMITS,
    InstalledModule,
    IntrospectionLimits,
    IntrospectionReport,
    introspect,
    read_installed_modules,
)
from odoo_mcp.registry.key_fields import BlockedFieldCheck, key_fields
from odoo_mcp.registry.merge import merge_fields

if TYPE_CHECKING:  # loaded with a static registry file only (issue 41: cold start)
    from odoo_mcp.registry.static import StaticModel, StaticRegistry

__all__ = ["FieldSource", "ModelRegistry", "StartupSettings"]

logger = logging.getLogger(__name__)


class FieldSource(Protocol):
    """What domain/order validation needs: the fields of a model (``ModelRegistry`` or a stub)."""

    async def get_fields(self, model: str) -> Mapping[str, FieldInfo]: ...


class StartupSettings(Protocol):
    """The settings ``build_at_startup`` reads (``OdooMcpConfig`` has them)."""

    @property
    def introspect_on_startup(self) -> bool: ...

    @property
    def introspect_models(self) -> Sequence[str]: ...


class ModelRegistry:
    """REQ-07-12: ``fields_get`` cached per model for one connection (one registry each).

    Concurrent first requests for a model share one ``fields_get`` round trip. The cache is
    dropped per model by ``invalidate`` (e.g. when Odoo answers "Invalid field" for a field the
    cache knows) or entirely by ``clear`` (reconnect to another database).

    Entries are kept per Odoo user (the connection's ``uid``): over HTTP one connection object
    routes each call to its caller's Odoo user (REQ-HTTP-15), and ``fields_get`` answers
    depend on the user's groups. The start-up introspection runs as the server's own user.
    Refusals that last (``_lasting``) are kept beside the fields, per user too, and dropped by
    the same ``invalidate`` and ``clear``.
    """

    def __init__(
        self,
        connection: OdooCalls,
        *,
        static: StaticRegistry | None = None,
        limits: IntrospectionLimits = DEFAULT_LIMITS,
    ) -> None:
        self._connection = connection
        self.static = static
        self.limits = limits
        self._fields: dict[tuple[object, str], dict[str, FieldInfo]] = {}
        self._locks: dict[tuple[object, str], asyncio.Lock] = {}
        self._exists: dict[tuple[object, str], bool] = {}
        #: lasting ``fields_get`` refusals, per user and model (the negative cache)
        self._refused: dict[tuple[object, str], OdooError] = {}
        self._modules: dict[object, tuple[InstalledModule, ...]] = {}

    def _uid(self) -> object:
        return getattr(self._connection, "uid", None)

    def _key(self, model: str) -> tuple[object, str]:
        return self._uid(), model

    async def get_fields(self, model: str) -> Mapping[str, FieldInfo]:
        """REQ-07-10: the model's fields; at most one ``fields_get`` per model until refreshed.

        REQ-07-12: a lasting refusal (no such model, not for this user) is raised again from
        memory until the same refreshes; other failures (Odoo unreachable) are not kept.
        REQ-07-14/15: merged with the static registry file's fields when it has the model.
        """
        key = self._key(model)
        cached = self._fields.get(key)
        if cached is not None:
            return cached
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            cached = self._fields.get(key)
            if cached is None:
                refused = self._refused.get(key)
                if refused is not None:
                    raise refused.with_traceback(None)
                try:
                    raw = await self._connection.fields_get(model, REGISTRY_ATTRIBUTES)
                except OdooError as exc:
                    lasting = _lasting(exc, model)
                    # a refusal to a user the key cannot name (uid unknown while the
                    # connection logs in again) may not be another user's: not kept
                    if lasting == "missing" or (lasting == "exists" and key[0] is not None):
                        self._refused[key] = exc
                        self._exists[key] = lasting == "exists"
                    raise
                cached = {
                    name: FieldInfo.from_odoo(name, spec)
                    for name, spec in raw.items()
                    if isinstance(spec, Mapping)
                }
                known = self.static_model(model)
                if known is not None and known.fields:
                    cached = merge_fields(model, known.field_infos(), cached)
                self._fields[key] = cached
                self._exists[key] = True
        return cached

    async def get_field(self, model: str, name: str) -> FieldInfo | None:
        """REQ-07-16: one field of a model, or None when the model has no such field."""
        return (await self.get_fields(model)).get(name)

    def cached(self, model: str) -> Mapping[str, FieldInfo] | None:
        """REQ-07-12: the cached fields without any round trip (None when not loaded)."""
        return self._fields.get(self._key(model))

    def static_model(self, model: str) -> StaticModel | None:
        """REQ-07-14: the static registry file's entry for a model, if any."""
        return self.static.models.get(model) if self.static is not None else None

    def refused(self, model: str) -> OdooError | None:
        """REQ-07-12: the cached lasting refusal of the model's ``fields_get`` for this user
        (None when there is none, or it was never asked)."""
        return self._refused.get(self._key(model))

    def known_missing(self, model: str) -> bool:
        """REQ-07-13: whether the registry already knows, for this user, that Odoo has no such
        model (from a ``fields_get`` or a ``model_exists``), without any round trip."""
        return self._exists.get(self._key(model)) is False

    def invalidate(self, model: str) -> None:
        """REQ-07-12: forget one model, its refusals and existence included, for every user;
        the next use fetches ``fields_get`` again (a model installed since is found)."""
        for table in (self._fields, self._refused, self._exists):
            for key in [key for key in table if key[1] == model]:
                del table[key]

    def forget_missing(self, model: str) -> None:
        """REQ-07-12: Odoo disagrees with the cache: it shows this user the model (e.g. in the
        model listing) that the registry holds as missing: forget that, for this user."""
        key = self._key(model)
        if self._exists.get(key) is False:
            del self._exists[key]
            self._refused.pop(key, None)

    def clear(self) -> None:
        """REQ-07-12: forget everything (explicit refresh, or a connection to another db)."""
        self._fields.clear()
        self._refused.clear()
        self._exists.clear()
        self._modules.clear()

    async def refresh_if_unknown(self, model: str, name: str) -> FieldInfo | None:
        """REQ-07-12: a field missing from the cache may be new in Odoo: refetch once."""
        found = await self.get_field(model, name)
        if found is None:
            self.invalidate(model)
            found = await self.get_field(model, name)
        return found

    async def key_fields(
        self, model: str, is_field_blocked: BlockedFieldCheck | None = None
    ) -> list[str]:
        """REQ-06-10: key fields of a record, chosen as decision 10 says."""
        return key_fields(model, await self.get_fields(model), is_field_blocked)

    async def model_exists(self, model: str) -> bool:
        """REQ-07-13: whether Odoo has the model: the registry first, else one cheap call.

        The call is ``search(model, [], limit=1)``: SPEC-07's ``search_count(..., limit=0)``
        counts the whole table in Odoo (0 means no limit there) and ``search_count`` takes no
        ``limit`` before Odoo 16. Both answers are cached; an access refusal means the model
        exists. Anything else (Odoo unreachable) is raised and not cached.
        """
        key = self._key(model)
        known = self._exists.get(key)
        if known is not None:
            return known
        try:
            await self._connection.search(model, [], limit=1)
            exists = True
        except OdooUnsendableCall:
            exists = False  # not even a well-formed model name
        except OdooRpcError as exc:
            found = classify_rpc_error(exc, model=model, method="search")
            if found.code == ErrorCode.MODEL_NOT_FOUND:
                exists = False
            elif found.category == ErrorCategory.ACCESS:  # Odoo refuses only what it has
                exists = True
            else:
                raise
        self._exists[key] = exists
        return exists

    def installed_modules(self) -> tuple[InstalledModule, ...] | None:
        """REQ-07-09: the installed modules read at start-up (None until they are read)."""
        return self._modules.get(self._uid())

    async def get_installed_modules(self) -> tuple[InstalledModule, ...]:
        """REQ-07-09: the installed modules; read once per user, then from memory."""
        uid = self._uid()
        found = self._modules.get(uid)
        if found is None:
            found = await read_installed_modules(self._connection)
            self._modules[uid] = found
        return found

    def _keep_modules(self, modules: tuple[InstalledModule, ...]) -> None:
        self._modules[self._uid()] = modules

    async def build_at_startup(
        self, settings: StartupSettings, reachable: Callable[[str], bool] | None = None
    ) -> IntrospectionReport | None:
        """REQ-07-09/10/11: after connecting, introspect the configured models (REQ-07-07's
        list by default) and read the installed modules, within ``limits``; never raises.
        REQ-11-05/06: only the models ``reachable`` lets through (the safety policy's model
        lists): a model blocked or left out of an allowlist is not touched, even for its
        metadata.

        Run as a background task: tools asking for a model meanwhile share its ``fields_get``.
        """
        if not settings.introspect_on_startup:
            logger.debug("registry: start-up introspection is off")
            return None
        models = tuple(settings.introspect_models) or DEFAULT_INTROSPECT_MODELS
        if reachable is not None:
            models = tuple(model for model in models if reachable(model))
        try:
            return await introspect(
                self._connection, models, self.get_fields, self._keep_modules, self.limits
            )
        except Exception:  # a bug: it runs beside the server, which must keep serving
            logger.warning("registry: start-up introspection failed", exc_info=True)
            return None


def _lasting(exc: OdooError, model: str) -> str | None:
    """REQ-07-12/13: whether a ``fields_get`` refusal lasts until the metadata is refreshed:
    ``"missing"`` (no such model, or no name Odoo can have), ``"exists"`` (refused to this
    user: Odoo refuses only what it has), None for anything else (Odoo unreachable, a server
    error, a revoked key), which is not cached."""
    if isinstance(exc, OdooUnsendableCall):
        return "missing" if exc.code == ErrorCode.MODEL_NOT_FOUND else None
    if not isinstance(exc, OdooRpcError) or exc.is_access_denied:
        return None
    found = classify_rpc_error(exc, model=model, method="fields_get")
    if found.code == ErrorCode.MODEL_NOT_FOUND:
        return "missing"
    return "exists" if found.category == ErrorCategory.ACCESS else None
