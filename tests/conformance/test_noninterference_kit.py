"""The kit's non-interference command, proven both ways (issue 26, decision 39).

The reference server answers alike on two fake Odoo databases that differ only in blocked
data, in every mode and as both demo users; each broken server of
``conformance/broken_servers/noninterference.toml`` leaks through one channel (a groupby
string, an aggregate spec, an order through odoo_core_execute, a relational name search, a
derived field) and must fail exactly its listed requirements. CI runs the fixed probes (the
known oracles); ``bench/noninterference.py`` and ``--examples`` run the generated calls.
"""

from __future__ import annotations

import json
import subprocess
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from kit_runs import KIT, ROOT

BROKEN = ROOT / "conformance" / "broken_servers"
VARIANTS: dict[str, dict[str, list[str]]] = tomllib.loads(
    (BROKEN / "noninterference.toml").read_text()
)["variant"]


def _run(target: Path, report_dir: Path, *extra: str) -> tuple[int, dict[str, Any], str]:
    done = subprocess.run(
        [*KIT, "noninterference", "--target", str(target), "--report-dir", str(report_dir),
         "--examples", "0", *extra],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    report = json.loads((report_dir / "noninterference.json").read_text())
    return done.returncode, report, done.stdout[-3000:] + done.stderr[-2000:]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, dict[str, Any], str]]:
    """The reference in every mode and as both users; each variant in full mode as admin."""
    jobs = {"reference": (ROOT / "conformance" / "targets" / "reference.toml", ())}
    for name in VARIANTS:
        jobs[name] = (BROKEN / f"{name}.toml", ("--modes", "full", "--users", "admin"))
    with ThreadPoolExecutor(3) as pool:
        futures = {
            name: pool.submit(_run, target, tmp_path_factory.mktemp(name), *extra)
            for name, (target, extra) in jobs.items()
        }
        return {name: future.result() for name, future in futures.items()}


def test_every_noninterference_variant_has_a_target_and_a_defect() -> None:
    for name, spec in VARIANTS.items():
        assert (BROKEN / f"{name}.py").exists() and (BROKEN / f"{name}.toml").exists(), name
        assert spec["fails"], name


def test_the_reference_answers_alike_on_both_twins(
    runs: dict[str, tuple[int, dict[str, Any], str]],
) -> None:
    code, report, output = runs["reference"]
    assert report["passed"] and code == 0, output
    assert report["calls"] >= 6 * 25 and not report["leaks"] and not report["skipped"]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_each_leaking_variant_fails_exactly_its_requirements(
    name: str, runs: dict[str, tuple[int, dict[str, Any], str]]
) -> None:
    code, report, output = runs[name]
    assert code == 1, output
    assert sorted(report["failing_requirements"]) == sorted(VARIANTS[name]["fails"]), output
