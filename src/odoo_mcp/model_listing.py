"""SPEC-04 §3.11 / SPEC-07: the models the user can read, in a bounded number of round trips.

REQ-04-34 asks for the models the user may read "checked via ``check_access_rights``". Asked
model by model, that is one round trip per model (hundreds on a real database). Instead:

1. ``ir.model.search_read`` once: candidate models (name filter, transient flag);
2. in parallel: ``ir.model.access.search_read`` for those models (the ACL lines) and
   ``res.users.read`` of the user's groups (``all_group_ids`` from 19, ``groups_id`` up to
   18, where it already holds implied groups);
3. a model is readable when an active ACL line grants ``perm_read`` to no group or to one of
   the user's groups (on 20, ``ir.access``: a line with one of the user's groups whose
   ``operation`` holds ``r``; a line without a group restricts, it grants nothing):
   exactly the rule ``check_access_rights('read')`` applies, so the answer
   is the same, in two sequential rounds and three calls whatever the number of models. The
   same lines give the ``access`` summary of REQ-04-33 for free.

Odoo lets only "Access Rights" (``base.group_erp_manager``) read ``ir.model``,
``ir.model.fields`` and ``ir.model.access`` (base's ``ir.model.access.csv``, 16.0 to 19.0):
for every other user (the demo user, a salesman) step 1 is refused. The listing then comes
from web's ``ir.model.get_available_models()`` (every internal user may call it): the models
the user may read, with their description, checked by Odoo itself; two calls in all,
whatever the number of models. ``access`` is then ``read``, plus what
``check_access_rights`` (``has_access`` on 20, which has no ``check_access_rights``) grants
of write, create and unlink, for every model listed (three calls per model, five at a time:
a listing of more than ten models used to show ``read`` alone where Odoo grants more).
Its limits are Odoo's: from 18.0 it leaves out transient models (so ``transient=True`` adds
none), up to 17.0 it keeps them without telling them apart (listed, flagged non-transient).

When Odoo refuses step 2 only (a server that hides ``ir.model.access``)
``get_available_models`` answers too; the per-model fallback, ``check_access_rights('read',
raise_exception=False)`` at most five at a time (the REQ-07-11 throttle), is left for the
models it cannot answer for (transient ones from 18.0) or for a server without it. Blocked
models (SPEC-11) are dropped before any access check.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from odoo_mcp.connection import OdooCalls, OdooRpcError
from odoo_mcp.connection.versions import access_model, exists

__all__ = ["ModelListing", "ModelSummary", "list_readable_models"]

PERMISSIONS: Final = ("read", "write", "create", "unlink")
MAX_CONCURRENT_CHECKS: Final = 5
#: Odoo 20's ``ir.access.operation`` letters (versions.ODOO20["ir_access"])
OPERATION_LETTERS: Final = {"read": "r", "write": "w", "create": "c", "unlink": "d"}


class ModelSummary(BaseModel):
    """REQ-04-33: one model as ``odoo_core_list_models`` shows it."""

    model_config = ConfigDict(frozen=True, defer_build=True)  # built on first use (issue 41)

    model: str
    name: str
    transient: bool
    access: tuple[str, ...]


class ModelListing(list[ModelSummary]):
    """REQ-04-34: the listing, and whether Odoo let the user read ``ir.model``. A user it
    refuses may not read ``ir.model.fields`` either (the same group, module doc), so the
    field counts of REQ-04-33 are asked another way without a call bound to fail."""

    reads_ir_model: bool = True


def _id(value: Any) -> int | None:
    # many2one as [id, name] (read) or a bare id; False when empty
    if isinstance(value, list) and value:
        value = value[0]
    return value if isinstance(value, int) and not isinstance(value, bool) else None


async def _acl_access(
    connection: OdooCalls, model_ids: Sequence[int], uid: int
) -> dict[int, tuple[str, ...]]:
    """REQ-04-34: permissions per ir.model id from the ACL lines and the user's groups."""
    version = connection.odoo_version
    group_field = "all_group_ids" if version is None or version.major >= 19 else "groups_id"
    rules_model = access_model(version)
    unified = rules_model == "ir.access"
    acl_fields = ["model_id", "group_id"]
    acl_fields += ["operation"] if unified else [f"perm_{p}" for p in PERMISSIONS]
    lines, users = await asyncio.gather(
        connection.search_read(rules_model, [["model_id", "in", list(model_ids)]], acl_fields),
        connection.read("res.users", [uid], [group_field]),
    )
    groups = set(users[0].get(group_field) or []) if users else set()
    granted: dict[int, set[str]] = {}
    for line in lines:
        model_id, group_id = _id(line.get("model_id")), _id(line.get("group_id"))
        if model_id is None or (group_id is not None and group_id not in groups):
            continue
        if unified and group_id is None:
            continue  # 20: a line without a group is a restriction, it grants nothing
        perms = granted.setdefault(model_id, set())
        if unified:
            letters = line.get("operation") if isinstance(line.get("operation"), str) else ""
            perms.update(p for p in PERMISSIONS if OPERATION_LETTERS[p] in str(letters))
        else:
            perms.update(p for p in PERMISSIONS if line.get(f"perm_{p}"))
    return {
        model_id: tuple(p for p in PERMISSIONS if p in perms)
        for model_id, perms in granted.items()
        if "read" in perms
    }


