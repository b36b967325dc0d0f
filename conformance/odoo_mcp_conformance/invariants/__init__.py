"""Seed rules judged on every answer of a kit run (issue 36).

When a scenario ends, every answer it received (``answers.py``) is judged by every rule of
``rules.py``. A violation becomes a failed check of the rule's requirement alone (it never
fails the scenario's other requirements), named ``invariant: <rule>`` and giving the call and
the JSON path that showed it; the report counts it for that requirement even in a scenario
tagged with others. A rule that found nothing wrong records a passed check only for the
requirements the scenario is tagged with (the report stays small).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from odoo_mcp_conformance.answers import Answer
from odoo_mcp_conformance.invariants.rules import RULES, Context, Rule, Violation
from odoo_mcp_conformance.invariants.truth import FieldTypes, Scope
from odoo_mcp_conformance.sources import SEED, Check

__all__ = ["RULES", "Context", "FieldTypes", "Rule", "Scope", "Violation", "judge_answers"]

#: at most this many places per failed check's message (the count says how many more)
_SHOWN = 3


def judge_answers(answers: Sequence[Answer], context: Context, tags: Iterable[str]) -> list[Check]:
    """The invariants' checks on one scenario's answers."""
    tagged = set(tags)
    checks: list[Check] = []
    for rule in RULES:
        applied = False
        failures: dict[str, list[str]] = {}
        for answer in answers:
            try:
                found = rule.judge(answer, context)
            except Exception as exc:  # an answer of a shape the rule did not foresee
                found = None
                failures.setdefault(rule.requirements[0], []).append(
                    f"{answer.label}: the rule could not read the answer ({type(exc).__name__})"
                )
            if found is None:
                continue
            applied = True
            for violation in found:
                failures.setdefault(violation.requirement, []).append(
                    f"{answer.label}, at {violation.path}: {violation.what}"
                )
        for requirement, places in sorted(failures.items()):
            more = f" (and {len(places) - _SHOWN} more)" if len(places) > _SHOWN else ""
            checks.append(
                Check(
                    step=f"invariant: {rule.name}",
                    source=SEED,
                    outcome="failed",
                    message="; ".join(places[:_SHOWN]) + more + f" [{rule.seed}]",
                    requirements=(requirement,),
                    invariant=True,
                )
            )
        if applied:
            for requirement in rule.requirements:
                if requirement in tagged and requirement not in failures:
                    checks.append(
                        Check(
                            step=f"invariant: {rule.name}",
                            source=SEED,
                            outcome="passed",
                            requirements=(requirement,),
                            invariant=True,
                        )
                    )
    return checks
