"""Issue 38: a loaded machine decides no verdict. The kit runs the scenarios that flipped on a
busy runner (start-up refusals, Odoo timeouts, servers started fresh) with a burner per core
plus one beside it: the reference still fails nothing. The long form, three full runs, is
``tox -e kit-load`` (bench/kit_under_load.py)."""

from __future__ import annotations

from pathlib import Path

from kit_runs import ROOT, feature_subset, run_kit

from cpu_load import burners

REFERENCE = ROOT / "conformance" / "targets" / "reference.toml"
#: where issue 38's loaded runs saw false verdicts: a start-up refusal counted as a start
#: (REQ-11-28/29, REQ-01-24), Odoo too slow for a server's start-up (REQ-10-08/15)
FLIPPED = ("configuration.feature", "errors_network.feature")
#: in those files, the scenarios that flipped: refusals to start, a signal during a call, an
#: Odoo that answers too late (the CI-cheap form: the full run is ``tox -e kit-load``)
SELECTED = "stops_the_start or every_problem or call_in_flight or does_not_answer_in_time"


def test_the_kit_under_cpu_load_fails_nothing_on_the_reference(tmp_path: Path) -> None:
    features = feature_subset(tmp_path / "features", FLIPPED)
    with burners() as load:
        run = run_kit(REFERENCE, tmp_path / "report", "--features", str(features), "-k", SELECTED)
        loaded_throughout = load.all_spinning()
    report = run.report
    failed = [s for s in report["scenarios"] if s["outcome"] == "failed"]
    lost = [s for s in report["scenarios"] if s["outcome"] == "inconclusive"]
    assert not failed, (load.count, [f"{s['scenario']}: {s['message'][:300]}" for s in failed])
    assert run.returncode in (0, 3), run.output[-2000:]  # 3: inconclusive, never a verdict
    # the load was real from the kit's first measure (``burners`` returns once every burner
    # spins) to its end; the scale it measured is not asserted: it is a ratio to a quiet
    # machine of CI's class, and a faster machine under this load can measure under it
    assert loaded_throughout
    assert len(report["scenarios"]) >= 8
    print(f"under {load.count} burners: scale {report['time_scale']}, {len(lost)} inconclusive")
