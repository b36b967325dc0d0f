"""A loopback TCP forwarder between the server under test and the fake Odoo.

It lets a scenario make Odoo *refuse connections* for real: the forwarder stops listening
(a new connection gets ECONNREFUSED, what an HTTP client reports as a connect error) and
resets the connections it carries. The fake cannot do this itself: its own port also serves
the kit's control API, and an accepted connection can only be reset, not refused.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading

__all__ = ["TcpProxy"]


class TcpProxy:
    """Forwards 127.0.0.1:<port> to ``target`` until :meth:`refuse` or :meth:`close`."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self._target = (target_host, target_port)
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port: int = self._listener.getsockname()[1]
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:  # the listener was closed: refuse() or close()
                return
            try:
                upstream = socket.create_connection(self._target, timeout=10)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()

    def refuse(self) -> None:
        """From now on nothing listens on the port, and every carried connection is reset."""
        with contextlib.suppress(OSError):
            # shutdown wakes the accept() blocked in the other thread: close() alone would
            # leave the port listening until it returned
            self._listener.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self._listener.close()
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                # linger 0: close() sends a reset, as a dead host's network stack would
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.close()

    close = refuse


def _pump(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)
