"""Runs MCP calls on two servers, one per twin database, and compares the answers (issue 26).

``TwinServers(mode, user)`` builds a ``TwinPair`` of fake Odoo databases, one MCP server on
each (same settings: ``SETTINGS`` plus the mode's) logged in as ``user``, and a connected
client per server, inside a blocking anyio portal so that synchronous code (hypothesis tests,
the bench) can drive them.  ``run_sequence(calls)`` sends each call to both, in order, and
returns a ``Finding`` per call whose answers differ or hold a canary; between two sequences
the twins are reset when the previous one may have written.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any
from unittest.mock import patch

from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client

from fake_odoo.demo.twins import FROZEN_NOW, TWINS, canaries_in
from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server
from odoo_mcp.toolsets import registration
from odoo_mcp_conformance.noninterference.calls import explore_sequences
from odoo_mcp_conformance.noninterference.compare import (
    Finding,
    answer,
    is_internal_error,
    leak_class,
    summary,
    writes,
)

__all__ = [
    "MODES",
    "SETTINGS",
    "USERS",
    "Finding",
    "TwinServers",
    "explore",
    "summary",
    "twin_servers",
]

#: what is blocked: the twins differ in exactly these
SETTINGS: dict[str, object] = {
    "field_blocklist": "email",
    "model_blocklist": "crm.lead",
    "enabled_toolsets": "core,contracts",
}
MODES: dict[str, dict[str, object]] = {
    "readonly": {"mode": "readonly"},
    "restricted": {"mode": "restricted", "write_allowlist": "res.partner,sale.order"},
    "full": {"mode": "full"},
}
USERS = ("admin", "demo")


class TwinServers:
    """One mode and user: a server on each twin and a client to each (see the module doc)."""

    def __init__(
        self,
        portal: BlockingPortal,
        stack: ExitStack,
        mode: str,
        user: str,
        extra: dict[str, object] | None = None,
    ) -> None:
        self.mode, self.user = mode, user
        self.portal = portal
        self.twins = [FakeOdoo("19.0", dataset=name) for name in TWINS]
        for fake in self.twins:
            fake.set_clock(FROZEN_NOW)
        settings = {**SETTINGS, **MODES[mode], **(extra or {})}
        self.clients = [
            stack.enter_context(
                portal.wrap_async_context_manager(
                    Client(fake_server(fake, login=user, **settings), mode="legacy")
                )
            )
            for fake in self.twins
        ]
        self.dirty = False
        self.calls = 0
        self.internal_errors = 0
        #: leak_class -> (count, first call) of the calls answered with an internal error
        self.internal: dict[str, list[Any]] = {}

    def run_sequence(self, calls: list[dict[str, Any]]) -> list[Finding]:
        if self.dirty:
            for fake in self.twins:  # both back to their first state, clocks frozen alike
                fake.reset(fake.dataset)
                fake.set_clock(FROZEN_NOW)
            self.dirty = False
        findings = []
        for n, call in enumerate(calls):
            a, b = (self.portal.call(answer, client, call) for client in self.clients)
            self.calls += 1
            crashed = is_internal_error(a) + is_internal_error(b)
            self.internal_errors += crashed
            if crashed:
                seen = self.internal.setdefault(leak_class(call), [0, call, a])
                seen[0] += 1
            self.dirty = self.dirty or writes(call)
            sent = json.dumps(call, sort_keys=True, default=str, ensure_ascii=False)
            dumps = [json.dumps(x, sort_keys=True, default=str, ensure_ascii=False) for x in (a, b)]
            found = canaries_in(dumps[0], sent) + canaries_in(dumps[1], sent)
            finding = Finding(self.mode, self.user, call, a, b, sorted(set(found)), calls[:n])
            if finding.differs or finding.canaries:
                findings.append(finding)
        return findings


@contextmanager
def twin_servers(
    combos: list[tuple[str, str]] | None = None, extra: dict[str, object] | None = None
) -> Iterator[dict[tuple[str, str], TwinServers]]:
    """``TwinServers`` for each (mode, user), all on one event loop, closed on exit;
    ``extra`` settings override ``SETTINGS`` (e.g. more blocked fields)."""
    combos = combos or [(m, u) for m in MODES for u in USERS]
    logging.disable(logging.ERROR)  # the servers log every refusal and crash: thousands
    # the toolset registration report's time (wall clock, seconds) is the one thing two
    # server processes legitimately differ in: both twins get the same
    frozen = patch.object(registration, "_now", lambda: FROZEN_NOW.replace(" ", "T") + "Z")
    try:
        with frozen, start_blocking_portal("asyncio") as portal, ExitStack() as stack:
            yield {(m, u): TwinServers(portal, stack, m, u, extra) for m, u in combos}
    finally:
        logging.disable(logging.NOTSET)


def explore(servers: TwinServers, examples: int, seed: int = 26) -> list[Finding]:
    """Run ``examples`` generated call sequences (seeded: the same ones every time)."""
    findings: list[Finding] = []
    combo = sorted(MODES).index(servers.mode) * len(USERS) + USERS.index(servers.user)
    explore_sequences(
        lambda calls: findings.extend(servers.run_sequence(calls)), examples, seed * 100 + combo
    )
    return findings
