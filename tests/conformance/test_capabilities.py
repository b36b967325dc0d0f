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
    # one worker: each more one costs a start-up (~6 CPU-s) and the question is not sharing
    run = run_kit(target, tmp_path / "report", "--features", str(features), "--workers", "1")
    statuses = run.statuses()
    for req in ("REQ-11-19", "REQ-11-20", "REQ-11-22", "REQ-11-23", "REQ-11-24"):
        assert statuses[req] == "failing", (req, run.output[-1500:])
    failed = [s for s in run.report["scenarios"] if s["outcome"] == "failed"]
    assert failed and all("not implemented" in s["message"] for s in failed)
    assert run.returncode == 1


def test_a_server_that_dies_at_start_up_is_reported_with_its_stderr(tmp_path: Path) -> None:
    target = tmp_path / "dies.toml"
    script = (
        "import sys, time; time.sleep(0.3); "
        "sys.stderr.write('boom: ODOO_MCP_MODE is not understood\\n'); sys.exit(2)"
    )
    target.write_text(
        '[target]\nname = "dies"\nstartup_timeout = 10\n'
        f"command = [{{python}}, '-c', {script!r}]\n".replace("{python}", '"{python}"')
        + '[capabilities]\nfeatures = ["error_logs", "resources", "prompts", "subscriptions",'
        ' "audit_log", "rate_limit"]\n'
    )
    features = tmp_path / "features"
    features.mkdir()
    shutil.copy(ROOT / "features" / "safety_annotations.feature", features)
    run = run_kit(
        target, tmp_path / "report", "--features", str(features), "-k", "every_listed",
        "--workers", "1",
    )  # fmt: skip
    failed = [s for s in run.report["scenarios"] if s["outcome"] == "failed"]
    assert failed, run.output[-1500:]
    assert all("boom: ODOO_MCP_MODE is not understood" in s["message"] for s in failed), failed
