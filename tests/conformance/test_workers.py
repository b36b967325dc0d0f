"""A kit run shared among processes gives the verdicts of a run in one process."""

from __future__ import annotations

from pathlib import Path

from kit_runs import ROOT, feature_subset, run_kits

from odoo_mcp_conformance.claims import Claims

REFERENCE = ROOT / "conformance" / "targets" / "reference.toml"
#: several server configurations (modes, lists, fresh servers) in a few dozen scenarios
FEATURES = ("safety_modes.feature", "tools_meta.feature")


def _outcomes(report: dict[str, object]) -> dict[str, str]:
    scenarios = report["scenarios"]
    assert isinstance(scenarios, list)
    return {f"{s['feature']}::{s['id']}": s["outcome"] for s in scenarios}


def test_two_workers_give_the_verdicts_of_one(tmp_path: Path) -> None:
    features = feature_subset(tmp_path / "features", FEATURES)
    runs = run_kits(
        {
            name: (REFERENCE, tmp_path / name, ("--features", str(features), "--workers", count))
            for name, count in (("one", "1"), ("two", "2"))
        },
        separately=True,  # each serves its own fake: two workers are two shard processes
    )
    one, two = runs["one"], runs["two"]
    assert one.returncode == 0, one.output[-2000:]
    assert _outcomes(two.report) == _outcomes(one.report), two.output[-2000:]
    assert two.report["requirements"] == one.report["requirements"]
    assert len(_outcomes(one.report)) >= 20
    # every scenario ran once: the shards claimed each configuration exactly once
    assert len(two.report["scenarios"]) == len(one.report["scenarios"])
    assert not (tmp_path / "two" / "claims").exists()  # the run's claims are gone with it
    # each worker served its own fake and started its own servers, in its own log directory
    shard_logs = sorted(p.name for p in (tmp_path / "two" / "server-logs").iterdir())
    assert shard_logs == ["shard-0", "shard-1"]
    assert all(any((tmp_path / "two" / "server-logs" / s).iterdir()) for s in shard_logs)


def test_a_configuration_is_claimed_once(tmp_path: Path) -> None:
    first, second = Claims(tmp_path / "claims"), Claims(tmp_path / "claims")
    assert first.take(('the server runs in "full" mode',))
    assert not second.take(('the server runs in "full" mode',))
    assert not first.take(('the server runs in "full" mode',))
    assert second.take(())
    assert second.take(('the server runs in "readonly" mode',))
