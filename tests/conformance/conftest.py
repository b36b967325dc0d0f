"""The kit runs against the reference server and the example target, shared by the tests
that judge them (run side by side: each keeps about one core busy)."""

from __future__ import annotations

import sys

import pytest
from kit_runs import ROOT, Job, KitRun, feature_subset, run_kits

TARGETS = ROOT / "conformance" / "targets"
#: where the example target's other names and value forms matter: its mode values, its JSON
#: lists, its limit settings, and the contracts it does not claim (not applicable)
EXAMPLE_FEATURES = (
    "safety_modes.feature", "safety_lists.feature", "safety_limits_audit.feature",
    "contracts.feature",
)  # fmt: skip
#: where Odoo versions differ (protocols, error texts, method signatures): the reference is
#: also judged against a fake Odoo 17.0 there (issue 28)
VERSION_FEATURES = (
    "connection.feature", "errors.feature", "error_patterns.feature",
    "tools_execute.feature", "tools_meta.feature",
)  # fmt: skip
OTHER_ODOO_VERSIONS = ("17.0",)


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
            **{
                f"reference@{version}": (
                    TARGETS / "reference.toml",
                    (base := tmp_path_factory.mktemp(f"kit-ref-{version}")) / "report",
                    (
                        "--odoo-version",
                        version,
                        "--features",
                        str(feature_subset(base / "features", VERSION_FEATURES)),
                    ),
                )
                for version in OTHER_ODOO_VERSIONS
            },
        },
        separately=True,  # as a user runs it: its own fake, its scenarios over worker shards
    )


@pytest.fixture(scope="session")
def reference_run(full_runs: dict[str, KitRun]) -> KitRun:
    return full_runs["reference"]


@pytest.fixture(scope="session")
def other_version_runs(full_runs: dict[str, KitRun]) -> dict[str, KitRun]:
    """The reference judged against each other fake Odoo version, by version."""
    return {version: full_runs[f"reference@{version}"] for version in OTHER_ODOO_VERSIONS}


@pytest.fixture(scope="session")
def example_run(full_runs: dict[str, KitRun]) -> KitRun:
    return full_runs["example-other"]


#: the modules whose kit runs prove the kit both ways, each with ``proof_jobs(session,
#: tmp_path_factory)``: its selected runs, named ``<prefix>:<name>``
PROOF_MODULES = ("test_conformant_servers", "test_broken_servers", "test_mutants")


@pytest.fixture(scope="session")
def proof_runs(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, KitRun]:
    """Every conformant variant, broken server and mutant the session selected, in one pool
    of worker processes, the longest first (all_choices, then the variants' whole features,
    then the scoped runs): three pools one after the other each waited for their slowest
    worker, two thirds of a CI minute."""
    import importlib

    jobs: dict[str, Job] = {}
    for name in PROOF_MODULES:
        module = sys.modules.get(name) or importlib.import_module(name)
        jobs.update(module.proof_jobs(request.session, tmp_path_factory))
    return run_kits(jobs)
