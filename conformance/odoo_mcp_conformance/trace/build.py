"""The traceability report: for every requirement, its code, its scenarios, its verdict."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

from odoo_mcp_conformance.catalogue import load_catalogue, sort_key
from odoo_mcp_conformance.paths import features_dir, repo_root
from odoo_mcp_conformance.trace.mutation import MutationResults, read_mutation_results
from odoo_mcp_conformance.trace.scan import scan_code, scan_features
from odoo_mcp_conformance.trace.unit import UnitResult, read_unit_results

__all__ = ["Trace", "TraceRow", "build_trace", "check_trace", "write_trace"]

TraceStatus = Literal[
    "passing",
    "unproven",
    "unit-tested",
    "failing",
    "inconclusive",
    "untested",
    "excluded",
    "not_applicable",
    "untracked",
    "not_run",
]


class TraceRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    document: str
    keyword: str
    summary: str
    testable: bool
    status: TraceStatus
    code: tuple[str, ...]
    scenarios: tuple[str, ...]
    #: the catalogue's section of the seed document, and the decisions the row rests on
    section: str = ""
    decisions: tuple[int, ...] = ()
    #: ``path:line`` of each scenario, in the order of ``scenarios``
    scenario_locations: tuple[str, ...] = ()
    #: the marked unit tests that prove it: ``nodeid (outcome)``, parametrized cases counted
    #: under their function (``nodeid (6 passed, 1 failed)``)
    tests: tuple[str, ...] = ()
    #: the verdict of the checks taken from the seeds alone
    seed_status: str = "not_run"
    #: decisions / reference behaviour also checked, and the verdict of those checks
    other_sources: tuple[str, ...] = ()
    other_status: str = "not_run"
    #: the proof by mutation (issue 27): killed, survived, none, unobservable or not_run
    proof: str = "not_run"
    #: ``name (killed)`` per mutant of the requirement, ``name (variant passes)`` per variant
    mutants: tuple[str, ...] = ()


class MutationScore(BaseModel):
    """Per document: mutants killed of those run, seed requirements proven of the observable."""

    model_config = ConfigDict(frozen=True)

    killed: int
    mutants: int
    proven: int
    observable: int


class Trace(BaseModel):
    model_config = ConfigDict(frozen=True)

    target: str | None
    counts: dict[str, int]
    rows: tuple[TraceRow, ...]
    untagged_scenarios: tuple[str, ...]
    #: per document, and ``overall``; empty when no mutation results were given
    mutation_scores: dict[str, MutationScore] = {}


#: When several runs judge one requirement: a failure anywhere is a failure, then a pass
#: anywhere is a pass (a stdio run finds the HTTP scenarios not applicable, and vice versa).
#: A run that got no verdict on it (issue 38: inconclusive) proves nothing either way.
_PRECEDENCE: Final = ("failing", "inconclusive", "passing", "not_applicable", "not_run")


def _merge(statuses: Sequence[str]) -> str:
    for status in _PRECEDENCE:
        if status in statuses:
            return status
    return statuses[0]


class _Verdict(BaseModel):
    status: str
    seed_status: str
    other_sources: tuple[str, ...]
    other_status: str


def _results(paths: Sequence[Path]) -> tuple[str | None, dict[str, _Verdict]]:
    """The target name(s) and each requirement's verdicts over one or more kit runs."""
    if not paths:
        return None, {}
    targets: list[str] = []
    rows: dict[str, list[dict[str, object]]] = {}
    for path in paths:
        data = json.loads(path.read_text())
        targets.append(str(data["target"]))
        for row in data["requirements"]:
            rows.setdefault(row["id"], []).append(row)
    verdicts = {
        req: _Verdict(
            status=_merge([str(r["status"]) for r in found]),
            seed_status=_merge([str(r.get("seed_status", r["status"])) for r in found]),
            other_sources=tuple(
                sorted({str(s) for r in found for s in r.get("other_sources", ())})  # type: ignore[attr-defined]
            ),
            other_status=_merge([str(r.get("other_status", "untested")) for r in found]),
        )
        for req, found in rows.items()
    }
    return " + ".join(targets), verdicts


def _with_unit_tests(status: TraceStatus, tests: Sequence[UnitResult]) -> TraceStatus:
    """A failing marked test fails the requirement whatever its scenarios say;
    passing ones prove a requirement no scenario passed (skipped or xfailed prove nothing)."""
    outcomes = {test.outcome for test in tests}
    if status in ("untracked", "excluded"):
        return status
    if "failed" in outcomes:
        return "failing"
    if "passed" in outcomes and status not in ("passing", "failing", "inconclusive"):
        return "unit-tested"
    return status


