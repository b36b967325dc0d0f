"""The per-scenario state shared by steps: settings asked for, the server, the last answer."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import mcp.types as t
import pytest
from mcp.client.client import ConnectMode

from odoo_mcp_conformance import tls
from odoo_mcp_conformance.answers import Answer
from odoo_mcp_conformance.checks import CheckRecorder
from odoo_mcp_conformance.control import OdooCall
from odoo_mcp_conformance.driver import McpDriver, ServerPool, ToolOutcome
from odoo_mcp_conformance.proxy import TcpProxy
from odoo_mcp_conformance.real_odoo import OdooBackend, RealOdoo
from odoo_mcp_conformance.sources import SEED
from odoo_mcp_conformance.target import Launch, NotApplicable, Target
from odoo_mcp_conformance.timing import scaled

__all__ = ["NOT_APPLICABLE", "World", "not_applicable"]

#: The reason prefix that turns a skipped scenario into "not applicable" in the report.
NOT_APPLICABLE = "not applicable: "


def not_applicable(reason: str) -> None:
    """Stop the scenario: the target cannot be configured for it (reported, never passed)."""
    pytest.skip(NOT_APPLICABLE + reason)


@dataclass
class World:
    """Everything one scenario accumulates; steps read and write it."""

    target: Target
    #: the fake's control API, or a real Odoo (``--odoo-url``: real_odoo.py)
    control: OdooBackend
    pool: ServerPool
    tmp: Path
    settings: dict[str, Any] = field(default_factory=dict)
    #: environment variables sent by the spec's own names, bypassing the target's mapping
    raw_env: dict[str, str] = field(default_factory=dict)
    #: settings given on the command line, by the target's ``[command_line]`` flags
    command_line: dict[str, str] = field(default_factory=dict)
    user: str = "admin"
    fresh: bool = False
    client_mode: ConnectMode = "legacy"
    driver: McpDriver | None = None
    launch: Launch | None = None
    outcome: ToolOutcome | None = None
    outcomes: list[ToolOutcome] = field(default_factory=list)
    tools: list[t.Tool] | None = None
    remembered: dict[str, Any] = field(default_factory=dict)
    #: models whose field metadata the server should hold before the first counted call
    warm_models: list[str] = field(default_factory=list)
    #: the scenario's checks (every Then step is one or more independent verdicts)
    checks: CheckRecorder = field(default_factory=lambda: CheckRecorder(SEED))
    #: a fault or an expiry was injected: a pooled server is probed before it is reused
    faulted: bool = False
    #: the server reaches Odoo through this forwarder (to make Odoo refuse connections)
    proxy: TcpProxy | None = None
    #: a subscription was accepted: the server polls Odoo in the background from then on
    subscribed: bool = False
    #: raw HTTP requests were sent (steps/http.py): no request windows to read calls by
    raw_requests: bool = False
    #: the answers of those raw requests, judged by the invariants like the driver's
    raw_answers: list[Answer] = field(default_factory=list)

    def caused_calls(self) -> list[OdooCall]:
        """The model calls this scenario's requests caused: those the fake logged while one
        of them was under way (issue 27). A scenario that sent raw HTTP requests, which the
        driver does not time, sees every call since it began."""
        calls = self.control.data_calls()
        if self.driver is None or self.raw_requests:
            return calls
        windows = self.driver.windows
        return [
            call
            for call in calls
            if any(start <= float(call.get("at", start)) <= end for start, end in windows)
        ]

    def configure(self, name: str, value: Any) -> None:
        """Ask for a server setting (before the server is first used)."""
        if self.driver is not None:
            raise AssertionError(f"setting {name} after the server started: reorder the steps")
        self.settings[name] = value

    def configure_env(self, name: str, value: str) -> None:
        """Set one of the spec's environment variables exactly as written."""
        if self.driver is not None:
            raise AssertionError(f"setting {name} after the server started: reorder the steps")
        self.raw_env[name] = value

    def configure_flag(self, name: str, value: str) -> None:
        """Give a setting on the server's command line (the target names the flag)."""
        if self.driver is not None:
            raise AssertionError(f"setting {name} after the server started: reorder the steps")
        self.command_line[name] = value

    def server(self) -> McpDriver:
        """The connected server for this scenario's settings (started on first use)."""
        if self.driver is None:
            try:
                protocol = self.settings.get("odoo_protocol")
                if isinstance(protocol, str):
                    self.target.check_protocol(protocol)
                    self._check_odoo_serves(protocol)
                odoo = self.control.coordinates(self.user)
                if self.proxy is not None:
                    odoo = odoo.model_copy(update={"url": self.proxy.url})
                launch = self.target.render(
                    odoo,
                    self.settings,
                    raw_env=self.raw_env,
                    command_line=self.command_line,
                )
            except NotApplicable as exc:
                not_applicable(str(exc))
            self.launch = launch
            self.driver = self._connect(launch)
            if self.driver.new:
                self._settle()
            self.driver.begin_scenario()
        return self.driver

    def _connect(self, launch: Launch) -> McpDriver:
        """A pooled server is reused when it answers; one that saw a fault must first prove
        it recovered with a plain read, else it is restarted (a later scenario never pays
        for an earlier one's fault)."""
        suspect = not self.fresh and self.pool.take_suspect(launch)
        driver = self.pool.get(launch, fresh=self.fresh, mode=self.client_mode)
        probe = self.warm_models or (["res.partner"] if suspect else [])
        if self._warm(driver, probe) or self.fresh:
            return driver
        self.pool.discard(launch)
        driver = self.pool.get(launch, fresh=False, mode=self.client_mode)
        if not self._warm(driver, self.warm_models):
            raise AssertionError(f"warming {self.warm_models} failed twice")
        return driver

    def _settle(
        self,
        quiet: float = 0.1,
        busy_quiet: float = 0.5,
        limit: float = 15.0,
        awaited: float = 3.0,
    ) -> None:
        """A server may read Odoo in the background once started (SPEC-07's start-up
        introspection): the scenario begins when the fake's call log has not grown for
        ``quiet`` seconds, so that the kit's per-call counts and its faults meet only the
        scenario's own calls. The wait is not skipped when nothing was logged yet: background
        work may not have reached Odoo by the time ``initialize`` is answered. Once the server
        has been seen calling model methods on its own (introspection), the quiet it must keep
        is ``busy_quiet``: on a loaded machine the gaps between those calls outgrow ``quiet``,
        and a late one landed in a scenario that asserts Odoo received no call.

        Once one server of the target was seen introspecting, a new one that has not read
        any ``fields_get`` yet is waited for (``awaited`` seconds at most) until it does: on a
        loaded machine a server's introspection began after the first quiet ``quiet`` and
        landed in a scenario asserting that Odoo received no call (CI, REQ-11-06)."""
        if isinstance(self.control, RealOdoo):  # no call log to watch: a fixed quiet time
            time.sleep(scaled(busy_quiet))
            return
        now = time.monotonic()
        deadline, awaiting = now + scaled(limit), now + scaled(awaited)
        calls = self.control.calls()
        seen, busy = len(calls), False
        introspected = any(call.get("method") == "fields_get" for call in calls)
        while time.monotonic() < deadline:
            # scaled like every other wait (issue 38): on a loaded machine unscaled gaps let
            # the example target's late introspection calls land in a scenario (CI, 2 cores)
            time.sleep(scaled(busy_quiet if busy else quiet))
            calls = self.control.calls()
            if len(calls) == seen:
                expected = self.pool.reads_in_background and not introspected
                if not expected or time.monotonic() >= awaiting:
                    break
                continue
            # model calls that came after initialize was answered: work in the background
            busy = busy or any(call.get("model") for call in calls[seen:])
            introspected = introspected or any(
                call.get("method") == "fields_get" for call in calls[seen:]
            )
            seen = len(calls)
        if busy:
            self.pool.reads_in_background = True
        self.control.clear_calls()

    @staticmethod
    def _warm(driver: McpDriver, models: list[str]) -> bool:
        for model in models:
            warm = driver.call_tool("odoo_core_search_read", {"model": model, "limit": 1})
            if warm.error is not None or warm.is_error:
                return False
        return True

    def release(self) -> None:
        """End of scenario: a pooled server that saw a fault is probed before its next use; one
        that holds a subscription is closed, since it keeps polling Odoo in the background and
        its calls would land in the next scenarios' call logs."""
        if self.subscribed and not self.fresh and self.launch is not None:
            self.pool.discard(self.launch)
        elif self.faulted and not self.fresh and self.launch is not None:
            self.pool.mark_suspect(self.launch)
        if self.proxy is not None:
            self.proxy.close()

    def _check_odoo_serves(self, protocol: str) -> None:
        """JSON-2 exists from Odoo 19: asking a 17.0 fake for it tests nothing. JSON-RPC's
        ``/jsonrpc`` is gone from Odoo 20 (its rpc module no longer routes it): whether this
        Odoo serves it is asked of the Odoo itself, a real one as the fake."""
        version = str(self.control.info()["version"])
        if protocol == "json2" and int(version.split(".")[0].split("~")[-1]) < 19:
            raise NotApplicable(f"Odoo {version} has no JSON-2 (it exists from 19.0)")
        if protocol == "jsonrpc" and not _serves_jsonrpc(self.control.url):
            raise NotApplicable(f"Odoo {version} has no /jsonrpc (it answers 404 there)")

    def call(self, tool: str, arguments: dict[str, Any] | None) -> ToolOutcome:
        """Call a tool, counting only this call's Odoo round trips."""
        driver = self.server()
        self.guard(tool, arguments)
        self.control.clear_calls()
        self.outcome = driver.call_tool(tool, arguments)
        self.outcomes.append(self.outcome)
        if isinstance(self.control, RealOdoo) and tool == "odoo_core_create":
            self._remember_created(arguments, self.outcome)
        return self.outcome

    def guard(self, tool: str, arguments: Any) -> None:
        """On a real Odoo, a tool call that would change records the kit did not create is
        never sent (``NeedsFake``: the scenario is not applicable there)."""
        if isinstance(self.control, RealOdoo):
            self.control.guard_tool_call(tool, arguments)

    def _remember_created(self, arguments: Any, outcome: ToolOutcome) -> None:
        """The records a create made on a real Odoo, removed at the scenario's end."""
        body, real = outcome.structured, self.control
        model = arguments.get("model") if isinstance(arguments, dict) else None
        if not isinstance(real, RealOdoo) or not isinstance(model, str):
            return
        found = body.get("ids", [body.get("id")]) if isinstance(body, dict) else []
        found = found if isinstance(found, list) else [found]
        ids = [i for i in found if isinstance(i, int) and not isinstance(i, bool)]
        if ids:
            real.remember(model, ids)

    def last(self) -> ToolOutcome:
        if self.outcome is None:
            raise AssertionError("no tool was called yet in this scenario")
        return self.outcome


@functools.cache
def _serves_jsonrpc(url: str) -> bool:
    """Whether the Odoo at ``url`` answers JSON-RPC's ``/jsonrpc`` (asked once per run)."""
    body = {"jsonrpc": "2.0", "method": "call", "id": 1,
            "params": {"service": "common", "method": "version", "args": []}}  # fmt: skip
    with httpx2.Client(verify=tls.verify(), timeout=scaled(30)) as http:
        return http.post(f"{url.rstrip('/')}/jsonrpc", json=body).status_code != 404
