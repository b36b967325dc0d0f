"""The kit judged by broken servers: each defect must fail exactly its requirements.

Every variant in conformance/broken_servers/ is the reference server with one defect. The kit
runs the features where that defect can show (expected.toml), in the spec profile (the one that
judges other implementations: seed expectations only), and must fail exactly the listed
requirements there, and pass every other requirement those features prove: a kit that misses
a defect, or blames the wrong requirement, fails here.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from kit_runs import (
    MUTATION_RESULTS,
    ROOT,
    Job,
    KitRun,
    runs_named,
    selected_names,
    variant_jobs,
)

from odoo_mcp_conformance.trace.mutation import write_mutation_results

BROKEN = ROOT / "conformance" / "broken_servers"
VARIANTS: dict[str, dict[str, list[str]]] = tomllib.loads((BROKEN / "expected.toml").read_text())[
    "variant"
]


def test_every_variant_has_expectations() -> None:
    variants = {path.stem for path in BROKEN.glob("*.py") if not path.stem.startswith("_")}
    # the non-interference variants are judged by their own command (test_noninterference_kit)
    judged_apart = set(tomllib.loads((BROKEN / "noninterference.toml").read_text())["variant"])
    assert variants == set(VARIANTS) | judged_apart
    assert len(variants) >= 8
    for name, spec in VARIANTS.items():
        assert spec["fails"], f"{name} should fail something: it is not broken"
        assert all((ROOT / "features" / f).exists() for f in spec["features"]), name


def proof_jobs(session: pytest.Session, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Job]:
    """The kit runs of the broken servers this session selected, for the shared pool."""
    selected = selected_names(session, "test_kit_fails_the_variant_on_exactly_its_requirements")
    chosen = {name: VARIANTS[name] for name in selected}
    jobs = variant_jobs(BROKEN, chosen, tmp_path_factory, "--profile", "spec")
    return {f"broken:{name}": job for name, job in jobs.items()}


@pytest.fixture(scope="module")
def broken_runs(proof_runs: dict[str, KitRun]) -> dict[str, KitRun]:
    runs = runs_named(proof_runs, "broken")
    if MUTATION_RESULTS:  # the hand-made broken servers are mutants too
        write_mutation_results(
            Path(MUTATION_RESULTS) / "broken-servers.json",
            mutants={n: (VARIANTS[n]["fails"], run.failing()) for n, run in runs.items()},
        )
    return runs


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_kit_fails_the_variant_on_exactly_its_requirements(
    name: str, broken_runs: dict[str, KitRun]
) -> None:
    run = broken_runs[name]
    statuses = run.statuses()
    failing = sorted(req for req, status in statuses.items() if status == "failing")
    assert failing == sorted(VARIANTS[name]["fails"]), run.output[-2000:]
    assert run.returncode == 1  # the run does not meet the (empty) baseline
    for scenario in run.report["scenarios"]:
        if scenario["outcome"] == "failed":  # each failure is blamed on the defect's REQs
            assert _blamed(scenario) & set(VARIANTS[name]["fails"]), scenario
    # a defect on every answer fails every scenario of its features (issue 36: the
    # invariants see it wherever it shows)
    everywhere = ("missing_annotations", "sends_traceback")
    assert run.report["scenario_counts"].get("passed", 0) > 0 or name in everywhere


def _blamed(scenario: dict[str, Any]) -> set[str]:
    """The requirements a failed scenario blames: its tags for its own checks, and those an
    invariant (issue 36) found broken in it, whatever its tags."""
    blamed: set[str] = set()
    for check in scenario["checks"]:
        if check["outcome"] != "failed":
            continue
        named = set(check["requirements"])
        blamed |= named or set(scenario["requirements"])
    return blamed
