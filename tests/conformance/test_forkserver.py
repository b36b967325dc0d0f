"""The kit's fork server: a launch through it is the command, seen from outside (issue 17)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from kit_runs import ROOT, feature_subset, run_kits

from odoo_mcp_conformance.driver import inherited_env
from odoo_mcp_conformance.forkserver import Forkserver, forkserver_supported

pytestmark = pytest.mark.skipif(not forkserver_supported(), reason="fork server: Linux only")

REFERENCE = ROOT / "conformance" / "targets" / "reference.toml"
#: how long a wait lasts before it is called a hang: these tests check what happens, never
#: how fast (a loaded clean-clone CI run once took longer than 10 s to relay a signal)
HANG = 120.0
#: what a launched program shows of itself: its argv, directory, environment, streams, path
REPORTER = textwrap.dedent(
    """
    import json, os, sys
    data = sys.stdin.read()
    print(json.dumps({"argv": sys.argv, "cwd": os.getcwd(), "marker": os.environ.get("MARKER"),
                      "stdin": data, "name": __name__, "path0": sys.path[0]}))
    print("to stderr", file=sys.stderr)
    sys.exit(3)
    """
)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**inherited_env(), "MARKER": "set by the launch"}


@pytest.fixture
def forkserver(tmp_path: Path) -> Iterator[Forkserver]:
    server = Forkserver(sys.executable, ["json"], inherited_env(), tmp_path / "fork.log")
    assert server.ready()
    yield server
    server.close()


def _run(command: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, env=env, cwd=cwd, input="the input\n", capture_output=True, text=True,
        timeout=30, check=False,
    )  # fmt: skip


def _log(tmp_path: Path) -> str:
    return (tmp_path / "fork.log").read_text()


@pytest.mark.parametrize("form", ["script", "module"])
def test_a_forked_launch_shows_what_a_new_interpreter_shows(
    forkserver: Forkserver, env: dict[str, str], tmp_path: Path, form: str
) -> None:
    workdir = tmp_path / "work"
    workdir.mkdir()
    (workdir / "reporter.py").write_text(REPORTER)
    args = ["reporter.py", "a", "b"] if form == "script" else ["-m", "reporter", "a", "b"]
    direct = [sys.executable, *args]
    through = forkserver.command(direct, env)
    assert through != direct and "forkclient.py" in through[3]

    expected, got = _run(direct, env, workdir), _run(through, env, workdir)

    assert json.loads(got.stdout) == json.loads(expected.stdout)
    assert json.loads(got.stdout)["stdin"] == "the input\n"
    assert (got.stderr, got.returncode) == (expected.stderr, expected.returncode) == (
        "to stderr\n", 3,
    )  # fmt: skip
    assert "forked" in _log(tmp_path)


def test_a_child_that_dies_of_a_signal_is_mirrored(
    forkserver: Forkserver, env: dict[str, str], tmp_path: Path
) -> None:
    script = tmp_path / "suicide.py"
    script.write_text("import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n")
    direct = [sys.executable, str(script)]
    assert _run(forkserver.command(direct, env), env, tmp_path).returncode == -signal.SIGTERM
    assert _run(direct, env, tmp_path).returncode == -signal.SIGTERM


def _started(command: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        command, env=env, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    assert process.stdout.readline().startswith("ready")
    return process


def test_a_signal_to_the_launch_reaches_the_child(
    forkserver: Forkserver, env: dict[str, str], tmp_path: Path
) -> None:
    script = tmp_path / "trap.py"
    script.write_text(
        textwrap.dedent(
            """
            import os, signal, sys, time
            def stop(signum, frame):
                print("stopped by", signum, flush=True)
                sys.exit(7)
            signal.signal(signal.SIGTERM, stop)
            os.write(1, b"ready\\n")  # not print: the signal may come while it flushes
            # short sleeps, not one: a signal landing between Python's last look for signals
            # and the sleep's system call is handled only when the sleep ends (1 launch in
            # about 75 under load hung on time.sleep(30)); a lost one fails at HANG
            for _ in range(12000):
                time.sleep(0.05)
            """
        )
    )
    with _started(forkserver.command([sys.executable, str(script)], env), env, tmp_path) as process:
        process.terminate()
        try:
            out, _ = process.communicate(timeout=HANG)
        except subprocess.TimeoutExpired:
            process.kill()  # its server then kills the child
            pytest.fail(
                f"the signal was not relayed in {HANG} s; the server's log:\n{_log(tmp_path)}"
            )
    assert (out, process.returncode) == (f"stopped by {int(signal.SIGTERM)}\n", 7)


def test_a_killed_launch_takes_its_child_with_it(
    forkserver: Forkserver, env: dict[str, str], tmp_path: Path
) -> None:
    script = tmp_path / "sleeper.py"
    script.write_text("import os, time\nprint('ready', os.getpid(), flush=True)\ntime.sleep(600)\n")
    command = forkserver.command([sys.executable, str(script)], env)
    with subprocess.Popen(
        command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as process:
        assert process.stdout is not None
        child = int(process.stdout.readline().split()[1])
        assert child != process.pid
        process.kill()
        process.wait(timeout=HANG)
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the child outlived its launch")


def test_launches_with_another_interpreter_set_up_start_a_new_interpreter(
    forkserver: Forkserver, env: dict[str, str], tmp_path: Path
) -> None:
    script = [sys.executable, str(tmp_path / "x.py")]
    assert forkserver.command(script, {**env, "PYTHONPATH": str(tmp_path)}) == script
    assert forkserver.command(script, {**env, "LC_ALL": "C"}) == script
    flagged = [sys.executable, "-X", "dev", str(tmp_path / "x.py")]
    assert forkserver.command(flagged, env) == flagged
    assert forkserver.command(["/bin/true"], env) == ["/bin/true"]


def test_a_launch_the_server_refuses_becomes_the_command_itself(
    forkserver: Forkserver, env: dict[str, str], tmp_path: Path
) -> None:
    """The client is told to exec (here: another locale than the server's), and does."""
    (tmp_path / "reporter.py").write_text(REPORTER)
    through = forkserver.command([sys.executable, "reporter.py"], env)
    other = {**env, "LC_ALL": "C.UTF-8"}
    got, expected = (
        _run(through, other, tmp_path),
        _run([sys.executable, "reporter.py"], other, tmp_path),
    )
    assert json.loads(got.stdout) == json.loads(expected.stdout)
    assert got.returncode == expected.returncode == 3
    assert "not forked (exec instead): reporter.py" in _log(tmp_path)


@pytest.mark.parametrize("request_bytes", [b"\x00\x00\x00\x05junk!", b"\xff\xff\xff\xff", b"\x00"])
def test_a_malformed_request_is_closed_and_the_server_goes_on(
    forkserver: Forkserver, env: dict[str, str], tmp_path: Path, request_bytes: bytes
) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(20)
        conn.connect(forkserver.socket)
        conn.sendall(request_bytes)
        conn.shutdown(socket.SHUT_WR)
        assert conn.recv(16) == b""  # no pid, no exec order: the connection is closed
    (tmp_path / "reporter.py").write_text(REPORTER)
    got = _run(forkserver.command([sys.executable, "reporter.py"], env), env, tmp_path)
    assert got.returncode == 3 and json.loads(got.stdout)["marker"] == "set by the launch"


def test_a_preload_that_starts_a_thread_forks_nothing(env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "busy.py").write_text(
        "import threading, time\n"
        "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
    )
    (tmp_path / "reporter.py").write_text(REPORTER)
    server_env = {**inherited_env(), "PYTHONPATH": str(tmp_path)}
    server = Forkserver(sys.executable, ["busy"], server_env, tmp_path / "fork.log")
    try:
        launch_env = {**server_env, "MARKER": "m"}
        through = server.command([sys.executable, "reporter.py"], launch_env)
        assert "forkclient.py" in through[3]
        got = _run(through, launch_env, tmp_path)
        assert json.loads(got.stdout)["marker"] == "m" and got.returncode == 3
        assert _log(tmp_path).splitlines() == ["not forked (exec instead): reporter.py"]
    finally:
        server.close()


def test_a_preload_that_fails_leaves_every_launch_alone(
    env: dict[str, str], tmp_path: Path
) -> None:
    server = Forkserver(
        sys.executable, ["no_such_module_here"], inherited_env(), tmp_path / "f.log"
    )
    try:
        assert not server.ready()
        command = [sys.executable, "-m", "json.tool"]
        assert server.command(command, env) == command
        assert "no_such_module_here" in (tmp_path / "f.log").read_text()
    finally:
        server.close()


def test_closing_ends_the_server_and_removes_its_socket(tmp_path: Path) -> None:
    server = Forkserver(sys.executable, [], inherited_env(), tmp_path / "fork.log")
    assert server.ready()
    assert Path(server.socket).exists()
    server.close()
    assert not Path(server.socket).exists()


#: start-up failures, signals in flight, fresh servers, several configurations
FEATURES = ("configuration.feature", "safety_modes.feature")


def test_preloading_gives_the_verdicts_of_new_interpreters(tmp_path: Path) -> None:
    features = feature_subset(tmp_path / "features", FEATURES)
    runs = run_kits(
        {
            # one worker each: the question is how a server starts, not how the scenarios
            # are shared, and each more worker costs a start-up (a fake, the kit's and the
            # fork server's imports: about 6 CPU-s)
            name: (
                REFERENCE,
                tmp_path / name,
                ("--features", str(features), "--workers", "1", *extra),
            )
            for name, extra in (("preloaded", ()), ("new", ("--no-preload",)))
        },
        separately=True,  # as a user runs it: a fork server of its own
    )
    preloaded, new = runs["preloaded"], runs["new"]
    assert preloaded.returncode == new.returncode == 0, preloaded.output[-2000:]
    scenarios = {
        (s["feature"], s["id"]): (s["outcome"], s["message"], s["checks"])
        for s in preloaded.report["scenarios"]
    }
    assert len(scenarios) >= 20
    assert scenarios == {
        (s["feature"], s["id"]): (s["outcome"], s["message"], s["checks"])
        for s in new.report["scenarios"]
    }
    assert preloaded.report["requirements"] == new.report["requirements"]
    logs = "".join(p.read_text() for p in (tmp_path / "preloaded").rglob("forkserver.stderr.log"))
    assert logs.count("forked") >= 5 and "not forked" not in logs
    assert not list((tmp_path / "new").rglob("forkserver.stderr.log"))
