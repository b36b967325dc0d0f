"""The kit judges an implementation it has never seen, configured by a target file alone.

``targets/example-other.toml`` describes a server with other variable names, JSON lists and
other mode values (conformance/examples/other_env_server.py, the reference underneath). It is
judged in the spec profile, so every verdict must be the reference run's verdict on its seed
checks alone, or "not applicable" (the contracts toolset it does not claim), never passed.
It runs the features where its other names and value forms matter (``EXAMPLE_FEATURES``).
"""

from __future__ import annotations

from kit_runs import KitRun


def test_example_target_gets_the_reference_verdicts_or_not_applicable(
    reference_run: KitRun, example_run: KitRun
) -> None:
    run = example_run
    reference = {row["id"]: row["seed_status"] for row in reference_run.report["requirements"]}
    statuses = run.statuses()
    assert run.report["profile"] == "spec"
    differing = {
        req: (reference[req], status)
        for req, status in statuses.items()
        if status not in (reference[req], "not_applicable", "untested")  # untested: not run
    }
    assert differing == {}, run.output[-2000:]
    counts = run.report["scenario_counts"]
    assert counts.get("not_applicable", 0) > 0  # the contracts toolset is not claimed
    assert counts.get("passed", 0) > 30  # modes, lists and limits are mapped
    assert run.returncode == 0
