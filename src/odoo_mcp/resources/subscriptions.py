"""SPEC-06 §5: resource subscriptions, by polling ``write_date``.

Clients subscribe to ``odoo://record/{model}/{id}`` and ``odoo://system/info`` (REQ-06-15),
at most 50 each (REQ-06-16). A poll round (every ``interval`` seconds, 60 by default,
REQ-06-14) reads ``write_date`` with one ``search_read`` per model for all the subscribed ids
of that model, whatever the number of subscriptions, and notifies only the URIs whose
``write_date`` changed; system/info notifies when the connection's state changes, which the
round checks itself with one cheap call while anyone subscribes to it (REQ-06-15).
Notifications go to handshake-era sessions (``send_resource_updated``) and to the 2026-era
listen streams (``publish``: the MCP adapter gives the SDK's subscription bus). A session whose
notification fails is closed: its subscriptions are dropped. Issue 37: so are the ones of a
session that ends (the MCP adapter calls :meth:`SubscriptionManager.drop_client` when the SDK
closes its connection), so that no round polls Odoo for a client that is gone.

Issue 26: a subscription runs as its subscriber. Subscribing reads the record as the caller
(over HTTP with authentication, that caller's own Odoo user): a caller who cannot read it gets
the error and no subscription. Each round polls once per model and caller, as that caller, so
a record the caller can no longer read simply stops notifying it; the bus is told of a change
only when every listen stream subscribed to the URI saw it as its own caller.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

import anyio

from odoo_mcp.callers import Caller, acting_as, current_caller
from odoo_mcp.connection import OdooError
from odoo_mcp.connection.base import OdooCalls
from odoo_mcp.errors import ToolError
from odoo_mcp.errors.categories import ErrorCategory
from odoo_mcp.resources.uris import parse_uri
from odoo_mcp.safety import Operation
from odoo_mcp.safety.policy import SafetyPolicy

__all__ = ["MAX_SUBSCRIPTIONS", "Publish", "SubscriptionManager", "SubscriptionRefused"]

logger = logging.getLogger(__name__)
#: REQ-06-16: per client
MAX_SUBSCRIPTIONS: Final = 50
SYSTEM_INFO: Final = "odoo://system/info"
#: notifies the 2026-era listen streams that a URI changed
Publish = Callable[[str], Awaitable[None]]


class SubscriptionRefused(ValueError):
    """REQ-06-15/16: a URI that cannot be subscribed to, or one subscription too many
    (JSON-RPC -32602 with the SPEC-10 error object, decision 27)."""


@dataclass
class _Client:
    session: Any  # None for a 2026-era listen stream: notified through the bus only
    uris: set[str] = field(default_factory=set)
    #: who subscribed: polls run as this caller (None: the server's own Odoo user)
    caller: Caller | None = None


class SubscriptionManager:
    """REQ-06-13..16: who is subscribed to what, and the poll round that notifies them."""

    def __init__(
        self,
        odoo: OdooCalls,
        policy: SafetyPolicy,
        *,
        interval: float = 60.0,
        publish: Publish | None = None,
    ) -> None:
        self.odoo = odoo
        self.policy = policy
        self.interval = interval
        self.publish = publish
        self.clients: dict[str, _Client] = {}
        #: (subscriber, model, id) -> the write_date that subscriber last saw
        self.write_dates: dict[tuple[object, str, int], Any] = {}
        self.last_state: str | None = None

    async def subscribe(self, client: str, session: Any, uri: str) -> None:
        """REQ-06-15/16: record resources and system/info, 50 per client; the baseline
        write_date is read now, so that a change before the first round is seen."""
        ref = parse_uri(uri)
        if ref.kind not in ("record", "system_info"):
            raise SubscriptionRefused(
                f"{uri} cannot be subscribed to: only odoo://record/<model>/<id> and "
                "odoo://system/info can"
            )
        caller = current_caller()
        entry = self.clients.get(client)
        if entry is not None and entry.uris and _caller_key(entry.caller) != _caller_key(caller):
            raise SubscriptionRefused("this client subscribed as another Odoo user")
        if (
            uri not in (entry.uris if entry else ())
            and entry
            and len(entry.uris) >= MAX_SUBSCRIPTIONS
        ):
            raise SubscriptionRefused(
                f"at most {MAX_SUBSCRIPTIONS} subscriptions per client: unsubscribe from one first"
            )
        if ref.kind == "record" and ref.model and ref.record_id:
            self.policy.check_operation(Operation.READ, ref.model)
            # read as the subscriber, always: the access check (issue 26) and the baseline
            rows = await self.odoo.read(ref.model, [ref.record_id], ["write_date"])
            if not rows:
                raise ToolError(
                    "NOT_FOUND",
                    f"{ref.model} record {ref.record_id} does not exist",
                    category=ErrorCategory.NOT_FOUND,
                )
            self.write_dates.setdefault(
                (_caller_key(caller), ref.model, ref.record_id), rows[0].get("write_date")
            )
        else:
            self.last_state = self._state()
        entry = self.clients.setdefault(client, _Client(session, caller=caller))
        entry.session = session
        entry.caller = caller
        entry.uris.add(uri)

    def unsubscribe(self, client: str, uri: str) -> None:
        """REQ-06-13: no more notifications of ``uri`` for ``client``."""
        entry = self.clients.get(client)
        if entry is not None:
            entry.uris.discard(uri)
            if not entry.uris:
                del self.clients[client]
            self._forget_unwatched()

    def drop_client(self, client: str) -> None:
        """REQ-06-13 (issue 37): a closed session's subscriptions go with it, and the
        write_dates nobody polls any more."""
        if self.clients.pop(client, None) is not None:
            self._forget_unwatched()

    def _forget_unwatched(self) -> None:
        """REQ-06-14: forget the baselines of records no remaining subscriber polls (they
        would only grow)."""
        watched = set()
        for entry in self.clients.values():
            key = _caller_key(entry.caller)
            for uri in entry.uris:
                ref = parse_uri(uri)
                if ref.kind == "record" and ref.model and ref.record_id:
                    watched.add((key, ref.model, ref.record_id))
        for mark in [mark for mark in self.write_dates if mark not in watched]:
            del self.write_dates[mark]

    def _state(self) -> str:
        info = getattr(self.odoo, "get_connection_info", None)
        return str(getattr(getattr(info(), "state", None), "value", "")) if info else ""

    async def _probe(self) -> None:
        """REQ-06-15: one cheap call, so that the connection's state is current even when no
        tool runs (a refused call leaves it in error, a successful one ready again)."""
        info = getattr(self.odoo, "get_connection_info", None)
        uid = getattr(info(), "uid", None) if info else None
        try:
            await self.odoo.call("res.users", "search_count", [[["id", "=", uid or 0]]])
        except OdooError as exc:
            logger.info("system/info probe: Odoo answered %s", exc)

    async def poll_round(self) -> list[str]:
        """REQ-06-14: one search_read per model for every subscribed id; the changed URIs.

        REQ-06-15: while anyone subscribes to system/info, the round also probes the
        connection and notifies it when the connection's state differs from the last round's.
        A model Odoo cannot answer for is retried next round; the others are still polled.
        """
        wanted: dict[tuple[object, str], set[int]] = defaultdict(set)
        callers: dict[object, Caller | None] = {}
        info_wanted = False
        for entry in self.clients.values():
            key = _caller_key(entry.caller)
            callers[key] = entry.caller
            for uri in entry.uris:
                ref = parse_uri(uri)
                if ref.kind == "record" and ref.model and ref.record_id:
                    wanted[(key, ref.model)].add(ref.record_id)
                info_wanted = info_wanted or ref.kind == "system_info"
        seen: set[tuple[object, str]] = set()  # (subscriber, uri) that changed as it sees it
        for (key, model), ids in sorted(wanted.items(), key=lambda item: repr(item[0])):
            try:
                with acting_as(callers[key]):  # issue 26: as the subscriber, not as us
                    rows = await self.odoo.search_read(
                        model,
                        [["id", "in", sorted(ids)]],
                        ["write_date"],
                        context={"active_test": False},
                    )
            except OdooError as exc:
                logger.warning("subscription poll of %s failed: %s", model, exc)
                continue
            for row in rows:
                mark = (key, model, int(row["id"]))
                if self.write_dates.get(mark) != row.get("write_date"):
                    self.write_dates[mark] = row.get("write_date")
                    seen.add((key, f"odoo://record/{model}/{row['id']}"))
        if info_wanted and not wanted:
            await self._probe()  # a record poll, when there is one, is the probe already
        state = self._state()
        if self.last_state is not None and state != self.last_state:
            seen |= {(key, SYSTEM_INFO) for key in callers}
        self.last_state = state
        changed = sorted({uri for _, uri in seen})
        await self._notify(changed, seen)
        return changed

    async def poll_forever(self) -> None:
        """REQ-06-14: a poll round every interval while anyone is subscribed (the server's
        lifespan runs this in the background)."""
        while True:
            await anyio.sleep(self.interval)
            if self.clients:
                try:
                    await self.poll_round()
                except Exception:  # Odoo unreachable for a round: try again next time
                    logger.warning("subscription poll round failed", exc_info=True)

    async def _notify(self, uris: list[str], seen: set[tuple[object, str]]) -> None:
        """REQ-06-13: each session subscribed to a changed URI is told, if it saw the change
        as its own caller; the bus, if every listen stream subscribed to it saw it."""
        for uri in uris:
            everyone_saw = True
            for client, entry in list(self.clients.items()):
                if uri not in entry.uris:
                    continue
                saw = (_caller_key(entry.caller), uri) in seen
                everyone_saw = everyone_saw and saw
                if entry.session is None or not saw:
                    continue
                try:
                    await entry.session.send_resource_updated(uri)
                except Exception:  # the session is gone: forget it
                    logger.info("dropping the subscriptions of closed session %s", client)
                    self.drop_client(client)
            if self.publish is not None and everyone_saw:
                await self.publish(uri)


def _caller_key(caller: Caller | None) -> object:
    """Subscribers that poll alike: the same Odoo user (None: the server's own)."""
    return None if caller is None else (id(caller.connection), caller.uid)
