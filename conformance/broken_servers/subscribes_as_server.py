"""Defect: subscribing checks no access (REQ-06-23): the baseline write_date comes from a
search_read, which Odoo's record rules filter silently, so a record the user cannot read is
subscribed to without an error. The issue-26 defect: the server subscribed a caller to a record
without reading it as that caller (the read was skipped once another subscriber had read it).
"""

from collections.abc import Sequence
from typing import Any

from _sabotage import serve

from odoo_mcp.resources.subscriptions import SubscriptionManager

original = SubscriptionManager.subscribe


class _Unchecked:
    """The manager's Odoo, whose baseline read checks nothing: a hidden (or missing) record
    gets an unknown write_date instead of Odoo's refusal."""

    def __init__(self, odoo: Any) -> None:
        self._odoo = odoo

    def __getattr__(self, name: str) -> Any:
        return getattr(self._odoo, name)

    async def read(
        self, model: str, ids: Sequence[int], fields: Sequence[str] | None = None, **_: Any
    ) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = await self._odoo.search_read(
            model, [["id", "in", list(ids)]], fields, context={"active_test": False}
        )
        return rows or [{"id": record_id, "write_date": None} for record_id in ids]


async def _subscribe_unchecked(self: Any, client: str, session: Any, uri: str) -> None:
    odoo = self.odoo
    self.odoo = _Unchecked(odoo)
    try:
        await original(self, client, session, uri)
    finally:
        self.odoo = odoo


SubscriptionManager.subscribe = _subscribe_unchecked  # type: ignore[method-assign]
serve()
