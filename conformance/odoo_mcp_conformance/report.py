"""From raw scenario results to verdicts per requirement, and the three report formats.

A requirement's status comes from the scenarios tagged with it: ``failing`` if any failed,
``passing`` if at least one passed and none failed, ``not_applicable`` if all of them were,
``untested`` if none exists, ``excluded`` when the catalogue says so; ``inconclusive`` when
none failed but one got no answer to judge (a timeout, a lost connection: issue 38), which is
neither a pass nor a failure and keeps the run from passing. What a failure costs
follows the keyword: MUST is an error, SHOULD a warning (an error with ``--strict``), MAY is
information. The reports are deterministic: sorted, no timestamps, no durations.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Literal
from xml.etree import ElementTree as ET

from pydantic import BaseModel, ConfigDict

from odoo_mcp_conformance.baseline import Baseline
from odoo_mcp_conformance.catalogue import Catalogue
from odoo_mcp_conformance.sources import Check

__all__ = [
    "RequirementVerdict",
    "RunReport",
    "ScenarioResult",
    "build_report",
    "judge",
    "rejudge",
    "write_reports",
]

Status = Literal[
    "passing", "failing", "blocked", "inconclusive", "not_applicable", "untested", "excluded"
]
#: ``noted``: the scenario ran, but none of its checks is an expectation of the run's profile
#: (a decision or reference scenario in the spec profile): reported, never a verdict.
#: ``inconclusive``: a step got no answer to judge (inconclusive.py), even after a retry.
Outcome = Literal["passed", "failed", "not_applicable", "noted", "inconclusive"]


class ScenarioResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    feature: str
    scenario: str
    requirements: tuple[str, ...]
    outcome: Outcome
    message: str = ""
    #: the scenario's default source: ``seed``, ``decision N`` or ``reference``
    source: str = "seed"
    #: failed checks that do not count in this profile ("differs from the reference")
    notes: tuple[str, ...] = ()
    checks: tuple[Check, ...] = ()
    #: how the scenario reached the server and Odoo: ``stdio``, ``http, Odoo over json2``
    protocol: str = ""
    #: this result is the scenario's second run, its first having been inconclusive
    retried: bool = False

    @property
    def label(self) -> str:
        return f"{self.feature}: {self.scenario}"


class RequirementVerdict(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    document: str
    keyword: str
    summary: str
    status: Status
    scenarios: tuple[str, ...]
    failures: tuple[str, ...] = ()
    #: where the reference server's own choices differ (never a failure in the spec profile)
    notes: tuple[str, ...] = ()
    #: the verdict of the seed-sourced checks alone, whatever the profile
    seed_status: Status = "untested"
    #: the decisions / reference behaviour the requirement's scenarios also check, and how
    #: those checks went (``passing``, ``failing``, or ``untested`` when there are none)
    other_sources: tuple[str, ...] = ()
    other_status: Status = "untested"
    #: ``blocked``: the requirements whose failed prerequisite kept this one from a verdict
    blocked_by: tuple[str, ...] = ()
    #: what the failure costs: error (fails the run), warning, info; None when not failing
    severity: Literal["error", "warning", "info"] | None = None
    in_baseline: bool = False
    reason: str = ""


class RunReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    target: str
    odoo_version: str
    #: ``spec``: only seed expectations decide; ``reference``: every expectation
    profile: str = "reference"
    strict: bool
    meets_baseline: bool
    requirement_counts: dict[str, int]
    scenario_counts: dict[str, int]
    unexpected_failures: tuple[str, ...]
    stale_baseline_entries: tuple[str, ...]
    warnings: tuple[str, ...]
    requirements: tuple[RequirementVerdict, ...]
    scenarios: tuple[ScenarioResult, ...]
    #: requirements without a verdict: a scenario of theirs stayed inconclusive (issue 38)
    inconclusive: tuple[str, ...] = ()
    #: the machine's slowness the run measured at its start; every wait was scaled by it
    time_scale: float = 1.0

    @property
    def complete(self) -> bool:
        """Every scenario reached a verdict (or was not applicable): nothing inconclusive."""
        return not self.inconclusive


def _explain(check: Check) -> str:
    """A failed check in words: its source, its step, what was expected and what came."""
    where = f"[{check.source.label}] {check.step}"
    return f"{where}: {check.message}" if check.message else where


def _counts_in(check: Check, profile: str) -> bool:
    return check.source.counts_in(profile)  # type: ignore[arg-type]


def judge(checks: Sequence[Check], profile: str) -> tuple[Outcome, str, tuple[str, ...]]:
    """A scenario's outcome, failure message and notes from its checks, in ``profile``.

    Failed checks whose source counts in the profile fail the scenario; the others are notes
    ("differs from the reference"). A scenario with no counting check is ``noted``. A step
    that got no answer to judge leaves it ``inconclusive`` in every profile (issue 38): what
    its other checks saw may be the same flake's echo.
    """
    lost = [c for c in checks if c.outcome == "inconclusive"]
    if lost:
        return "inconclusive", "; ".join(_explain(c) for c in lost), ()
    counting = [c for c in checks if c.source.counts_in(profile)]  # type: ignore[arg-type]
    failed = [c for c in counting if c.outcome == "failed"]
    notes = tuple(_explain(c) for c in checks if c not in counting and c.outcome == "failed")
    message = "; ".join(_explain(c) for c in failed)
    if failed:
        return "failed", message, notes
    return ("passed" if counting else "noted"), "", notes


def rejudge(report: RunReport, profile: str, catalogue: Catalogue, baseline: Baseline) -> RunReport:
    """The same run judged in another profile: every scenario's checks are in the report."""
    scenarios = []
    for result in report.scenarios:
        if result.checks and result.outcome not in ("not_applicable", "inconclusive"):
            outcome, message, notes = judge(result.checks, profile)
            result = result.model_copy(
                update={"outcome": outcome, "message": message, "notes": notes}
            )
        scenarios.append(result)
    return build_report(
        target=report.target,
        odoo_version=report.odoo_version,
        profile=profile,
        catalogue=catalogue,
        results=scenarios,
        baseline=baseline,
        strict=report.strict,
        time_scale=report.time_scale,
    )


