"""One kit run: features x target -> raw results -> verdicts -> reports."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from odoo_mcp_conformance.baseline import load_baseline
from odoo_mcp_conformance.catalogue import load_catalogue
from odoo_mcp_conformance.paths import features_dir
from odoo_mcp_conformance.report import RunReport, ScenarioResult, build_report, write_reports
from odoo_mcp_conformance.target import load_target

__all__ = ["default_baseline", "run_kit"]

_SUITE = Path(__file__).resolve().parent / "suite"


def default_baseline(target_path: Path, target_name: str) -> Path:
    """``<targets dir>/../baselines/<target name>.toml``."""
    return target_path.resolve().parent.parent / "baselines" / f"{target_name}.toml"


def run_kit(
    target_path: Path,
    report_dir: Path,
    *,
    baseline_path: Path | None = None,
    strict: bool = False,
    odoo_version: str = "19.0",
    features: Path | None = None,
    select: str | None = None,
    fake_url: str | None = None,
    quiet: bool = False,
    profile: str | None = None,
) -> RunReport:
    """Run every scenario against the target and write the reports into ``report_dir``."""
    target = load_target(target_path)
    profile = profile or target.target.profile
    report_dir.mkdir(parents=True, exist_ok=True)
    raw = report_dir / "scenarios.raw.json"
    raw.unlink(missing_ok=True)
    args = [
        str(_SUITE / "test_features.py"),
        "-c", str(_SUITE / "pytest.ini"),
        "--rootdir", str(_SUITE),
        "-p", "odoo_mcp_conformance.plugin",
        "--kit-target", str(target_path),
        "--kit-odoo-version", odoo_version,
        "--kit-results", str(raw),
        "--kit-log-dir", str(report_dir / "server-logs"),
        "--kit-profile", profile,
        "-q" if quiet else "-v",
        "--no-header",
        "-rN",
        "--tb=line",
    ]  # fmt: skip
    if fake_url:
        args += ["--kit-fake-url", fake_url]
    if select:
        args += ["-k", select]
    previous = os.environ.get("ODOO_MCP_KIT_FEATURES")
    os.environ["ODOO_MCP_KIT_FEATURES"] = str((features or features_dir()).resolve())
    try:
        code = pytest.main(args)
    finally:
        if previous is None:
            os.environ.pop("ODOO_MCP_KIT_FEATURES", None)
        else:
            os.environ["ODOO_MCP_KIT_FEATURES"] = previous
    if not raw.exists():
        raise RuntimeError(f"the scenarios did not run (pytest exit code {code}): see above")
    results = [ScenarioResult.model_validate(r) for r in json.loads(raw.read_text())]
    raw.unlink()
    baseline = load_baseline(baseline_path or default_baseline(target_path, target.name))
    report = build_report(
        target=target.name,
        odoo_version=odoo_version,
        profile=profile,
        catalogue=load_catalogue(),
        results=results,
        baseline=baseline,
        strict=strict,
    )
    write_reports(report, report_dir)
    return report
