"""The thin client of the kit's fork server: run as ``python -I -S forkclient.py SOCKET ARGS``.

It stands in for ``python ARGS``: it hands its stdin, stdout and stderr, ``ARGS``, its
environment and its working directory to the fork server (``forkserver.py``), which forks a
child that runs ``ARGS`` as the command would. The client then relays the signals it gets to
the child and exits as the child did (same code, same signal), so whoever launched it sees
the process the command would have been. When the server cannot take the launch (gone, or
the launch needs another interpreter set-up), the client becomes the command itself (exec).

Standard library only, and none of it imported by ``site``: with ``-I -S`` it starts in
a few milliseconds, which is the point.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import signal
import socket
import struct
import sys

__all__ = ["main"]

#: the signals a launcher sends a server (terminate, interrupt, hang-up), passed on to the child
RELAYED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1,
           signal.SIGUSR2)  # fmt: skip


def _exec(args: list[str]) -> None:
    """Be the command itself: the fork server cannot take this launch."""
    os.execv(sys.executable, [sys.executable, *args])


def _gone() -> None:
    os.write(2, b"forkclient: the fork server went away before its child ended\n")
    os._exit(70)


def _receive(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            return data
        data += chunk
    return data


def main() -> None:
    path, args = sys.argv[1], sys.argv[2:]
    child: list[int] = []  # the child's pid, once the server has said it
    pending: list[int] = []  # signals that came before it

    def relay(signum: int, _frame: object) -> None:
        if not child:
            pending.append(signum)
            return
        with contextlib.suppress(ProcessLookupError):  # it just ended: its status follows
            os.kill(child[0], signum)

    for signum in RELAYED:
        signal.signal(signum, relay)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
        payload = marshal.dumps((args, dict(os.environ), os.getcwd()))
        fds = struct.pack("3i", 0, 1, 2)
        conn.sendmsg(
            [struct.pack("!I", len(payload)) + payload],
            [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)],
        )
        reply = _receive(conn, 1)
    except OSError:
        reply = b""
    if reply != b"P":
        conn.close()
        for signum in RELAYED:
            signal.signal(signum, signal.SIG_DFL)
        if pending:  # told to stop before anything started
            os.kill(os.getpid(), pending[0])
        _exec(args)
    pid = _receive(conn, 4)
    if len(pid) != 4:
        _gone()
    child.append(struct.unpack("!i", pid)[0])
    # The child holds the streams now: the launcher sees their end when the child closes them.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    for early in pending:
        relay(early, None)
    status = _receive(conn, 4)
    if len(status) != 4:
        _gone()
    code = os.waitstatus_to_exitcode(struct.unpack("!i", status)[0])
    if code < 0:  # the child died of a signal: so does its stand-in
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
        code = 128 - code
    os._exit(code)


if __name__ == "__main__":
    main()
