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
import select
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


def _receive(conn: socket.socket, size: int, wakeup: int) -> bytes:
    """``size`` bytes from the server, or fewer if it went away; a signal ends each wait.

    A bare ``recv`` can lose a signal: CPython runs a Python handler at its next check
    between bytecodes, and a signal landing after the last check but before ``recv``
    blocks is handled only when ``recv`` returns, which, for the child's status, is never
    (the child waits for the relayed signal). Python's wakeup fd gets the signal's byte
    whenever it lands, so ``poll`` returns however late it started and the handler runs.
    (The suite's hang of issue 41's round was this same window in the test's own child,
    around ``time.sleep``; this one was closed with it.)"""
    poller = select.poll()
    poller.register(conn, select.POLLIN)
    poller.register(wakeup, select.POLLIN)
    data = b""
    while len(data) < size:
        ready = {fd for fd, _events in poller.poll()}
        if wakeup in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wakeup, 512)
        if conn.fileno() not in ready:
            continue
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

    wakeup, woken = os.pipe()  # not inherited: an exec below closes them
    os.set_blocking(wakeup, False)
    os.set_blocking(woken, False)
    signal.set_wakeup_fd(woken, warn_on_full_buffer=False)
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
        reply = _receive(conn, 1, wakeup)
    except OSError:
        reply = b""
    if reply != b"P":
        conn.close()
        for signum in RELAYED:
            signal.signal(signum, signal.SIG_DFL)
        signal.set_wakeup_fd(-1)
        if pending:  # told to stop before anything started
            os.kill(os.getpid(), pending[0])
        _exec(args)
    pid = _receive(conn, 4, wakeup)
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
    status = _receive(conn, 4, wakeup)
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
