"""Sources of expectations, independent checks, and where an answer's body is read."""

from __future__ import annotations

import json

import mcp.types as t
import pytest
from test_report import _catalogue

from odoo_mcp_conformance.baseline import Baseline
from odoo_mcp_conformance.checks import CheckRecorder
from odoo_mcp_conformance.driver import ToolOutcome
from odoo_mcp_conformance.report import RunReport, ScenarioResult, build_report
from odoo_mcp_conformance.sources import (
    REFERENCE,
    REFERENCE_CODES,
    SEED,
    SEED_CODES,
    Check,
    Source,
    code_category,
    parse_step_prefix,
    scenario_source,
    split_step_source,
)


def test_scenario_source_comes_from_tags() -> None:
    assert scenario_source(["REQ-11-14", "SPEC-11"]) == SEED
    assert scenario_source(["REQ-11-14", "reference"]) == REFERENCE
    assert scenario_source(tag for tag in ("REQ-11-14", "reference")) == REFERENCE
    decided = scenario_source(["decision-11", "decision-1", "REQ-11-14"])
    assert decided == Source(kind="decision", decisions=(1, 11))
    assert decided.label == "decision 1, 11"


@pytest.mark.parametrize(
    ("text", "source", "rest"),
    [
        ("the call succeeds", None, "the call succeeds"),
        ("[reference] the call succeeds", REFERENCE, "the call succeeds"),
        ("[seed] Odoo received no call", SEED, "Odoo received no call"),
        ("[decision 11] x", Source(kind="decision", decisions=(11,)), "x"),
        ("[decisions 1, 20] x", Source(kind="decision", decisions=(1, 20)), "x"),
        ("[not a source] x", None, "[not a source] x"),
    ],
)
def test_a_step_may_carry_its_own_source(text: str, source: Source | None, rest: str) -> None:
    assert split_step_source(text) == (source, rest)


def test_only_seed_checks_count_in_the_spec_profile() -> None:
    assert SEED.counts_in("spec") and SEED.counts_in("reference")
    assert not REFERENCE.counts_in("spec") and REFERENCE.counts_in("reference")
    assert not Source(kind="decision", decisions=(11,)).counts_in("spec")


def test_codes_the_seeds_define_are_not_the_reference_servers_own() -> None:
    assert not set(SEED_CODES) & set(REFERENCE_CODES)
    assert code_category("MODEL_BLOCKED") == "access"  # ours: judged by category
    assert code_category("RATE_LIMITED") == "rate_limit"  # the seed's
    assert code_category("NO_SUCH_CODE") is None


def test_the_recorder_keeps_each_check_and_its_source() -> None:
    recorder = CheckRecorder(SEED)
    recorder.begin_step('[reference] the result has exactly the keys "a"')
    recorder.expect(False, "keys ['a', 'b']")
    recorder.begin_step("the call succeeds")
    recorder.expect(True, "never shown")
    first, second = recorder.checks
    assert (first.source, first.outcome, first.step) == (
        REFERENCE,
        "failed",
        'the result has exactly the keys "a"',
    )
    assert first.message == "keys ['a', 'b']"
    assert (second.source, second.outcome, second.message) == (SEED, "passed", "")


def _scenario(checks: list[tuple[str, str]], outcome: str) -> ScenarioResult:
    return ScenarioResult.model_validate(
        {
            "id": "s",
            "feature": "f.feature",
            "scenario": "s",
            "requirements": ["REQ-99-01"],
            "outcome": outcome,
            "checks": [
                {"step": f"step {i}", "source": {"kind": kind}, "outcome": result}
                for i, (kind, result) in enumerate(checks)
            ],
        }
    )


def _spec_report(scenario: ScenarioResult) -> RunReport:
    return build_report(
        target="t",
        odoo_version="19.0",
        profile="spec",
        catalogue=_catalogue(),
        results=[scenario],
        baseline=Baseline(),
    )


def test_a_requirement_shows_seed_verdicts_apart_from_the_others() -> None:
    scenario = _scenario([("seed", "passed"), ("reference", "failed")], "passed")
    report = _spec_report(scenario)
    verdict = next(v for v in report.requirements if v.id == "REQ-99-01")
    assert (verdict.status, verdict.seed_status) == ("passing", "passing")
    assert (verdict.other_status, verdict.other_sources) == ("failing", ("reference",))


def test_a_scenario_without_seed_checks_is_noted_not_judged() -> None:
    report = _spec_report(_scenario([("reference", "failed")], "noted"))
    verdict = next(v for v in report.requirements if v.id == "REQ-99-01")
    assert verdict.status == "untested" and verdict.seed_status == "untested"
    assert report.meets_baseline


def _outcome(content: list[t.TextContent], structured: object = None) -> ToolOutcome:
    result = t.CallToolResult(content=content, structured_content=structured, is_error=False)  # type: ignore[arg-type]
    return ToolOutcome(result, None)


