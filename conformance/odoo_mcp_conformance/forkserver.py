"""A fork server for Python targets: their launches skip the interpreter's start-up imports.

Why (issue 17): a kit run starts about seventy servers, and a Python server built on the MCP
SDK spends about half a second of CPU importing it each time. A target that names modules
under ``preload`` gets, per kit process, one server process (this module, run as a script)
that imports them once. Each launch ``{python} -m MODULE ARGS`` or ``{python} SCRIPT ARGS``
of that target then runs as ``forkclient.py`` (``python -I -S``, a few milliseconds) which
hands its streams, arguments, environment and working directory over; this server forks a
child that runs the command as ``__main__`` would. The client relays signals and exits as
the child did, so the kit, and the scenarios that time or signal a server, see the command.

What a child shares with a fresh interpreter, and what not: everything but what the preloaded
modules did at import time, which happened once, here, with this server's environment. So:
the launch's interpreter environment (``PYTHON*``, ``LANG``, ``LC_*``) must equal this
server's, no other thread may run when forking, and only plain ``-m``/script launches are
taken; otherwise the client is told to exec the real command. A target whose modules read
the environment or start threads at import time must not name them (see
conformance/README.md). The verdicts of a run do not depend on the fork server: the kit's
tests compare whole reports with and without it.
"""

from __future__ import annotations

import contextlib
import importlib
import marshal
import os
import runpy
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Child", "Forkserver", "forkserver_supported", "interpreter_env", "main", "serve"]

#: the file descriptors a launch hands over: stdin, stdout, stderr
_STREAMS = 3
#: a launch request is small (argv, environment, cwd); a bigger one is refused
_MAX_REQUEST = 1 << 20


def forkserver_supported() -> bool:
    """Fork, pidfds and Unix sockets: Linux 5.3 or later (elsewhere every launch is a new
    interpreter). The kernel is asked, not only Python: an older one refuses pidfds."""
    if not (hasattr(os, "fork") and hasattr(os, "pidfd_open") and hasattr(socket, "AF_UNIX")):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:
        return False
    return True


def interpreter_env(env: Mapping[str, str]) -> dict[str, str]:
    """The variables that set up an interpreter before any code runs (paths, encodings)."""
    return {
        key: value
        for key, value in env.items()
        if key.startswith(("PYTHON", "LC_")) or key in ("LANG", "LANGUAGE")
    }


@dataclass
class Child:
    """A launch to run in a forked child: the command line after the interpreter."""

    args: list[str]
    env: dict[str, str]
    cwd: str
    fds: list[int] = field(default_factory=list)

    @property
    def name(self) -> str:
        """What runs, for the server's log (not its arguments: they may hold a secret)."""
        return " ".join(self.args[:2] if self.args[:1] == ["-m"] else self.args[:1])

    def run(self) -> None:
        """Become the launch (in the child): its streams, directory, environment and argv,
        then its code as ``__main__``. Exceptions, ``SystemExit`` included, end the
        interpreter as they would end ``python ARGS``."""
        for target, fd in enumerate(self.fds):
            os.dup2(fd, target)
        for fd in self.fds:
            if fd > 2:
                os.close(fd)
        os.chdir(self.cwd)
        os.environ.clear()
        os.environ.update(self.env)
        if self.args[0] == "-m":
            sys.argv = ["-m", *self.args[2:]]
            sys.path[0] = os.getcwd()
            runpy.run_module(self.args[1], run_name="__main__", alter_sys=True)
        else:
            script = self.args[0]
            sys.argv = list(self.args)
            sys.path[0] = os.path.dirname(os.path.abspath(script))
            runpy.run_path(script, run_name="__main__")


def _takes(args: Sequence[str]) -> bool:
    """Plain ``-m MODULE ...`` or ``SCRIPT ...``: anything else sets the interpreter up."""
    if not args:
        return False
    if args[0] == "-m":
        return len(args) >= 2
    return not args[0].startswith("-")


