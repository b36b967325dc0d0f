"""One kit run: features x target -> raw results -> verdicts -> reports."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from odoo_mcp_conformance.baseline import load_baseline
from odoo_mcp_conformance.catalogue import load_catalogue
from odoo_mcp_conformance.control import not_the_fake
from odoo_mcp_conformance.needed_settings import unmapped_claimed_settings
from odoo_mcp_conformance.paths import features_dir
from odoo_mcp_conformance.progress import EventReader, FeatureProgress
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
    workers: int = 1,
    preload: bool = True,
) -> RunReport:
    """Run every scenario against the target and write the reports into ``report_dir``.

    With ``workers`` above one, the scenarios' server configurations are shared out among
    that many pytest processes, each with its own fake Odoo (their data never meet); the
    verdicts are the same as in one process. A given ``fake_url`` is shared state, so it
    runs in one process. ``preload`` False starts every server as a new interpreter even when
    the target names modules to preload (forkserver.py).
    """
    target = load_target(target_path)
    # issue 38: a claimed capability whose scenarios the target cannot configure is a target
    # error before anything runs, not a run of "not applicable" verdicts that exits 0
    unmapped = unmapped_claimed_settings(target, features or features_dir())
    if unmapped:
        raise RuntimeError("; ".join(unmapped))
    if fake_url and (refusal := not_the_fake(fake_url)) is not None:
        raise RuntimeError(refusal)  # issue 38: not a verdict on every scenario's set-up
    profile = profile or target.target.profile
    report_dir.mkdir(parents=True, exist_ok=True)
    raw = report_dir / "scenarios.raw.json"
    raw.unlink(missing_ok=True)
    args = [
        str(_SUITE / "test_features.py"),
        "-c", str(_SUITE / "pytest.ini"),
        "--rootdir", str(_SUITE),
        # the kit's sessions load their own plugins only: whatever else is installed
        # (hypothesis, randomly, xdist, cov...) would cost imports or reorder scenarios
        "-p", "pytest_bdd.plugin",
        "-p", "odoo_mcp_conformance.plugin",
        "--kit-target", str(target_path),
        "--kit-odoo-version", odoo_version,
        "--kit-log-dir", str(report_dir / "server-logs"),
        "--kit-profile", profile,
        "-q",
        "-o", "console_output_style=classic",
        "--no-header",
        "-rN",
        "--tb=line",
    ]  # fmt: skip
    # the kit's own progress replaces pytest's letter per test: a line per feature file;
    # without -q, the failed scenarios under it, and on a terminal a bar
    bar = not quiet and sys.stdout.isatty()
    if not quiet:
        args.append("--kit-progress-verbose")
    if fake_url:
        args += ["--kit-fake-url", fake_url]
        workers = 1
    if select:
        args += ["-k", select]
    if not preload:
        args.append("--kit-no-preload")
    features_path = str((features or features_dir()).resolve())
    if workers > 1:
        progress = FeatureProgress(_print, sources=workers, verbose=not quiet, bar=bar)
        results = _run_shards(args, raw, features_path, workers, progress)
    else:
        results = _run_here(
            [*args, "--kit-progress", "-", *(["--kit-bar"] * bar)], raw, features_path
        )
    baseline = load_baseline(baseline_path or default_baseline(target_path, target.name))
    catalogue = load_catalogue()
    report = build_report(
        target=target.name,
        odoo_version=odoo_version,
        profile=profile,
        catalogue=catalogue,
        results=results,
        baseline=baseline,
        strict=strict,
    )
    write_reports(report, report_dir, catalogue)
    return report


#: pytest's exit codes for a run that judged nothing: interrupted (a feature that does not
#: collect, e.g. an unknown tag), internal error, usage error, no scenario selected
_NOTHING_JUDGED = frozenset({2, 3, 4, 5})


def _read_results(
    raw: Path, code: int | str, *, may_be_empty: bool = False
) -> list[ScenarioResult]:
    """The scenarios' raw results; a run that judged nothing is an error, not a verdict (a
    shard may get no scenario: ``may_be_empty``)."""
    broken = int(code) in _NOTHING_JUDGED and not (may_be_empty and int(code) == 5)
    if not raw.exists() or broken:
        raise RuntimeError(f"the scenarios did not run (pytest exit code {code}): see above")
    results = [ScenarioResult.model_validate(r) for r in json.loads(raw.read_text())]
    raw.unlink()
    return results


#: the kit's pytest sessions load no plugin by entry point (the args name the two they need)
_KIT_ENV = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


def _run_here(args: list[str], raw: Path, features: str) -> list[ScenarioResult]:
    """One pytest session in this process."""
    previous = {name: os.environ.get(name) for name in _KIT_ENV}
    os.environ.update(_KIT_ENV, ODOO_MCP_KIT_FEATURES=features)
    try:
        code = pytest.main([*args, "--kit-results", str(raw)])
    finally:
        for name, value in {**previous, "ODOO_MCP_KIT_FEATURES": None}.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return _read_results(raw, code)


def _print(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def _run_shards(
    args: list[str], raw: Path, features: str, workers: int, progress: FeatureProgress
) -> list[ScenarioResult]:
    """``workers`` pytest processes side by side, each running its share of the scenarios
    (whole server configurations, so no server is started twice); their results merged.
    Their progress events are read as they come, so each feature gets one line."""
    env = {**os.environ, **_KIT_ENV, "ODOO_MCP_KIT_FEATURES": features}
    claims = raw.with_name("claims")  # claims.py: the configurations each shard took
    shutil.rmtree(claims, ignore_errors=True)
    shards = []
    readers = []
    for index in range(workers):
        shard_raw = raw.with_name(f"scenarios.{index}.raw.json")
        shard_raw.unlink(missing_ok=True)
        events = raw.with_name(f"progress.{index}.jsonl")
        events.unlink(missing_ok=True)
        readers.append(EventReader(events))
        command = [sys.executable, "-m", "pytest", *args, "--kit-results", str(shard_raw),
                   "--kit-shard", f"{index}/{workers}", "--kit-progress", str(events),
                   "--kit-claims", str(claims)]  # fmt: skip
        shards.append((subprocess.Popen(command, env=env), shard_raw, events))
    while any(process.poll() is None for process, _, _ in shards):
        for reader in readers:
            reader.feed(progress)
        time.sleep(0.2)
    for reader in readers:
        reader.feed(progress)
    progress.close()
    results: list[ScenarioResult] = []
    shutil.rmtree(claims, ignore_errors=True)
    for process, shard_raw, events in shards:
        code = process.wait()
        events.unlink(missing_ok=True)
        results += _read_results(shard_raw, code, may_be_empty=True)
    if not results:
        raise RuntimeError("no scenario was selected: see above")
    return sorted(results, key=lambda r: (r.feature, r.id))