async def _allowed(
    connection: OdooCalls, asked: Sequence[tuple[str, str]]
) -> list[tuple[str, str]]:
    """REQ-04-34: the (model, operation) pairs ``check_access_rights`` grants, five calls at
    a time (the REQ-07-11 throttle); a refusal of the check itself counts as not granted."""
    gate = asyncio.Semaphore(MAX_CONCURRENT_CHECKS)
    # 20 has no check_access_rights (versions.ODOO20["access_api"]): has_access on no record
    legacy = exists("check_access_rights", connection.odoo_version)

    async def allowed(model: str, operation: str) -> bool:
        async with gate:
            try:
                if legacy:
                    answer = await connection.execute_kw(
                        model, "check_access_rights", [operation], {"raise_exception": False}
                    )
                else:
                    answer = await connection.execute_kw(model, "has_access", [[], operation])
            except OdooRpcError:
                return False
        return answer is True

    answers = await asyncio.gather(*(allowed(model, op) for model, op in asked))
    return [pair for pair, ok in zip(asked, answers, strict=True) if ok]


async def _checked_access(connection: OdooCalls, models: Sequence[str]) -> set[str]:
    """REQ-04-34: the fallback: ``check_access_rights('read')`` (20: ``has_access``) per
    model."""
    return {model for model, _ in await _allowed(connection, [(m, "read") for m in models])}


async def _available_models(connection: OdooCalls) -> dict[str, str]:
    """REQ-04-34: web's ``ir.model.get_available_models``: model -> description, one call.

    Odoo checks ``check_access_rights('read')`` (``has_access`` from 18) of each model on
    its side, so the answer is the user's readable models without ``ir.model`` access.
    """
    answer = await connection.execute_kw("ir.model", "get_available_models")
    available: dict[str, str] = {}
    for entry in answer if isinstance(answer, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("model"), str):
            name = entry.get("display_name")
            available[entry["model"]] = name if isinstance(name, str) and name else entry["model"]
    return available


def _ilike(pattern: str) -> Callable[[str], bool]:
    """REQ-04-32: Odoo's ``ilike``: a case-insensitive substring, ``%`` and ``_`` wildcards."""
    wild = {"%": ".*", "_": "."}
    regex = re.compile("".join(wild.get(c, re.escape(c)) for c in pattern), re.I | re.S)
    return lambda value: regex.search(value) is not None


async def _listed_without_ir_model(
    connection: OdooCalls,
    name_filter: str | None,
    is_model_blocked: Callable[[str], bool] | None,
    models: Sequence[str] | None,
    detail_access: bool,
) -> list[ModelSummary]:
    """REQ-04-34: the listing of a user Odoo refuses ``ir.model``: one call (module doc).

    The name filter (on the technical name or the description), the ``models`` limit and
    the blocked models apply here as the ``ir.model`` domain would have applied them.
    """
    available = await _available_models(connection)
    wanted = set(models) if models is not None else None
    matches = _ilike(name_filter) if name_filter else None
    listed = [
        (model, name)
        for model, name in sorted(available.items())
        if (wanted is None or model in wanted)
        and not (matches and not (matches(model) or matches(name)))
        and not (is_model_blocked and is_model_blocked(model))
    ]
    granted: dict[str, tuple[str, ...]] = {}
    if detail_access:
        granted = await _granted_beyond_read(connection, [model for model, _ in listed])
    return [
        ModelSummary(model=model, name=name, transient=False, access=granted.get(model, ("read",)))
        for model, name in listed
    ]


