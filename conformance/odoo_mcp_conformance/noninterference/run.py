"""Non-interference, judged for any server: ``odoo-mcp-conformance noninterference``.

The kit serves two fake Odoo databases that differ only in blocked data (the fake's
``twin-a`` and ``twin-b`` datasets: every partner's ``email``, every ``crm.lead`` row), starts
the target twice per mode and demo user with the same settings (``field_blocklist=email``,
``model_blocklist=crm.lead``), sends both the same calls (fixed probes of the known oracles,
then hypothesis-generated sequences over every tool, ``odoo_core_execute`` method, resource
and prompt, on a fixed seed) and compares the answers. Any difference, or a twin's canary value
in an answer, is a leak: the report names the call and the requirement it breaks.

Which requirement (the source of the expectation, decision 39): a resource or prompt answer
breaks REQ-06-22 (seed SPEC-06: "field blocklists apply to their responses"); a fields_get
answer REQ-04-24 (seed SPEC-04); a call on the blocked model REQ-11-07; any other tool
answer REQ-11-14 (a blocked field must not be read, so its value must not change what a
client sees). A server that does nothing with blocked data fails here; a server that refuses
more (another legal choice) passes, since both twins get the same refusal.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from fake_odoo.demo.twins import FROZEN_NOW, TWINS, canaries_in
from odoo_mcp_conformance.control import FakeOdooControl
from odoo_mcp_conformance.driver import McpDriver, server_pool
from odoo_mcp_conformance.noninterference.calls import PROBES, explore_sequences
from odoo_mcp_conformance.noninterference.compare import (
    Finding,
    answer,
    is_internal_error,
    summary,
    writes,
)
from odoo_mcp_conformance.target import NotApplicable, load_target

__all__ = ["MODES", "USERS", "NonInterferenceReport", "requirement_of", "run_noninterference"]

logger = logging.getLogger(__name__)

#: what the twins differ in, as settings of the REQ-11-25 names
BLOCKED: dict[str, Any] = {"field_blocklist": ["email"], "model_blocklist": ["crm.lead"]}
MODES: dict[str, dict[str, Any]] = {
    "readonly": {"mode": "readonly"},
    "restricted": {"mode": "restricted", "write_allowlist": ["res.partner", "sale.order"]},
    "full": {"mode": "full"},
}
USERS = ("admin", "demo")


def requirement_of(call: dict[str, Any]) -> str:
    """The requirement a leak through ``call`` breaks (decision 39)."""
    if call["kind"] in ("resource", "prompt", "list") and call.get("what") != "tools":
        return "REQ-06-22"
    arguments = call.get("arguments") or {}
    if call.get("name") == "odoo_core_fields_get":
        return "REQ-04-24"
    if "crm.lead" in json.dumps(arguments):
        return "REQ-11-07"
    return "REQ-11-14"


@dataclass
class NonInterferenceReport:
    """What one run found: calls sent, leaks (grouped by requirement) and internal errors."""

    calls: int = 0
    internal_errors: int = 0
    findings: list[Finding] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.findings and self.calls > 0

    def failing(self) -> dict[str, int]:
        """requirement -> the number of leaking answers that break it."""
        counts: dict[str, int] = {}
        for finding in self.findings:
            req = requirement_of(finding.call)
            counts[req] = counts.get(req, 0) + 1
        return dict(sorted(counts.items()))

    def as_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "calls": self.calls,
            "internal_errors": self.internal_errors,
            "failing_requirements": self.failing(),
            "skipped": self.skipped,
            "leaks": [
                {
                    "requirement": requirement_of(f.call),
                    "mode": f.mode,
                    "user": f.user,
                    "call": f.call,
                    "before": f.before,
                    "canaries": f.canaries,
                    "differs": f.differs,
                    "class": f.leak_class,
                }
                for f in self.findings
            ],
        }

    def text(self) -> str:
        head = (
            f"non-interference: {self.calls} calls, {len(self.findings)} leaking answers, "
            f"{self.internal_errors} internal errors"
        )
        lines = [head]
        for req, count in self.failing().items():
            lines.append(f"  FAIL {req}: {count} leaking answers")
        if self.skipped:
            lines.append("  not applicable: " + "; ".join(self.skipped))
        if self.findings:
            lines += ["", summary(self.findings)]
        return "\n".join(lines)


class _Twins:
    """The two fakes: served on loopback, clocks frozen alike, reset after writes."""

    def __init__(self, stack: ExitStack, version: str) -> None:
        from fake_odoo.handle import FakeOdoo
        from fake_odoo.server import BackgroundServer

        self.controls: list[FakeOdooControl] = []
        for dataset in TWINS:
            served = stack.enter_context(BackgroundServer(FakeOdoo(version, dataset=dataset)))
            control = FakeOdooControl(served.url)
            stack.callback(control.close)
            self.controls.append(control)
        self.datasets = TWINS
        #: each twin's address: the one thing servers may rightly show that differs
        self.urls = [control.url for control in self.controls]
        self.freeze()

    def freeze(self) -> None:
        for control in self.controls:
            control.set_clock(FROZEN_NOW)

    def reset(self) -> None:
        for control, dataset in zip(self.controls, self.datasets, strict=True):
            control.reset(dataset=dataset)
        self.freeze()


def _own_url_out(reply: Any, url: str) -> Any:
    """``reply`` with the twin's own address (with or without its scheme) written
    ``<odoo>``: a server may show the Odoo it talks to, and the twins listen apart."""
    text = json.dumps(reply)
    bare = url.split("://", 1)[-1]
    return json.loads(text.replace(url, "<odoo>").replace(bare, "<odoo>"))


class _Pair:
    """The target started on each twin for one mode and user."""

    def __init__(self, drivers: Sequence[McpDriver], twins: _Twins, mode: str, user: str) -> None:
        self.drivers = drivers
        self.twins = twins
        self.mode, self.user = mode, user
        self.dirty = False

    def run_sequence(self, calls: list[dict[str, Any]], report: NonInterferenceReport) -> None:
        if self.dirty:
            self.twins.reset()
            self.dirty = False
        for n, call in enumerate(calls):
            a, b = (
                _own_url_out(driver.request(partial(answer, call=call)), url)
                for driver, url in zip(self.drivers, self.twins.urls, strict=True)
            )
            report.calls += 1
            report.internal_errors += is_internal_error(a) + is_internal_error(b)
            self.dirty = self.dirty or writes(call)
            sent = json.dumps(call, sort_keys=True, default=str)
            found = sorted(
                set(
                    canaries_in(json.dumps(a, default=str), sent)
                    + canaries_in(json.dumps(b, default=str), sent)
                )
            )
            finding = Finding(self.mode, self.user, call, a, b, found, calls[:n])
            if finding.differs or finding.canaries:
                report.findings.append(finding)


def run_noninterference(
    target_path: Path,
    *,
    log_dir: Path,
    examples: int = 25,
    seed: int = 26,
    version: str = "19.0",
    modes: Sequence[str] = tuple(MODES),
    users: Sequence[str] = USERS,
    probes: bool = True,
) -> NonInterferenceReport:
    """Run the probes and ``examples`` generated call sequences per mode and user, the target
    started on each twin for each (mode, user) in turn."""
    target = load_target(target_path)
    report = NonInterferenceReport()
    with ExitStack() as stack:
        twins = _Twins(stack, version)
        pool = stack.enter_context(server_pool(log_dir, target.target.preload))
        for index, (mode, user) in enumerate((m, u) for m in modes for u in users):
            wanted = {**BLOCKED, **MODES[mode]}
            try:
                launches = [target.render(c.coordinates(user), wanted) for c in twins.controls]
            except NotApplicable as exc:  # the target cannot take these settings
                report.skipped.append(f"{mode}/{user}: {exc}")
                continue
            pair = _Pair([pool.get(launch, fresh=True) for launch in launches], twins, mode, user)
            try:
                if probes:
                    for probe in PROBES:
                        pair.run_sequence([probe], report)
                if examples:
                    explore_sequences(
                        partial(pair.run_sequence, report=report), examples, seed * 100 + index
                    )
            finally:
                pool.release_fresh()
                twins.reset()
    return report
