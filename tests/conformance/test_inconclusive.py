"""Issue 38: a step that gets no answer in time is no verdict. The scenario is inconclusive,
runs once more, and the retry's verdict stands; inconclusive twice, the run says so (exit 3)
and no requirement passes or fails on it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import httpx2
import pytest
from kit_runs import feature_subset, run_kit
from mcp import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

from odoo_mcp_conformance.cli import INCONCLUSIVE_EXIT
from odoo_mcp_conformance.inconclusive import ServerDidNotStart, cause_of, judge_exits
from odoo_mcp_conformance.report import judge
from odoo_mcp_conformance.sources import SEED, Check

FLAKY = Path(__file__).resolve().parent / "flaky_servers"
COUNT = "count without a domain counts every record"


def _target(tmp_path: Path, mode: str) -> Path:
    """The slow_count server, its marker in ``tmp_path`` (a fresh flake per test)."""
    target = tmp_path / "flaky.toml"
    target.write_text(
        f'extends = "{FLAKY / "slow_count.toml"}"\n\n[target]\n'
        f'command = ["{{python}}", "{FLAKY / "slow_count.py"}"]\n\n[env]\n'
        f'FLAKE_MARKER = "{tmp_path / "flaked"}"\nFLAKE = "{mode}"\n'
    )
    return target


def _run(tmp_path: Path, mode: str) -> tuple[int, str, dict[str, object]]:
    features = feature_subset(tmp_path / "features", ["tools_read.feature"])
    run = run_kit(
        _target(tmp_path, mode), tmp_path / "report", "--features", str(features),
        "--workers", "1", "--time-scale", "1", "-k", "count_without_a_domain",
    )  # fmt: skip
    scenario = next(s for s in run.report["scenarios"] if s["scenario"] == COUNT)
    return run.returncode, run.output, scenario


def test_a_hang_once_is_retried_and_the_retry_decides(tmp_path: Path) -> None:
    code, output, scenario = _run(tmp_path, "once")
    assert (tmp_path / "flaked").exists()  # the first run did hang
    assert "retrying 1 inconclusive scenario(s) once" in output
    assert scenario["outcome"] == "passed", scenario
    assert scenario["retried"] is True
    assert code == 0, output[-2000:]


def test_a_hang_every_time_is_inconclusive_never_a_verdict(tmp_path: Path) -> None:
    code, output, scenario = _run(tmp_path, "always")
    assert scenario["outcome"] == "inconclusive", scenario
    assert "no answer in time" in str(scenario["message"])
    assert "server-logs/server-" in str(scenario["message"])  # where its stderr went
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    statuses = {row["id"]: row["status"] for row in report["requirements"]}
    assert statuses["REQ-04-20"] == "inconclusive"
    assert "failing" not in statuses.values()
    assert code == INCONCLUSIVE_EXIT, output[-2000:]
    assert "INCONCLUSIVE: REQ-04-20" in output
    assert "Incomplete run" in (tmp_path / "report" / "report.md").read_text()


def test_a_server_that_ends_under_a_call_fails_and_only_there(tmp_path: Path) -> None:
    """Over stdio a closed connection is the server's process ending: a failure, not a flake;
    the scenarios after it get a new server."""
    features = feature_subset(tmp_path / "features", ["tools_read.feature"])
    run = run_kit(
        _target(tmp_path, "exit"), tmp_path / "report", "--features", str(features),
        "--workers", "1", "--time-scale", "1",
        "-k", "count_without_a_domain or count_returns_the_number",
    )  # fmt: skip
    outcomes = {s["scenario"]: s for s in run.report["scenarios"]}
    failed = [s for s in outcomes.values() if s["outcome"] == "failed"]
    assert len(failed) == 1, [s["scenario"] for s in failed]
    assert "closed its stdio connection" in failed[0]["message"]
    assert not failed[0]["retried"]
    assert len(outcomes) > 1 and all(
        s["outcome"] == "passed" for s in outcomes.values() if s is not failed[0]
    )
    assert run.returncode == 1, run.output[-2000:]


@pytest.mark.parametrize(
    ("exc", "cause"),
    [
        (httpx2.ReadError("reset"), "lost the connection (ReadError: reset)"),
        (httpx2.RemoteProtocolError("closed"), "lost the connection (RemoteProtocolError: closed)"),
        (httpx2.ReadTimeout("slow"), "timed out (ReadTimeout: slow)"),
        (subprocess.TimeoutExpired(["x"], 3), "timed out"),
        (MCPError(REQUEST_TIMEOUT, "Request 'tools/call' timed out"), "no answer in time"),
        (MCPError(CONNECTION_CLOSED, "Connection closed"), "the connection"),
        (ExceptionGroup("g", [ValueError("x"), httpx2.ReadError("r")]), "lost the connection"),
    ],
)
def test_what_gets_no_answer_is_inconclusive(exc: BaseException, cause: str) -> None:
    found = cause_of(exc)
    assert found is not None and found.startswith(cause)


@pytest.mark.parametrize(
    "exc",
    [
        ValueError("an answer of the wrong shape"),
        KeyError("id"),
        # the server's own JSON-RPC errors are answers, whatever their code
        MCPError(REQUEST_TIMEOUT, "Odoo did not answer", data={"category": "timeout"}),
        MCPError(CONNECTION_CLOSED, "Server error"),
    ],
)
def test_an_answer_that_came_is_judged(exc: BaseException) -> None:
    assert cause_of(exc) is None


def test_a_server_that_exits_at_start_is_judged_on_the_retry() -> None:
    exited = ServerDidNotStart("exited with code 1", exited=True)
    slow = ServerDidNotStart("did not listen in 30 s", exited=False)
    try:
        judge_exits(False)
        assert cause_of(exited) == "exited with code 1"
        judge_exits(True)
        assert cause_of(exited) is None
        assert cause_of(slow) == "did not listen in 30 s"  # still starting: the machine's
    finally:
        judge_exits(False)


def test_an_inconclusive_step_outweighs_the_checks_beside_it() -> None:
    checks = [
        Check(step="a", source=SEED, outcome="failed", message="echo of the timeout"),
        Check(step="b", source=SEED, outcome="inconclusive", message="no answer in time"),
    ]
    outcome, message, _ = judge(checks, "spec")
    assert outcome == "inconclusive"
    assert "no answer in time" in message and "echo" not in message