Side = Callable[[Check], bool]


def _verdict_in(result: ScenarioResult, req_id: str, counts: Side) -> tuple[str, tuple[str, ...]]:
    """One scenario's verdict on one requirement, from the checks ``counts`` keeps.

    Issue 27: a check judges only its own requirements (``[for REQ-x]``), so a structure
    check never fails the traceback requirement beside it; a failed prerequisite of another
    requirement (``[needs REQ-x]``) leaves this one ``blocked`` by it, not failing. Returns
    (``failed`` | ``blocked`` | ``passed`` | ``not_applicable`` | ``""`` when no check
    counts, the blocking requirements).
    """
    if result.outcome in ("not_applicable", "inconclusive"):
        return str(result.outcome), ()
    if not result.checks:  # a result written without its checks: its outcome is its verdict
        return {"failed": "failed", "passed": "passed"}.get(result.outcome, ""), ()
    checks = [c for c in result.checks if counts(c)]
    blockers = tuple(
        sorted(
            {
                req
                for c in checks
                if c.prerequisite and c.outcome == "failed" and req_id not in c.requirements
                for req in c.requirements
            }
        )
    )
    if blockers and req_id in result.requirements:  # an invariant is judged on what came
        return "blocked", blockers
    own = [c for c in checks if _owns(result, c, req_id)]
    if any(c.outcome == "failed" for c in own):
        return "failed", ()
    return ("passed" if own else ""), ()


def _owns(result: ScenarioResult, check: Check, req_id: str) -> bool:
    """Whether ``check`` judges ``req_id`` in this scenario: a check of the scenario's own
    requirements judges them all unless it names its own; in a scenario not tagged with
    ``req_id``, only a check naming it does (an invariant's)."""
    if req_id in result.requirements:
        return check.judges(req_id)
    return req_id in check.requirements


