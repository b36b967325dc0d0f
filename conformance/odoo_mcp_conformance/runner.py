"""One kit run: features x target -> raw results -> verdicts -> reports."""

from __future__ import annotations

import contextlib
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
from odoo_mcp_conformance.control import ControlError, not_the_fake
from odoo_mcp_conformance.needed_settings import unmapped_claimed_settings
from odoo_mcp_conformance.paths import features_dir
from odoo_mcp_conformance.progress import EventReader, FeatureProgress
from odoo_mcp_conformance.real_odoo import RealOdoo
from odoo_mcp_conformance.report import RunReport, ScenarioResult, build_report, write_reports
from odoo_mcp_conformance.target import load_target
from odoo_mcp_conformance.timing import ENV as TIME_SCALE_ENV
from odoo_mcp_conformance.timing import calibrate

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
    time_scale: float | None = None,
    odoo_url: str | None = None,
    odoo_db: str = "",
) -> RunReport:
    """Run every scenario against the target and write the reports into ``report_dir``.

    With ``workers`` above one, the scenarios' server configurations are shared out among
    that many pytest processes, each with its own fake Odoo (their data never meet); the
    verdicts are the same as in one process. A given ``fake_url`` is shared state, so it
    runs in one process. ``preload`` False starts every server as a new interpreter even when
    the target names modules to preload (forkserver.py).

    Issue 38: every wait is scaled by ``time_scale`` (measured here when None: timing.py), and
    the scenarios left inconclusive (no answer to judge) run once more, alone, at the end; a
    retry's result replaces the first one and says so. ``odoo_url``: a real Odoo (its users
    from the environment: real_odoo.py) instead of the fake; one process, since every
    scenario meets the same database.
    """
    target = load_target(target_path)
    # issue 38: a claimed capability whose scenarios the target cannot configure is a target
    # error before anything runs, not a run of "not applicable" verdicts that exits 0
    unmapped = unmapped_claimed_settings(target, features or features_dir())
    if unmapped:
        raise RuntimeError("; ".join(unmapped))
    if fake_url and (refusal := not_the_fake(fake_url)) is not None:
        raise RuntimeError(refusal)  # issue 38: not a verdict on every scenario's set-up
    if odoo_url:
        odoo_version = _real_odoo_version(odoo_url, odoo_db)
    profile = profile or target.target.profile
    scale = calibrate() if time_scale is None else max(time_scale, 1.0)
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
        # pytest's unraisable-exception hook collects garbage at every session's end: 0.3 s
        # a session in a kit batch's big heap, and a kit verdict never rests on it
        "-p", "no:unraisableexception",
        "--kit-target", str(target_path),
        "--kit-odoo-version", odoo_version,
        "--kit-log-dir", str(report_dir / "server-logs"),
        "--kit-profile", profile,
        # -qqq: not even pytest's count line (the kit prints its own summary)
        "-qqq",
        "-o", "console_output_style=classic",
        "--no-header",
        "-rN",
        # issue 38: the kit's own lines say what failed and why; pytest's tracebacks and
        # captured logs (the fake's, by the hundred) stay off the terminal
        "--tb=no",
        "--show-capture=no",
    ]  # fmt: skip
    # the kit's own progress replaces pytest's letter per test: a line per scenario (with
    # -q, only those that failed or were inconclusive), an estimate, and on a terminal a bar
    bar = not quiet and sys.stdout.isatty()
    if not quiet:
        args.append("--kit-progress-verbose")
    if fake_url:
        args += ["--kit-fake-url", fake_url]
        workers = 1
    if odoo_url:
        args += ["--kit-odoo-url", odoo_url, "--kit-odoo-db", odoo_db]
        workers = 1
    if select:
        args += ["-k", select]
    if not preload:
        args.append("--kit-no-preload")
    features_path = str((features or features_dir()).resolve())
    env = {**_KIT_ENV, "ODOO_MCP_KIT_FEATURES": features_path, TIME_SCALE_ENV: str(scale)}
    if scale > 1:
        _print(f"this machine is busy: every wait of the kit is scaled by {scale:g}\n")
    progress = FeatureProgress(_print, sources=max(workers, 1), verbose=not quiet, bar=bar)
    try:
        if workers > 1:
            results = _run_shards(args, raw, env, workers, progress, report_dir)
        else:
            results = _run_here(args, raw, env, progress)
        results = _retry_inconclusive(args, raw, env, progress, results)
    finally:
        progress.close()
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
        time_scale=scale,
    )
    write_reports(report, report_dir, catalogue)
    return report


