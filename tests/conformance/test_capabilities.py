"""A target cannot declare a MUST away: not claiming it is not implementing it."""

from __future__ import annotations

import shutil
from pathlib import Path

from kit_runs import ROOT, run_kit


def test_a_must_capability_left_out_fails_as_not_implemented(tmp_path: Path) -> None:
    target = tmp_path / "no-audit.toml"
    target.write_text(
        f'extends = "{ROOT / "conformance" / "targets" / "reference.toml"}"\n'
        '[target]\nname = "no-audit"\nprofile = "spec"\n'
        '[capabilities]\nfeatures = ["error_logs", "resources", "prompts", "subscriptions"]\n'
    )
    features = tmp_path / "features"
    features.mkdir()
    shutil.copy(ROOT / "features" / "safety_limits_audit.feature", features)
    run = run_kit(target, tmp_path / "report", "--features", str(features))
    statuses = run.statuses()
    for req in ("REQ-11-19", "REQ-11-20", "REQ-11-22", "REQ-11-23", "REQ-11-24"):
        assert statuses[req] == "failing", (req, run.output[-1500:])
    failed = [s for s in run.report["scenarios"] if s["outcome"] == "failed"]
    assert failed and all("not implemented" in s["message"] for s in failed)
    assert run.returncode == 1