def _requirement_status(
    results: list[ScenarioResult], req_id: str, counts: Side
) -> tuple[Status, tuple[str, ...]]:
    """A requirement's status over its scenarios: failing, then blocked, then passing."""
    outcomes: set[str] = set()
    blockers: set[str] = set()
    for result in results:
        outcome, by = _verdict_in(result, req_id, counts)
        outcomes.add(outcome)
        blockers.update(by)
    if "failed" in outcomes:
        return "failing", ()
    if "blocked" in outcomes:
        return "blocked", tuple(sorted(blockers))
    if "inconclusive" in outcomes:  # one scenario could not say: no pass on the others alone
        return "inconclusive", ()
    if "passed" in outcomes:
        return "passing", ()
    return ("not_applicable" if "not_applicable" in outcomes else "untested"), ()


def _failures(results: list[ScenarioResult], req_id: str, counts: Side) -> tuple[str, ...]:
    """The failed checks that judge ``req_id``, each with its scenario, in words."""
    failures = []
    for result in results:
        if _verdict_in(result, req_id, counts)[0] != "failed":
            continue
        failed = [c for c in result.checks if counts(c) and _owns(result, c, req_id)]
        text = "; ".join(_explain(c) for c in failed if c.outcome == "failed")
        protocol = f" [{result.protocol}]" if result.protocol else ""
        failures.append(f"{result.label}{protocol}: {text or result.message}")
    return tuple(failures)


def _judged(result: ScenarioResult) -> list[str]:
    """The requirements a scenario has a say on: its tags, and those an invariant found
    broken in it (issue 36: a rule holds wherever the seed states it, not only where a
    scenario tagged with it looks)."""
    broken = {
        req
        for check in result.checks
        if check.invariant and check.outcome == "failed"
        for req in check.requirements
    }
    return [*result.requirements, *sorted(broken - set(result.requirements))]


def _seed(check: Check) -> bool:
    return check.source.kind == "seed"


def _not_seed(check: Check) -> bool:
    return check.source.kind != "seed"


def build_report(
    *,
    target: str,
    odoo_version: str,
    profile: str = "reference",
    catalogue: Catalogue,
    results: Iterable[ScenarioResult],
    baseline: Baseline,
    strict: bool = False,
    time_scale: float = 1.0,
) -> RunReport:
    scenarios = tuple(sorted(results, key=lambda r: (r.feature, r.scenario, r.id)))
    by_req: dict[str, list[ScenarioResult]] = {}
    for result in scenarios:
        for req_id in _judged(result):
            by_req.setdefault(req_id, []).append(result)
    expected = baseline.ids
    verdicts: list[RequirementVerdict] = []
    for req_id in catalogue:
        row = catalogue[req_id]
        tagged = by_req.get(req_id, [])
        counting: Side = functools.partial(_counts_in, profile=profile)
        status, blocked_by = _requirement_status(tagged, req_id, counting)
        if not row.testable:
            status, blocked_by = "excluded", ()
        severity: Literal["error", "warning", "info"] | None = None
        if status == "failing":
            if row.keyword == "MUST" or (row.keyword == "SHOULD" and strict):
                severity = "error"
            else:
                severity = "warning" if row.keyword == "SHOULD" else "info"
        verdicts.append(
            RequirementVerdict(
                id=req_id,
                document=catalogue.document_of[req_id],
                keyword=row.keyword,
                summary=row.summary,
                status=status,
                scenarios=tuple(r.label for r in tagged),
                failures=_failures(tagged, req_id, counting),
                notes=tuple(f"{r.label}: {note}" for r in tagged for note in r.notes),
                seed_status="excluded"
                if not row.testable
                else _requirement_status(tagged, req_id, _seed)[0],
                other_sources=tuple(
                    sorted({c.source.label for r in tagged for c in r.checks} - {"seed"})
                ),
                other_status="excluded"
                if not row.testable
                else _requirement_status(tagged, req_id, _not_seed)[0],
                blocked_by=blocked_by,
                severity=severity,
                in_baseline=req_id in expected,
                reason=row.reason,
            )
        )
    unexpected = tuple(v.id for v in verdicts if v.severity == "error" and not v.in_baseline)
    failing = {v.id for v in verdicts if v.status == "failing"}
    stale = tuple(sorted(req_id for req_id in expected if req_id not in failing))
    warnings = tuple(v.id for v in verdicts if v.severity == "warning")
    inconclusive = tuple(v.id for v in verdicts if v.status == "inconclusive")
    return RunReport(
        target=target,
        odoo_version=odoo_version,
        profile=profile,
        strict=strict,
        meets_baseline=not unexpected and not stale,
        requirement_counts=dict(sorted(Counter(v.status for v in verdicts).items())),
        scenario_counts=dict(sorted(Counter(s.outcome for s in scenarios).items())),
        unexpected_failures=unexpected,
        stale_baseline_entries=stale,
        warnings=warnings,
        requirements=tuple(verdicts),
        scenarios=scenarios,
        inconclusive=inconclusive,
        time_scale=time_scale,
    )