def _real_odoo_version(url: str, db: str) -> str:
    """The real Odoo's version, once both users have logged in: a wrong URL, database or
    credential stops the run in one line (exit 2), not every scenario in its set-up."""
    try:
        with RealOdoo.from_environment(url, db) as odoo:
            return str(odoo.info()["version"])
    except (ValueError, ControlError) as exc:
        raise RuntimeError(f"--odoo-url {url}: {exc}") from exc


def _retry_inconclusive(
    args: list[str],
    raw: Path,
    env: dict[str, str],
    progress: FeatureProgress,
    results: list[ScenarioResult],
) -> list[ScenarioResult]:
    """Issue 38: the scenarios without a verdict, run once more in this process (the run's
    other workers done, so the machine is at its quietest); their second result stands."""
    lost = [r for r in results if r.outcome == "inconclusive"]
    if not lost:
        return results
    _print(f"retrying {len(lost)} inconclusive scenario(s) once\n")
    node_ids = [f"{_SUITE / 'test_features.py'}::{r.id}" for r in lost]
    # the first run's -k no longer applies: the node ids name exactly what runs again
    base = [a for i, a in enumerate(args) if a != "-k" and (i == 0 or args[i - 1] != "-k")]
    again = {r.id: r for r in _run_here([*base[1:], "--kit-retry", *node_ids], raw, env,
                                        progress)}  # fmt: skip
    return [again.get(r.id, r) if r.outcome == "inconclusive" else r for r in results]


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
        raise RuntimeError(
            f"the scenarios did not run (pytest exit code {code}): see above, or the "
            "worker-N.log files in the report directory"
        )
    results = [ScenarioResult.model_validate(r) for r in json.loads(raw.read_text())]
    raw.unlink()
    return results


#: the kit's pytest sessions load no plugin by entry point (the args name the two they need)
_KIT_ENV = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


def _run_here(
    args: list[str], raw: Path, env: dict[str, str], progress: FeatureProgress
) -> list[ScenarioResult]:
    """One pytest session in this process, its progress fed to ``progress``."""
    previous = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        code = pytest.main([*args, "--kit-results", str(raw)], plugins=[_ProgressTo(progress)])
    finally:
        for name, value in previous.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return _read_results(raw, code)


class _ProgressTo:
    """Hands a session the run's progress (plugin.py feeds it instead of its own)."""

    def __init__(self, progress: FeatureProgress) -> None:
        self.progress = progress

    @pytest.hookimpl(tryfirst=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        # imported here, once pytest has (with its assertion rewriting) through ``-p``
        from odoo_mcp_conformance.plugin import PROGRESS_KEY

        config.stash[PROGRESS_KEY] = self.progress


def _print(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def _run_shards(
    args: list[str],
    raw: Path,
    kit_env: dict[str, str],
    workers: int,
    progress: FeatureProgress,
    report_dir: Path,
) -> list[ScenarioResult]:
    """``workers`` pytest processes side by side, each running its share of the scenarios
    (whole server configurations, so no server is started twice); their results merged.
    Their progress events are read as they come (one line per scenario, whichever shard ran
    it); their own pytest output goes to ``worker-N.log`` in the report directory, not the
    terminal."""
    env = {**os.environ, **kit_env}
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
        log = (report_dir / f"worker-{index}.log").open("wb")
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        log.close()  # the child holds its own copy
        shards.append((process, shard_raw, events))
    try:
        while any(process.poll() is None for process, _, _ in shards):
            for reader in readers:
                reader.feed(progress)
            time.sleep(0.2)
    finally:  # Ctrl-C: the shards get it too (same process group); wait for them briefly
        for process, _, _ in shards:
            if process.poll() is None:
                process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=10)
                if process.poll() is None:
                    process.kill()
    for reader in readers:
        reader.feed(progress)
    results: list[ScenarioResult] = []
    shutil.rmtree(claims, ignore_errors=True)
    for process, shard_raw, events in shards:
        code = process.wait()
        events.unlink(missing_ok=True)
        results += _read_results(shard_raw, code, may_be_empty=True)
    if not results:
        raise RuntimeError("no scenario was selected: see above")
    return sorted(results, key=lambda r: (r.feature, r.id))