def _alone() -> bool:
    """No thread but this one: forking is then safe."""
    if threading.active_count() != 1:
        return False
    with contextlib.suppress(OSError):
        return len(os.listdir("/proc/self/task")) == 1
    return True


def _read_request(conn: socket.socket) -> Child | None:
    """One launch request: length, marshalled (args, env, cwd), and the streams' fds; None
    for anything else (the fds that came with it are closed)."""
    conn.settimeout(10)
    fds: list[int] = []
    data, ancillary, _flags, _addr = conn.recvmsg(65536, socket.CMSG_SPACE(4 * _STREAMS))
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            usable = len(payload) - len(payload) % 4
            fds.extend(struct.unpack(f"{usable // 4}i", payload[:usable]))
    try:
        (size,) = struct.unpack("!I", data[:4])
        body = data[4:]
        while len(body) < min(size, _MAX_REQUEST):
            chunk = conn.recv(size - len(body))
            if not chunk:
                break
            body += chunk
        conn.settimeout(None)
        args, env, cwd = marshal.loads(body)
        if len(fds) == _STREAMS and len(body) == size and args:
            return Child([str(a) for a in args], {str(k): str(v) for k, v in env.items()},
                         str(cwd), fds)  # fmt: skip
    except (OSError, ValueError, EOFError, TypeError, AttributeError, struct.error):
        pass
    _close_all(fds)
    return None


def _close_all(fds: list[int]) -> None:
    for fd in fds:
        os.close(fd)
    return None


def serve(path: str, preload: Sequence[str], control: int = 0) -> Child | None:
    """Import ``preload``, listen on ``path`` and fork a child per launch until ``control``
    (the kit's pipe) closes. In a child, returns its launch; in this server, None at the end."""
    for name in preload:
        importlib.import_module(name)
    server_pid = os.getpid()  # the cleanup below is this server's, not a forked child's
    here = interpreter_env(os.environ)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ, "control")
    selector.register(listener, selectors.EVENT_READ, "accept")
    #: a live child's pidfd -> (pid, its client's connection)
    children: dict[int, tuple[int, socket.socket]] = {}
    #: a connection with a running child -> that child's pid (the client watches it)
    watched: dict[socket.socket, int] = {}
    os.write(1, b"ready\n")
    try:
        while True:
            for key, _events in selector.select():
                if key.data == "control":
                    if not os.read(control, 512):
                        return None
                elif key.data == "accept":
                    conn, _ = listener.accept()
                    selector.register(conn, selectors.EVENT_READ, "request")
                elif key.data == "request":
                    conn = key.fileobj  # type: ignore[assignment]
                    assert isinstance(conn, socket.socket)
                    if conn.fileno() == -1:  # its child ended in this same round
                        continue
                    selector.unregister(conn)
                    if conn in watched:  # the client ended before its child: end it too
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(watched.pop(conn), signal.SIGKILL)
                        continue
                    child = _launch(conn, here, selector, children)
                    if child is not None:
                        return child
                    pid = next((p for p, c in children.values() if c is conn), None)
                    if pid is None:
                        conn.close()
                    else:
                        watched[conn] = pid
                        selector.register(conn, selectors.EVENT_READ, "request")
                else:  # a child ended
                    pidfd = key.fd
                    selector.unregister(pidfd)
                    os.close(pidfd)
                    pid, conn = children.pop(pidfd)
                    _, status = os.waitpid(pid, 0)
                    if conn in watched:
                        del watched[conn]
                        selector.unregister(conn)
                    with contextlib.suppress(OSError):
                        conn.sendall(struct.pack("!i", status))
                    conn.close()
    finally:
        if os.getpid() == server_pid:
            with contextlib.suppress(OSError):
                os.unlink(path)