def render_markdown(report: RunReport, catalogue: Catalogue | None = None) -> str:
    """The report an implementer acts on: what fails first, grouped by requirement, each
    failed check with its scenario, protocol, source and what was expected against what
    came; then what was blocked or not applicable and why; then the tables."""
    verdict = "meets its baseline" if report.meets_baseline else "does NOT meet its baseline"
    failing = [v for v in report.requirements if v.status == "failing"]
    lines = [
        f"# Conformance report: {report.target}",
        "",
        f"Fake Odoo {report.odoo_version}; profile `{report.profile}`; the run {verdict}"
        + (" (strict: SHOULD failures count)." if report.strict else ".")
        + f" {len(failing)} requirement(s) fail."
        + (
            f" **Incomplete run**: {len(report.inconclusive)} requirement(s) inconclusive."
            if report.inconclusive
            else ""
        ),
        "",
        _PROFILE_TEXT.get(report.profile, ""),
        "",
    ]
    if failing:
        lines += ["## Failures", ""]
        for v in failing:
            where = _seed_reference(v, catalogue)
            baseline = " (in the baseline)" if v.in_baseline else ""
            lines += [f"### {v.id} ({v.keyword}){baseline}: {v.summary}", ""]
            if where:
                lines += [f"Source: {where}", ""]
            lines += [f"- {' '.join(text.split())}" for text in v.failures]
            lines.append("")
    lost = [s for s in report.scenarios if s.outcome == "inconclusive"]
    if lost:
        lines += [
            "## Inconclusive (kit errors, no verdict)",
            "",
            "These scenarios got no answer the kit could judge (a timeout, a lost connection, "
            "a server or fake too slow), on their first run and on a retry; the run is "
            f"incomplete. Waits were scaled by {report.time_scale:g} for this machine's load. "
            "The servers' stderr is in `server-logs/` beside this report.",
            "",
        ]
        lines += [f"- {s.label}: {' '.join(s.message.split())}" for s in lost] + [""]
    retried = [s for s in report.scenarios if s.retried and s.outcome != "inconclusive"]
    if retried:
        lines += ["## Retried once (first run inconclusive)", ""]
        lines += [f"- {s.label}: {s.outcome}" for s in retried] + [""]
    blocked = [v for v in report.requirements if v.status == "blocked"]
    if blocked:
        lines += ["## Blocked (a prerequisite of another requirement failed)", ""]
        lines += [f"- {v.id}: blocked by {', '.join(v.blocked_by)}" for v in blocked] + [""]
    if report.unexpected_failures:
        lines += ["## Unexpected failures", ""]
        lines += [f"- {req_id}" for req_id in report.unexpected_failures] + [""]
    if report.stale_baseline_entries:
        lines += ["## Stale baseline entries (now passing: remove them)", ""]
        lines += [f"- {req_id}" for req_id in report.stale_baseline_entries] + [""]
    skipped = [s for s in report.scenarios if s.outcome == "not_applicable"]
    if skipped:
        lines += ["## Not applicable, and why", ""]
        lines += [f"- {s.label}: {s.message or 'no reason given'}" for s in skipped] + [""]
    lines += [
        "## Counts",
        "",
        "| Requirements | Count |",
        "|---|---|",
        *(f"| {status} | {count} |" for status, count in report.requirement_counts.items()),
        "",
        "| Scenarios | Count |",
        "|---|---|",
        *(f"| {outcome} | {count} |" for outcome, count in report.scenario_counts.items()),
        "",
    ]
    lines += ["## Requirements", "", "| REQ | Keyword | Status | Scenarios | Summary |"]
    lines += ["|---|---|---|---|---|"]
    for v in report.requirements:
        status = v.status + (" (baseline)" if v.in_baseline else "")
        summary = v.summary.replace("|", "\\|")
        lines.append(f"| {v.id} | {v.keyword} | {status} | {len(v.scenarios)} | {summary} |")
    noted = [v for v in report.requirements if v.notes]
    if noted:
        lines += ["", "## Differs from the reference (notes, never failures)", ""]
        for v in noted:
            lines += [f"### {v.id}", ""]
            lines += [f"- {text.replace(chr(10), ' ')}" for text in v.notes] + [""]
    lines += ["", "## Scenarios", "", "| Feature | Scenario | Source | Outcome |"]
    lines += ["|---|---|---|---|"]
    for sc in report.scenarios:
        name = sc.scenario.replace("|", "\\|")
        lines.append(f"| {sc.feature} | {name} | {sc.source} | {sc.outcome} |")
    return "\n".join(lines).rstrip() + "\n"


