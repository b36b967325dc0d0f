"""The kit judged by broken servers: each defect must fail exactly its requirements.

Every variant in conformance/broken_servers/ is the reference server with one defect. The kit
must fail it on the requirements listed in expected.toml and on nothing else, and agree with
the reference run everywhere else: a kit that misses a defect, or blames the wrong
requirement, fails here. The runs go two at a time (the CI machine has two cores).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from kit_runs import ROOT, KitRun, run_kit

BROKEN = ROOT / "conformance" / "broken_servers"
EXPECTED: dict[str, list[str]] = tomllib.loads((BROKEN / "expected.toml").read_text())["fails"]


@pytest.fixture(scope="module")
def broken_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, KitRun]]:
    base = tmp_path_factory.mktemp("kit-broken")
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            name: pool.submit(run_kit, BROKEN / f"{name}.toml", base / name)
            for name in sorted(EXPECTED)
        }
        yield {name: future.result() for name, future in futures.items()}


def test_every_variant_has_expectations() -> None:
    variants = {path.stem for path in BROKEN.glob("*.py") if not path.stem.startswith("_")}
    assert variants == set(EXPECTED)
    assert len(variants) >= 8
    assert all(EXPECTED.values()), "a variant that should fail nothing is not broken"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_kit_fails_the_variant_on_exactly_its_requirements(
    name: str, broken_runs: dict[str, KitRun], reference_run: KitRun
) -> None:
    run = broken_runs[name]
    statuses = run.statuses()
    failing = sorted(req for req, status in statuses.items() if status == "failing")
    assert failing == sorted(EXPECTED[name]), run.output[-2000:]
    assert run.returncode == 1  # the run does not meet the (empty) baseline
    reference = reference_run.statuses()
    differences = {
        req: (reference[req], status)
        for req, status in statuses.items()
        if req not in EXPECTED[name] and status != reference[req]
    }
    assert differences == {}
