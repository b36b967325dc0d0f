"""The kit against the reference server on a fake Odoo 17.0, where versions differ (issue 28).

The features whose scenarios depend on the Odoo version (connection, errors, error patterns,
execute, metadata tools) run against a fake of each other version the fake imitates from
captures (``conftest.OTHER_ODOO_VERSIONS``). Every scenario passes or is not applicable, and
a not-applicable row says which version lacks what.
"""

from __future__ import annotations

import re

import pytest
from kit_runs import KitRun

from conftest import OTHER_ODOO_VERSIONS, VERSION_FEATURES

#: how the kit words a scenario another version cannot run: the version, then what it lacks
#: or does otherwise (world.py, steps/connection.py, steps/read.py)
WHY_NOT_APPLICABLE = re.compile(
    r"Odoo (?P<run>\d+\.\d+)(?: has no |'s )(?P<what>.+)"
    r"|the run's Odoo is (?P<run2>\d+\.\d+), not (?P<wanted>\d+)"
)


@pytest.mark.parametrize("version", OTHER_ODOO_VERSIONS)
def test_the_reference_passes_on_every_captured_version(
    other_version_runs: dict[str, KitRun], version: str
) -> None:
    run = other_version_runs[version]
    report = run.report
    assert report["odoo_version"] == version
    assert report["unexpected_failures"] == [], run.output[-3000:]
    assert run.returncode == 0, run.output[-3000:]
    outcomes = [scenario["outcome"] for scenario in report["scenarios"]]
    assert "failed" not in outcomes
    assert outcomes.count("passed") >= 100
    features = {scenario["feature"] for scenario in report["scenarios"]}
    assert features == set(VERSION_FEATURES)


@pytest.mark.parametrize("version", OTHER_ODOO_VERSIONS)
def test_each_not_applicable_row_names_the_version_and_what_it_lacks(
    other_version_runs: dict[str, KitRun], version: str
) -> None:
    rows = [s for s in other_version_runs[version].report["scenarios"]]
    skipped = [s for s in rows if s["outcome"] == "not_applicable"]
    assert skipped, "17.0 has no JSON-2: some scenarios must be not applicable"
    for scenario in skipped:
        match = WHY_NOT_APPLICABLE.fullmatch(scenario["message"])
        assert match, f"{scenario['id']}: {scenario['message']!r} names no version"
        assert version in (match["run"], match["run2"]), scenario["message"]
