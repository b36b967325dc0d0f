"""One kit run against the reference server, shared by the tests that judge it."""

from __future__ import annotations

import pytest
from kit_runs import ROOT, KitRun, run_kit


@pytest.fixture(scope="session")
def reference_run(tmp_path_factory: pytest.TempPathFactory) -> KitRun:
    return run_kit(
        ROOT / "conformance" / "targets" / "reference.toml",
        tmp_path_factory.mktemp("kit-reference"),
    )