def _launch(
    conn: socket.socket,
    here: Mapping[str, str],
    selector: selectors.BaseSelector,
    children: dict[int, tuple[int, socket.socket]],
) -> Child | None:
    """Fork a child for the request on ``conn`` (and return its launch, in the child), or
    tell the client to exec the command itself."""
    try:
        child = _read_request(conn)
    except OSError:  # nothing came (the client went away)
        child = None
    if child is None:
        return None
    if not _takes(child.args) or interpreter_env(child.env) != here or not _alone():
        os.write(2, f"not forked (exec instead): {child.name}\n".encode())
        _close_all(child.fds)
        with contextlib.suppress(OSError):
            conn.sendall(b"X")
        return None
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        # The child keeps nothing of the server: no listener, no client connection (its own
        # or another's, running or not), no pidfd, no control pipe.
        for key in list(selector.get_map().values()):
            if isinstance(key.fileobj, socket.socket):
                key.fileobj.close()
            else:
                os.close(key.fd)
        selector.close()
        conn.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        return child
    _close_all(child.fds)
    os.write(2, f"forked {pid}: {child.name}\n".encode())
    pidfd = os.pidfd_open(pid)
    children[pidfd] = (pid, conn)
    selector.register(pidfd, selectors.EVENT_READ, "child")
    with contextlib.suppress(OSError):
        conn.sendall(b"P" + struct.pack("!i", pid))
    return None


class Forkserver:
    """The kit's side: one fork server for one target's ``preload``, started at once and
    waited for at the first launch. ``command`` turns a launch into its thin client's."""

    def __init__(self, python: str, preload: Sequence[str], env: Mapping[str, str], log: Path):
        self.python = python
        self._env = interpreter_env(env)
        self._dir = tempfile.mkdtemp(prefix="kit-fork-")
        self.socket = os.path.join(self._dir, "launch.sock")
        self._log = log.open("ab")
        self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
            [python, "-m", "odoo_mcp_conformance.forkserver", self.socket, *preload],
            env=dict(env), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
        )  # fmt: skip
        self._ready: bool | None = None

    def ready(self, timeout: float = 60.0) -> bool:
        """Whether the server imported its modules and listens (waits the first time)."""
        if self._ready is None:
            self._ready = False
            process = self._process
            assert process is not None and process.stdout is not None
            reader = threading.Thread(target=self._wait_ready, args=(process,), daemon=True)
            reader.start()
            reader.join(timeout)
        return self._ready

    def _wait_ready(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        line = process.stdout.readline()
        self._ready = line == b"ready\n"
        if not self._ready:
            self._log.write(b"fork server not used: " + line)
            self._log.flush()

    def command(self, command: Sequence[str], env: Mapping[str, str]) -> list[str]:
        """``command`` as its thin client when the server can take it, else unchanged."""
        if (
            not command
            or command[0] != self.python
            or not _takes(command[1:])
            or interpreter_env(env) != self._env
            or not self.ready()
        ):
            return list(command)
        return [self.python, "-I", "-S", _CLIENT, self.socket, *command[1:]]

    def close(self) -> None:
        """End the server (its children end with their own launches)."""
        process, self._process = self._process, None
        if process is not None:
            assert process.stdin is not None
            with contextlib.suppress(OSError):
                process.stdin.close()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
        self._log.close()
        with contextlib.suppress(OSError):
            os.unlink(self.socket)
        with contextlib.suppress(OSError):
            os.rmdir(self._dir)


#: the thin client, run by path with ``-I -S`` (no package import, no site)
_CLIENT = str(Path(__file__).with_name("forkclient.py"))


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m odoo_mcp_conformance.forkserver SOCKET [MODULE ...]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        child = serve(args[0], args[1:])
    except ImportError as exc:
        os.write(1, f"failed: {exc}\n".encode())
        raise SystemExit(1) from exc
    if child is None:
        # The kit closed the control pipe: nothing to flush (the log is written with
        # os.write), and tearing down every preloaded module would only keep the kit waiting.
        os._exit(0)
    child.run()


if __name__ == "__main__":
    main()
