"""SPEC-04 §3.11 / SPEC-07: the models the user can read, in a bounded number of round trips.

REQ-04-34 asks for the models the user may read "checked via ``check_access_rights``". Asked
model by model, that is one round trip per model (hundreds on a real database). Instead:

1. ``ir.model.search_read`` once: candidate models (name filter, transient flag);
2. in parallel: ``ir.model.access.search_read`` for those models (the ACL lines, read by every
   internal user) and ``res.users.read`` of the user's groups (``all_group_ids`` from 19,
   ``groups_id`` up to 18, where it already holds implied groups);
3. a model is readable when an active ACL line grants ``perm_read`` to no group or to one of
   the user's groups: exactly the rule ``check_access_rights('read')`` applies, so the answer
   is the same, in two sequential rounds and three calls whatever the number of models. The
   same lines give the ``access`` summary of REQ-04-33 for free.

When Odoo refuses step 2 (a portal user, a server that hides ``ir.model.access``) the
fallback is ``check_access_rights('read', raise_exception=False)`` per model, at most five
at a time (the REQ-07-11 throttle); ``access`` is then ``("read",)``. Blocked models
(SPEC-11) are dropped before any access check.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from odoo_mcp.connection import OdooCalls, OdooRpcError

__all__ = ["ModelSummary", "list_readable_models"]

PERMISSIONS: Final = ("read", "write", "create", "unlink")
MAX_CONCURRENT_CHECKS: Final = 5


class ModelSummary(BaseModel):
    """REQ-04-33: one model as ``odoo_core_list_models`` shows it."""

    model_config = ConfigDict(frozen=True)

    model: str
    name: str
    transient: bool
    access: tuple[str, ...]


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
    acl_fields = ["model_id", "group_id", *(f"perm_{p}" for p in PERMISSIONS)]
    lines, users = await asyncio.gather(
        connection.search_read(
            "ir.model.access", [["model_id", "in", list(model_ids)]], acl_fields
        ),
        connection.read("res.users", [uid], [group_field]),
    )
    groups = set(users[0].get(group_field) or []) if users else set()
    granted: dict[int, set[str]] = {}
    for line in lines:
        model_id, group_id = _id(line.get("model_id")), _id(line.get("group_id"))
        if model_id is None or (group_id is not None and group_id not in groups):
            continue
        perms = granted.setdefault(model_id, set())
        perms.update(p for p in PERMISSIONS if line.get(f"perm_{p}"))
    return {
        model_id: tuple(p for p in PERMISSIONS if p in perms)
        for model_id, perms in granted.items()
        if "read" in perms
    }


async def _checked_access(connection: OdooCalls, models: Sequence[str]) -> set[str]:
    """REQ-04-34: the fallback: ``check_access_rights`` per model, five at a time."""
    gate = asyncio.Semaphore(MAX_CONCURRENT_CHECKS)

    async def readable(model: str) -> bool:
        async with gate:
            try:
                answer = await connection.execute_kw(
                    model, "check_access_rights", ["read"], {"raise_exception": False}
                )
            except OdooRpcError:
                return False
        return answer is True

    answers = await asyncio.gather(*(readable(model) for model in models))
    return {model for model, ok in zip(models, answers, strict=True) if ok}


async def list_readable_models(
    connection: OdooCalls,
    *,
    name_filter: str | None = None,
    transient: bool = False,
    is_model_blocked: Callable[[str], bool] | None = None,
    uid: int | None = None,
    models: Sequence[str] | None = None,
) -> list[ModelSummary]:
    """REQ-04-34: readable, non-blocked models; three calls in two rounds (see module doc).

    ``models`` limits the listing to those technical names (the registry's start-up targets).
    """
    domain: list[Any] = [] if transient else [["transient", "=", False]]
    if models is not None:
        domain.append(["model", "in", list(models)])
    if name_filter:
        domain += ["|", ["model", "ilike", name_filter], ["name", "ilike", name_filter]]
    rows = await connection.search_read(
        "ir.model", domain, ["model", "name", "transient"], order="model"
    )
    rows = [row for row in rows if not (is_model_blocked and is_model_blocked(row["model"]))]
    if not rows:
        return []
    uid = uid if uid is not None else getattr(connection, "uid", None)
    access: dict[int, tuple[str, ...]] | None = None
    if isinstance(uid, int):
        try:
            access = await _acl_access(connection, [row["id"] for row in rows], uid)
        except OdooRpcError:
            access = None  # ACL lines hidden from this user: ask model by model
    if access is None:
        readable = await _checked_access(connection, [row["model"] for row in rows])
        access = {row["id"]: ("read",) for row in rows if row["model"] in readable}
    return [
        ModelSummary(
            model=row["model"],
            name=str(row.get("name") or row["model"]),
            transient=bool(row.get("transient")),
            access=access[row["id"]],
        )
        for row in rows
        if row["id"] in access
    ]