async def _granted_beyond_read(
    connection: OdooCalls, models: Sequence[str]
) -> dict[str, tuple[str, ...]]:
    """REQ-04-33: the operations granted on a few readable models, by ``check_access_rights``
    (three per model, five at a time): what the ACL lines would say, for a user Odoo does
    not let read them."""
    asked = [(model, op) for model in models for op in PERMISSIONS[1:]]
    granted: dict[str, list[str]] = {model: ["read"] for model in models}
    for model, op in await _allowed(connection, asked):
        granted[model].append(op)
    return {model: tuple(ops) for model, ops in granted.items()}


async def _fallback_access(
    connection: OdooCalls, rows: Sequence[dict[str, Any]]
) -> dict[int, tuple[str, ...]]:
    """REQ-04-34: ``read`` per ir.model id when the ACL lines are hidden (module doc)."""
    try:
        available: set[str] | None = set(await _available_models(connection))
    except OdooRpcError:
        available = None  # no web addon, or refused: every model is asked
    version = connection.odoo_version
    keeps_wizards = version is not None and version.major < 18
    readable = {row["model"] for row in rows if available and row["model"] in available}
    unknown = [
        row["model"]
        for row in rows
        if available is None
        or (row.get("transient") and not keeps_wizards and row["model"] not in available)
    ]
    if unknown:
        readable |= await _checked_access(connection, unknown)
    return {row["id"]: ("read",) for row in rows if row["model"] in readable}


async def list_readable_models(
    connection: OdooCalls,
    *,
    name_filter: str | None = None,
    transient: bool = False,
    is_model_blocked: Callable[[str], bool] | None = None,
    uid: int | None = None,
    models: Sequence[str] | None = None,
    detail_access: bool = False,
) -> ModelListing:
    """REQ-04-34: readable, non-blocked models; three calls in two rounds for a user who may
    read ``ir.model``, two for any other internal user (see module doc); the listing says
    which (``ModelListing.reads_ir_model``).

    ``models`` limits the listing to those technical names (the registry's start-up targets).
    ``detail_access``: for a user who may not read the ACL lines, ask the operations beyond
    read of a short listing (REQ-04-33's ``access``; the tool wants it, readability does not).
    """
    domain: list[Any] = [] if transient else [["transient", "=", False]]
    if models is not None:
        domain.append(["model", "in", list(models)])
    if name_filter:
        domain += ["|", ["model", "ilike", name_filter], ["name", "ilike", name_filter]]
    try:
        rows = await connection.search_read(
            "ir.model", domain, ["model", "name", "transient"], order="model"
        )
    except OdooRpcError:  # not "Access Rights": Odoo lists the user's models itself
        listing = ModelListing(
            await _listed_without_ir_model(
                connection, name_filter, is_model_blocked, models, detail_access
            )
        )
        listing.reads_ir_model = False
        return listing
    rows = [row for row in rows if not (is_model_blocked and is_model_blocked(row["model"]))]
    if not rows:
        return ModelListing()
    uid = uid if uid is not None else getattr(connection, "uid", None)
    access: dict[int, tuple[str, ...]] | None = None
    if isinstance(uid, int):
        try:
            access = await _acl_access(connection, [row["id"] for row in rows], uid)
        except OdooRpcError:
            access = None  # ACL lines hidden from this user
    if access is None:
        access = await _fallback_access(connection, rows)
    return ModelListing(
        ModelSummary(
            model=row["model"],
            name=str(row.get("name") or row["model"]),
            transient=bool(row.get("transient")),
            access=access[row["id"]],
        )
        for row in rows
        if row["id"] in access
    )
