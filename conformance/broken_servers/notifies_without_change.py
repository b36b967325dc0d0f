"""Defect: every poll round notifies every subscribed resource, changed or not (REQ-06-14)."""

from typing import Any

from _sabotage import serve

from odoo_mcp.resources.subscriptions import SubscriptionManager, _caller_key

original = SubscriptionManager.poll_round


async def _notify_everything(self: Any) -> list[str]:
    await original(self)
    everything = sorted({uri for entry in self.clients.values() for uri in entry.uris})
    # every client "saw" every URI: each is told, whoever it subscribed as
    seen = {
        (_caller_key(entry.caller), uri) for entry in self.clients.values() for uri in everything
    }
    await self._notify(everything, seen)
    return everything


SubscriptionManager.poll_round = _notify_everything  # type: ignore[method-assign]
serve()