def _seed_reference(verdict: RequirementVerdict, catalogue: Catalogue | None) -> str:
    """Where the requirement is written: the document's source file and section."""
    if catalogue is None or verdict.id not in catalogue:
        return verdict.document
    source = next(
        (d.document.source for d in catalogue.documents if d.document.id == verdict.document),
        "",
    )
    section = catalogue[verdict.id].section
    return f"{verdict.document} ({source}), section {section}" if source else verdict.document


_PROFILE_TEXT = {
    "spec": "Only expectations taken from the seeds decide a verdict; where the reference "
    "server's decisions or own behaviour differ, the run says so under *Differs from the "
    "reference* and does not fail.",
    "reference": "Every expectation decides, the reference server's decisions included.",
}


def render_junit(report: RunReport) -> str:
    counts = Counter(s.outcome for s in report.scenarios)
    suite = ET.Element(
        "testsuite",
        name=f"odoo-mcp-conformance.{report.target}",
        tests=str(len(report.scenarios)),
        failures=str(counts["failed"]),
        skipped=str(counts["not_applicable"]),
        errors=str(counts["inconclusive"]),
    )
    for s in report.scenarios:
        case = ET.SubElement(suite, "testcase", classname=s.feature, name=s.scenario)
        properties = ET.SubElement(case, "properties")
        properties.extend(
            ET.Element("property", name="requirement", value=req) for req in s.requirements
        )
        properties.append(ET.Element("property", name="source", value=s.source))
        properties.extend(ET.Element("property", name="note", value=note) for note in s.notes)
        if s.outcome == "failed":
            ET.SubElement(case, "failure", message=s.message[:500]).text = s.message
        elif s.outcome == "not_applicable":
            ET.SubElement(case, "skipped", message=f"not applicable: {s.message}")
        elif s.outcome == "inconclusive":
            ET.SubElement(
                case, "error", message=f"inconclusive: {s.message[:480]}"
            ).text = s.message
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"


def write_reports(
    report: RunReport, directory: Path, catalogue: Catalogue | None = None
) -> dict[str, Path]:
    """report.json, report.md and junit.xml in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": directory / "report.json",
        "markdown": directory / "report.md",
        "junit": directory / "junit.xml",
    }
    data = report.model_dump(mode="json")
    paths["json"].write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    paths["markdown"].write_text(render_markdown(report, catalogue))
    paths["junit"].write_text(render_junit(report))
    return paths
