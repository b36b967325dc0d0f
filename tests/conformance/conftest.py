"""The kit runs against the reference server and the example target, shared by the tests
that judge them (run side by side: each keeps about one core busy)."""

from __future__ import annotations

import pytest
from kit_runs import ROOT, KitRun, run_kits

TARGETS = ROOT / "conformance" / "targets"


@pytest.fixture(scope="session")
def full_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, KitRun]:
    return run_kits(
        {
            "reference": (TARGETS / "reference.toml", tmp_path_factory.mktemp("kit-ref"), ()),
            "example-other": (
                TARGETS / "example-other.toml",
                tmp_path_factory.mktemp("kit-example"),
                (),
            ),
        }
    )


@pytest.fixture(scope="session")
def reference_run(full_runs: dict[str, KitRun]) -> KitRun:
    return full_runs["reference"]


@pytest.fixture(scope="session")
def example_run(full_runs: dict[str, KitRun]) -> KitRun:
    return full_runs["example-other"]
