"""REQ-07-09..11: the start-up introspection, run in the background once Odoo is connected.

One round reads the installed modules and which of the target models exist and are readable
(three calls, ``model_listing``); then ``fields_get`` of each such model, at most five at a
time, within a total time budget. Results land in the registry's cache as they arrive, so a
tool asking for a model meanwhile shares the in-flight call, and whatever finished before the
budget ran out is kept. A model that fails is skipped; nothing here can stop the server.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import anyio
from pydantic import BaseModel, ConfigDict

from odoo_mcp.connection import OdooCalls, OdooConnectionError
from odoo_mcp.model_listing import list_readable_models

__all__ = [
    "DEFAULT_INTROSPECT_MODELS",
    "DEFAULT_LIMITS",
    "InstalledModule",
    "IntrospectionLimits",
    "IntrospectionReport",
    "introspect",
    "read_installed_modules",
]

logger = logging.getLogger(__name__)

#: REQ-07-07: the models introspected when ``introspect_models`` is empty
DEFAULT_INTROSPECT_MODELS: Final = (
    "res.partner",
    "res.users",
    "res.company",
    "sale.order",
    "sale.order.line",
    "purchase.order",
    "purchase.order.line",
    "account.move",
    "account.move.line",
    "stock.picking",
    "stock.move",
    "stock.move.line",
    "stock.quant",
    "stock.warehouse",
    "stock.location",
    "product.template",
    "product.product",
    "product.category",
    "crm.lead",
    "crm.stage",
    "helpdesk.ticket",
    "helpdesk.stage",
    "helpdesk.team",
    "project.project",
    "project.task",
    "project.milestone",
    "hr.employee",
    "hr.department",
    "hr.leave",
    "calendar.event",
    "mail.message",
    "mail.activity",
    "ir.attachment",
)


@dataclass(frozen=True)
class IntrospectionLimits:
    """REQ-07-11: the throttle (tests inject smaller ones)."""

    max_concurrent: int = 5
    budget_seconds: float = 60.0


DEFAULT_LIMITS: Final = IntrospectionLimits()


class InstalledModule(BaseModel):
    """REQ-07-09: one installed Odoo module."""

    model_config = ConfigDict(frozen=True, defer_build=True)  # built on first use (issue 41)

    name: str
    shortdesc: str = ""


class IntrospectionReport(BaseModel):
    """What one start-up introspection did (logged, and returned for tests)."""

    model_config = ConfigDict(frozen=True, defer_build=True)  # built on first use (issue 41)

    loaded: tuple[str, ...]
    skipped: tuple[str, ...]
    left_out: tuple[str, ...]
    modules: int | None
    #: why it stopped early: Odoo could not be reached (None when it ran to the end)
    stopped: str | None = None
    seconds: float


async def read_installed_modules(connection: OdooCalls) -> tuple[InstalledModule, ...]:
    """REQ-07-09: ``ir.module.module`` in state installed: name and short description."""
    rows = await connection.search_read(
        "ir.module.module", [["state", "=", "installed"]], ["name", "shortdesc"], order="name"
    )
    return tuple(
        InstalledModule(name=str(row["name"]), shortdesc=str(row.get("shortdesc") or ""))
        for row in rows
    )


async def _readable(connection: OdooCalls, models: Sequence[str]) -> list[str]:
    """REQ-07-09: the targets Odoo has (non-transient) and the user may read, in order."""
    try:
        found = await list_readable_models(connection, models=models)
    except OdooConnectionError:
        raise
    except Exception as exc:  # ir.model hidden: try each target, failures are skipped
        logger.info("registry: cannot list the readable models (%s); trying each", exc)
        return list(models)
    readable = {summary.model for summary in found}
    absent = [model for model in models if model not in readable]
    if absent:
        logger.debug("registry: not in Odoo or not readable, not introspected: %s", absent)
    return [model for model in models if model in readable]


async def introspect(
    connection: OdooCalls,
    models: Sequence[str],
    load_fields: Callable[[str], Awaitable[Mapping[str, object]]],
    keep_modules: Callable[[tuple[InstalledModule, ...]], None],
    limits: IntrospectionLimits = DEFAULT_LIMITS,
) -> IntrospectionReport:
    """REQ-07-09/11: modules and readable models, then ``fields_get`` of each within limits.

    ``load_fields`` is the registry's own cached fetch, so the results are its cache.
    """
    started = time.monotonic()
    targets: list[str] = []
    loaded: list[str] = []
    skipped: list[str] = []
    modules: int | None = None
    stopped: str | None = None
    gate = anyio.Semaphore(limits.max_concurrent)
    budget = anyio.CancelScope(deadline=anyio.current_time() + limits.budget_seconds)

    def lost(exc: OdooConnectionError) -> None:
        # Odoo unreachable: every other call would fail too (after its own retries)
        nonlocal stopped
        stopped = str(exc)
        budget.cancel()

    async def modules_round() -> None:
        nonlocal modules
        try:
            found = await read_installed_modules(connection)
        except OdooConnectionError as exc:
            lost(exc)
            return
        except Exception as exc:
            logger.info("registry: cannot read the installed modules: %s", exc)
            return
        keep_modules(found)
        modules = len(found)

    async def models_round() -> None:
        try:
            targets.extend(await _readable(connection, models))
        except OdooConnectionError as exc:
            lost(exc)

    async def one(model: str) -> None:
        async with gate:
            try:
                await load_fields(model)
            except OdooConnectionError as exc:
                lost(exc)
                return
            except Exception as exc:
                logger.info("registry: %s skipped: %s", model, exc)
                skipped.append(model)
                return
        loaded.append(model)

    with budget:
        async with anyio.create_task_group() as first:
            first.start_soon(modules_round)
            first.start_soon(models_round)
        async with anyio.create_task_group() as fields:
            for model in targets:
                fields.start_soon(one, model)
    done = set(loaded) | set(skipped)
    left_out = tuple(model for model in (targets or models) if model not in done)
    seconds = round(time.monotonic() - started, 3)
    if stopped is not None:
        logger.info("registry: introspection stopped, Odoo unreachable: %s", stopped)
    elif left_out:
        logger.info(
            "registry: the %ss introspection budget ran out; left out: %s",
            limits.budget_seconds,
            ", ".join(left_out),
        )
    logger.info(
        "registry: introspected %d model(s) in %.1fs (%d skipped, %s installed modules)",
        len(loaded),
        seconds,
        len(skipped),
        "?" if modules is None else modules,
    )
    return IntrospectionReport(
        loaded=tuple(sorted(loaded)),
        skipped=tuple(sorted(skipped)),
        left_out=left_out,
        modules=modules,
        seconds=seconds,
        stopped=stopped,
    )
