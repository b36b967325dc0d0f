"""A kit run that judged nothing is an error (exit 2), never an empty pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from kit_runs import ROOT, run_kit

REFERENCE = ROOT / "conformance" / "targets" / "reference.toml"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_feature_that_does_not_collect_fails_the_run(tmp_path: Path, workers: str) -> None:
    features = tmp_path / "features"
    features.mkdir()
    (features / "unknown.feature").write_text(
        "@SPEC-11\nFeature: x\n  @REQ-99-99\n  Scenario: y\n    When the client lists the tools\n"
    )
    run = run_kit(REFERENCE, tmp_path / "report", "--features", str(features), "--workers", workers)
    assert run.returncode == 2, run.output[-1500:]
    assert "the scenarios did not run" in run.output
    assert not (tmp_path / "report" / "report.json").exists()
