"""The kit runs against the reference server and the example target, shared by the tests
that judge them (run side by side: each keeps about one core busy)."""

from __future__ import annotations

import pytest
from kit_runs import ROOT, KitRun, feature_subset, run_kits

TARGETS = ROOT / "conformance" / "targets"
#: where the example target's other names and value forms matter: its mode values, its JSON
#: lists, its limit settings, and the contracts it does not claim (not applicable)
EXAMPLE_FEATURES = (
    "safety_modes.feature", "safety_lists.feature", "safety_limits_audit.feature",
    "contracts.feature",
)  # fmt: skip


@pytest.fixture(scope="session")
def full_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, KitRun]:
    return run_kits(
        {
            "reference": (TARGETS / "reference.toml", tmp_path_factory.mktemp("kit-ref"), ()),
            "example-other": (
                TARGETS / "example-other.toml",
                (example := tmp_path_factory.mktemp("kit-example")) / "report",
                ("--features", str(feature_subset(example / "features", EXAMPLE_FEATURES))),
            ),
        },
        separately=True,  # as a user runs it: its own fake, its scenarios over worker shards
    )


@pytest.fixture(scope="session")
def reference_run(full_runs: dict[str, KitRun]) -> KitRun:
    return full_runs["reference"]


@pytest.fixture(scope="session")
def example_run(full_runs: dict[str, KitRun]) -> KitRun:
    return full_runs["example-other"]