def test_the_body_is_read_from_the_text_first() -> None:
    """SPEC-10's own example puts the JSON body in a TextContent (REQ-10-17)."""
    body = {"error": True, "code": "X"}
    text = t.TextContent(type="text", text=json.dumps(body))
    assert _outcome([text]).structured == body
    assert _outcome([text], {"other": 1}).structured == body
    prose = t.TextContent(type="text", text="Found 3 records")
    assert _outcome([prose], {"records": []}).structured == {"records": []}
    assert _outcome([], {"result": [1, 2]}).structured == [1, 2]
    assert _outcome([prose]).structured is None


DECIDED_15 = Source(kind="decision", decisions=(15,))


@pytest.mark.parametrize(
    ("text", "source", "requirements", "prerequisite", "rest"),
    [
        ("[for REQ-10-02] the error is JSON", None, ("REQ-10-02",), False, "the error is JSON"),
        ("[needs REQ-04-22] the call succeeds", None, ("REQ-04-22",), True, "the call succeeds"),
        ("[seed for REQ-10-02, REQ-10-03] x", SEED, ("REQ-10-02", "REQ-10-03"), False, "x"),
        ("[decision 15 for REQ-04-27] x", DECIDED_15, ("REQ-04-27",), False, "x"),
        ("[for] x", None, (), False, "[for] x"),
        ("[] x", None, (), False, "[] x"),
    ],
)  # fmt: skip
def test_a_step_prefix_names_its_requirements(
    text: str, source: Source | None, requirements: tuple[str, ...], prerequisite: bool, rest: str
) -> None:
    prefix, remainder = parse_step_prefix(text)
    assert (prefix.source, prefix.requirements, prefix.prerequisite, remainder) == (
        source, requirements, prerequisite, rest,
    )  # fmt: skip


def _attributed(
    checks: list[Check], reqs: tuple[str, ...] = ("REQ-99-01", "REQ-99-02")
) -> ScenarioResult:
    return ScenarioResult(
        id="s", feature="f.feature", scenario="s", requirements=reqs, outcome="failed",
        checks=tuple(checks),
    )  # fmt: skip


def _check(outcome: str, reqs: tuple[str, ...] = (), prerequisite: bool = False) -> Check:
    return Check(step="a step", source=SEED, outcome=outcome, message="why",  # type: ignore[arg-type]
                 requirements=reqs, prerequisite=prerequisite)  # fmt: skip


def _statuses(result: ScenarioResult) -> dict[str, tuple[str, tuple[str, ...]]]:
    report = build_report(target="t", odoo_version="19.0", catalogue=_catalogue(),
                          results=[result], baseline=Baseline(), profile="spec")  # fmt: skip
    return {v.id: (v.status, v.blocked_by) for v in report.requirements if v.scenarios}


def test_a_check_for_one_requirement_never_fails_another() -> None:
    """Issue 27: REQ-10-14's 'no traceback' passed everywhere yet failed on a structure step."""
    statuses = _statuses(_attributed([_check("failed", ("REQ-99-01",)), _check("passed")]))
    assert statuses == {"REQ-99-01": ("failing", ()), "REQ-99-02": ("passing", ())}
    # an unattributed failed check still fails every requirement of its scenario
    statuses = _statuses(_attributed([_check("failed")]))
    assert statuses == {"REQ-99-01": ("failing", ()), "REQ-99-02": ("failing", ())}


def test_a_failed_prerequisite_blocks_the_other_requirements() -> None:
    result = _attributed([_check("failed", ("REQ-99-01",), prerequisite=True), _check("failed")])
    assert _statuses(result) == {
        "REQ-99-01": ("failing", ()),
        "REQ-99-02": ("blocked", ("REQ-99-01",)),
    }
    report = build_report(target="t", odoo_version="19.0", catalogue=_catalogue(),
                          results=[result], baseline=Baseline(), profile="spec")  # fmt: skip
    assert report.unexpected_failures == ("REQ-99-01",)  # blocked is not a failure
    # a prerequisite that passed blocks nothing
    passed = _attributed([_check("passed", ("REQ-99-01",), prerequisite=True), _check("failed")])
    assert _statuses(passed)["REQ-99-02"] == ("failing", ())


def test_a_requirement_failure_lists_only_its_own_checks() -> None:
    result = _attributed(
        [
            Check(step="structure", source=SEED, outcome="failed", message="no category",
                  requirements=("REQ-99-01",)),
            Check(step="no traceback", source=SEED, outcome="failed", message="a traceback"),
        ]
    )  # fmt: skip
    report = build_report(target="t", odoo_version="19.0", catalogue=_catalogue(),
                          results=[result], baseline=Baseline(), profile="spec")  # fmt: skip
    by_id = {v.id: v for v in report.requirements}
    assert "no category" in by_id["REQ-99-01"].failures[0]
    assert "no category" not in by_id["REQ-99-02"].failures[0]
    assert "a traceback" in by_id["REQ-99-02"].failures[0]
