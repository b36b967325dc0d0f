"""The kit proven by mutation (issue 27): every seed requirement has a mutant it kills.

Each mutant in conformance/mutants/ is the reference server with one defect against one seed
sentence. The kit's spec profile (seed expectations only) runs the scenarios tagged with the
requirements the mutant must fail, and must fail exactly those: a surviving mutant is a check
too weak to judge another implementation, a requirement failed besides is a check blaming
the wrong sentence. Every requirement of a seed document with behaviour observable on the
wire has a mutant, or its catalogue row says why it has none (``unobservable``).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest
from kit_runs import (
    MUTATION_RESULTS,
    ROOT,
    Job,
    KitRun,
    mutant_jobs,
    runs_named,
    selected_names,
    tagged_scenarios,
    tagging,
)

from odoo_mcp_conformance.catalogue import load_catalogue
from odoo_mcp_conformance.trace.mutation import write_mutation_results

sys.path.insert(0, str(ROOT / "conformance" / "mutants"))
from registry import Mutant, all_mutants

MUTANTS: dict[str, Mutant] = all_mutants()
CATALOGUE = load_catalogue()


def test_every_mutant_names_requirements_of_the_catalogue() -> None:
    for mutant in MUTANTS.values():
        unknown = [req for req in mutant.kills if req not in CATALOGUE]
        assert not unknown, f"{mutant.name} kills unknown requirements {unknown}"
        assert all(CATALOGUE[req].testable for req in mutant.kills), mutant.name


def killed_requirements() -> set[str]:
    """What the mutants and the hand-made broken servers (../broken_servers) must fail."""
    return {req for mutant in MUTANTS.values() for req in mutant.kills} | broken_server_kills()


def test_every_observable_seed_requirement_has_a_mutant() -> None:
    killed = killed_requirements()
    seeds = set(CATALOGUE.seed_documents)
    missing = [
        req
        for req in CATALOGUE
        if CATALOGUE.document_of[req] in seeds
        and CATALOGUE[req].testable
        and not CATALOGUE[req].unobservable
        and not CATALOGUE[req].not_in_seed
        and req not in killed
    ]
    assert missing == []
    for req in CATALOGUE:
        if CATALOGUE[req].unobservable:
            assert req not in killed, f"{req} says it is unobservable yet a mutant kills it"


def proof_jobs(session: pytest.Session, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Job]:
    """The kit runs of the mutants this session selected (``-k name`` runs one), for the
    session's shared pool (conftest.py ``proof_runs``)."""
    selected = selected_names(session, "test_kit_kills_the_mutant_on_exactly_its_requirements")
    jobs = mutant_jobs({n: MUTANTS[n] for n in selected}, tmp_path_factory)
    return {f"mutant:{name}": job for name, job in jobs.items()}


@pytest.fixture(scope="module")
def mutant_runs(proof_runs: dict[str, KitRun]) -> dict[str, KitRun]:
    runs = runs_named(proof_runs, "mutant")
    if MUTATION_RESULTS:  # a directory: the trace reads every file in it
        write_mutation_results(
            Path(MUTATION_RESULTS) / "mutants.json",
            mutants={name: (MUTANTS[name].kills, run.failing()) for name, run in runs.items()},
        )
    return runs


def broken_server_kills() -> set[str]:
    """What the hand-made broken servers fail (they run in every form of the suite)."""
    broken = tomllib.loads((ROOT / "conformance/broken_servers/expected.toml").read_text())
    return {req for spec in broken["variant"].values() for req in spec["fails"]}


#: a run's own cost, in scenarios: a batch's kit session, a server started, the fake reset
#: (about 0.5 CPU-s, against about 0.1 a scenario)
RUN_COST = 5


def covering(mutants: dict[str, Mutant], killed_already: set[str]) -> list[str]:
    """A cheap set of mutants that kill every requirement a mutant kills, ``killed_already``
    aside: greedy, the lowest cost per requirement not yet killed first (the cost: a run's
    own and its scenarios', kit_runs.tagged_scenarios), then by name, so every run picks the
    same list. By count alone the cover ran 509 scenarios; by cost it runs about 360."""
    cost = {
        name: RUN_COST + tagged_scenarios(m.features or tagging(m.kills), m.selection)
        for name, m in mutants.items()
    }
    left = {req for mutant in mutants.values() for req in mutant.kills} - killed_already
    chosen: list[str] = []
    while left:
        best = min(
            sorted(mutants),
            key=lambda name: cost[name] / (len(left & set(mutants[name].kills)) or 0.001),
        )
        chosen.append(best)
        left -= set(mutants[best].kills)
    return sorted(chosen)


def test_a_mutants_cost_counts_the_scenarios_its_selection_runs(tmp_path: Path) -> None:
    (tmp_path / "a.feature").write_text(
        "@REQ-04-01\nFeature: a\n  Scenario: one\n    Given x\n"
        "  @REQ-04-02\n  Scenario Outline: two <n>\n    Given <n>\n"
        "    Examples:\n      | n |\n      | 1 |\n      | 2 |\n"
        "    @REQ-04-03\n    Examples:\n      | n |\n      | 3 |\n"
    )
    assert tagged_scenarios(["a.feature"], "REQ-04-01", tmp_path) == 4  # the feature's tag
    assert tagged_scenarios(["a.feature"], "REQ-04-02", tmp_path) == 3  # each example row
    assert tagged_scenarios(["a.feature"], "REQ-04-03", tmp_path) == 1  # one table's rows
    assert tagged_scenarios(["a.feature"], "REQ-04-09", tmp_path) == 0
    assert tagged_scenarios(["a.feature"], "REQ-04-01 and one", tmp_path) == 4  # at most 5
    assert tagged_scenarios(["a.feature"], "one", tmp_path) == 1  # a name picks a few


#: the mutants run. The README's command (the CI-cheap form) runs a cover: every requirement
#: any mutant kills is killed there by one of them or by a broken server (95 of 158 mutants,
#: chosen by cost: 355 scenarios); where the trace's mutation results are written (``tox -e
#: mutation``, ``tox -e docs``), every mutant, each a facet of its sentence the kit must catch.
RUN = sorted(MUTANTS) if MUTATION_RESULTS else covering(MUTANTS, broken_server_kills())


def test_the_ci_form_kills_every_requirement_the_mutants_kill() -> None:
    every = {req for mutant in MUTANTS.values() for req in mutant.kills}
    run = {req for name in RUN for req in MUTANTS[name].kills}
    assert every <= run | broken_server_kills()
    assert len(RUN) < len(MUTANTS) or MUTATION_RESULTS


@pytest.mark.parametrize("name", RUN)
def test_kit_kills_the_mutant_on_exactly_its_requirements(
    name: str, mutant_runs: dict[str, KitRun]
) -> None:
    run = mutant_runs[name]
    assert run.failing() == sorted(MUTANTS[name].kills), run.output[-3000:]
    assert run.report["profile"] == "spec"