def _test_labels(tests: Sequence[UnitResult]) -> tuple[str, ...]:
    """One label per test function: a parametrized test's cases are counted, not listed."""
    by_function: dict[str, Counter[str]] = {}
    for test in tests:
        by_function.setdefault(test.nodeid.split("[", 1)[0], Counter())[test.outcome] += 1
    labels = []
    for function, outcomes in sorted(by_function.items()):
        if sum(outcomes.values()) == 1:
            labels.append(f"{function} ({next(iter(outcomes))})")
        else:
            counted = ", ".join(f"{n} {outcome}" for outcome, n in sorted(outcomes.items()))
            labels.append(f"{function} ({counted})")
    return tuple(labels)


def _relative(path: Path, root: Path) -> str:
    """``path`` as the repository names it (``features``); an installed kit's bundled copy
    has no place in the repository, so it is named as the checkout names it."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.name


def build_trace(
    *,
    results: Path | Sequence[Path] | None = None,
    code_dirs: Sequence[Path] | None = None,
    unit_results: Sequence[Path] = (),
    mutation_results: Sequence[Path] = (),
) -> Trace:
    """Catalogue x docstring tags x scenario tags x (optionally) kit runs' report.json and
    the unit tests' results (``--req-results`` of the test suite).

    Several runs (e.g. the reference over stdio and over HTTP) are merged per requirement:
    failing wins, then passing.
    """
    root = repo_root()
    catalogue = load_catalogue()
    sources = list(code_dirs or [root / "src"])
    missing = [str(directory) for directory in sources if not directory.is_dir()]
    if missing:  # a trace that read no code would show every requirement unimplemented
        raise FileNotFoundError(f"no source directory at {', '.join(missing)}: pass --code DIR")
    code = scan_code(sources, root)
    scenarios = scan_features(features_dir())
    paths = [results] if isinstance(results, Path) else list(results or [])
    target, verdicts = _results(paths)
    code_by: dict[str, list[str]] = {}
    for tag in code:
        code_by.setdefault(tag.req_id, []).append(tag.location)
    scen_by: dict[str, list[str]] = {}
    where_by: dict[str, list[str]] = {}
    shown_dir = _relative(features_dir(), root)
    for scenario in scenarios:
        for req_id in scenario.requirements:
            scen_by.setdefault(req_id, []).append(scenario.label)
            where_by.setdefault(req_id, []).append(
                f"{shown_dir}/{scenario.feature}:{scenario.line}"
            )
    tests_by: dict[str, list[UnitResult]] = {}
    for test in read_unit_results(unit_results):
        for req_id in test.requirements:
            tests_by.setdefault(req_id, []).append(test)
    mutation = read_mutation_results(mutation_results)
    seeds = set(catalogue.seed_documents)
    rows: list[TraceRow] = []
    known = set(catalogue) | set(code_by) | set(scen_by) | set(tests_by)
    for req_id in sorted(known, key=sort_key):
        row = catalogue.get(req_id)
        status: TraceStatus
        verdict = verdicts.get(req_id)
        if row is None:
            status = "untracked"
        elif not row.testable:
            status = "excluded"
        elif req_id not in scen_by:
            status = "untested"
        elif target is None:
            status = "not_run"
        else:
            status = verdict.status if verdict else "not_run"  # type: ignore[assignment]
        tests = tests_by.get(req_id, [])
        status = _with_unit_tests(status, tests)
        proof = mutation.proof(req_id, bool(row and row.unobservable))
        if row is not None and row.not_in_seed and proof in ("none", "not_run"):
            proof = "not_in_seed"
        in_seed = catalogue.document_of.get(req_id) in seeds and not (row and row.not_in_seed)
        if in_seed and status == "passing" and proof in ("none", "survived"):
            status = "unproven"  # its checks pass, but no mutant shows they can fail
        rows.append(
            TraceRow(
                id=req_id,
                document=catalogue.document_of.get(req_id, "?"),
                keyword=row.keyword if row else "?",
                summary=row.summary if row else "not in the catalogue",
                testable=bool(row and row.testable),
                status=status,
                code=tuple(code_by.get(req_id, ())),
                scenarios=tuple(scen_by.get(req_id, ())),
                section=row.section if row else "",
                decisions=row.decisions if row else (),
                scenario_locations=tuple(where_by.get(req_id, ())),
                tests=_test_labels(tests),
                seed_status=verdict.seed_status if verdict and status != "excluded" else status,
                other_sources=verdict.other_sources if verdict else (),
                other_status=verdict.other_status if verdict else "not_run",
                proof=proof if row is not None and row.testable else "not_run",
                mutants=mutation.labels(req_id),
            )
        )
    return Trace(
        target=target,
        counts=dict(sorted(Counter(r.status for r in rows).items())),
        rows=tuple(rows),
        untagged_scenarios=tuple(s.label for s in scenarios if not s.requirements),
        mutation_scores=_scores(rows, mutation, seeds, catalogue.document_of)
        if mutation.ran
        else {},
    )


def _scores(
    rows: Sequence[TraceRow],
    mutation: MutationResults,
    seeds: set[str],
    document_of: dict[str, str],
) -> dict[str, MutationScore]:
    """Mutants killed per document (a mutant counts under the document of its first
    requirement), and the seed requirements proven of the observable ones."""
    docs = sorted({document_of.get(m.kills[0], "?") for m in mutation.mutants.values()} | seeds)
    exempt = {r.id for r in rows if r.proof == "not_in_seed"}
    scores: dict[str, MutationScore] = {}
    for doc in [*docs, "overall"]:
        runs = [
            m
            for m in mutation.mutants.values()
            if doc == "overall" or document_of.get(m.kills[0]) == doc
        ]
        observable = [
            r
            for r in rows
            if r.testable
            and r.proof != "unobservable"
            and r.document in seeds
            and r.id not in exempt
            and (doc == "overall" or r.document == doc)
        ]
        scores[doc] = MutationScore(
            killed=sum(m.killed for m in runs),
            mutants=len(runs),
            proven=sum(r.proof == "killed" for r in observable),
            observable=len(observable),
        )
    return scores


def check_trace(trace: Trace, documents: Sequence[str] | None = None) -> list[str]:
    """What CI refuses: a testable MUST proven neither by a passing scenario nor by passing
    unit tests, or without a code tag; ids outside the catalogue (in docstrings, scenario
    tags or test markers); scenarios without a requirement. ``documents``: the documents
    checked (``None`` or empty: all of them)."""
    problems: list[str] = []
    for row in trace.rows:
        if documents and row.document not in documents and row.status != "untracked":
            continue
        if row.status == "untracked":
            where = row.code or row.scenarios or row.tests
            problems.append(f"{row.id} is tagged but not in the catalogue: {where}")
        elif row.testable and row.keyword == "MUST":
            if row.status in ("untested", "failing", "inconclusive", "not_run"):
                problems.append(f"{row.id} (MUST) is {row.status}")
            if row.proof == "survived":
                problems.append(f"{row.id} (MUST): a mutant survived the kit: {row.mutants}")
            if not row.code:
                problems.append(f"{row.id} (MUST) is named in no docstring")
        elif row.testable and row.keyword == "SHOULD" and row.status == "untested":
            problems.append(f"{row.id} (SHOULD) has no scenario")
    problems += [f"scenario without a REQ tag: {label}" for label in trace.untagged_scenarios]
    return problems


def render_trace_markdown(trace: Trace) -> str:
    lines = [
        "# Traceability",
        "",
        f"Results from the kit run against `{trace.target}`." if trace.target else "No kit run.",
        "",
        "| Status | Requirements |",
        "|---|---|",
        *(f"| {status} | {count} |" for status, count in trace.counts.items()),
        "",
        "| REQ | Document | Keyword | Status | Code | Scenarios | Unit tests |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in trace.rows:
        code = "<br>".join(f"`{c}`" for c in row.code) or "none"
        scenarios = "<br>".join(s.replace("|", "\\|") for s in row.scenarios) or "none"
        tests = "<br>".join(f"`{t}`".replace("|", "\\|") for t in row.tests) or "none"
        lines.append(
            f"| {row.id} | {row.document} | {row.keyword} | {row.status} | {code} | {scenarios} "
            f"| {tests} |"
        )
    return "\n".join(lines) + "\n"


def write_trace(trace: Trace, directory: Path) -> None:
    """trace.json and trace.md, deterministic."""
    directory.mkdir(parents=True, exist_ok=True)
    data = trace.model_dump(mode="json")
    (directory / "trace.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    (directory / "trace.md").write_text(render_trace_markdown(trace))
