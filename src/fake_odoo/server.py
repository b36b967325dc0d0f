"""Serving the fake over real HTTP with uvicorn (foreground for the CLI, or a thread).

The socket is bound here (port 0 = a free port) before uvicorn starts, so the URL is
known at once.  ``AbortableH11Protocol`` is uvicorn's h11 protocol with one addition:
it puts its asyncio transport in the ASGI scope so the ``refuse``/``drop`` faults can
abort the TCP connection, which is what a client sees when a server or proxy dies
(and it strips header values, which h11 insists on).
"""

from __future__ import annotations

import socket
import threading
import time
from typing import TYPE_CHECKING, Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from fake_odoo.faults import TRANSPORT_KEY

if TYPE_CHECKING:
    from starlette.types import Message, Receive, Scope, Send

    from fake_odoo.handle import FakeOdoo

__all__ = ["AbortableH11Protocol", "BackgroundServer", "bind_socket", "make_server"]


class AbortableH11Protocol(H11Protocol):
    """uvicorn's h11 protocol exposing its transport to the app (for injected faults)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        inner = self.app

        async def app(scope: Scope, receive: Receive, send: Send) -> None:
            scope[TRANSPORT_KEY] = self.transport

            async def send_stripped(message: Message) -> None:
                # h11 refuses trailing whitespace in header values (Odoo's 401 sends
                # "WWW-Authenticate: Bearer "); every HTTP parser strips it on reception
                # anyway, so clients see the same value real Odoo gives them.
                if message["type"] == "http.response.start":
                    headers = [(k, v.strip()) for k, v in message.get("headers", [])]
                    message = {**message, "headers": headers}
                await send(message)

            await inner(scope, receive, send_stripped)

        self.app = app


def bind_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted sockets inherit this on Linux.  Without it, a keep-alive response waits for
    # the client's delayed ACK (~40 ms per call) whenever it leaves in two writes.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def make_server(fake: FakeOdoo, sock: socket.socket, log_level: str = "warning") -> uvicorn.Server:
    """A uvicorn server for ``fake`` on ``sock``; sets ``fake.url``."""
    host, port = sock.getsockname()[:2]
    fake.url = f"http://{host}:{port}"
    config = uvicorn.Config(
        fake.app,
        http=AbortableH11Protocol,
        lifespan="off",
        log_level=log_level,
        log_config=None,  # leave the host's logging configuration alone
        access_log=False,
        timeout_graceful_shutdown=1,
    )
    return uvicorn.Server(config)


class BackgroundServer:
    """Serve a ``FakeOdoo`` from a daemon thread; ``with BackgroundServer(fake): ...``."""

    def __init__(self, fake: FakeOdoo, host: str = "127.0.0.1", port: int = 0) -> None:
        self.fake = fake
        self._sock = bind_socket(host, port)
        self.server = make_server(fake, self._sock)
        self._thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self._sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        assert self.fake.url is not None
        return self.fake.url

    def start(self, timeout: float = 10.0) -> None:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the fake Odoo server did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self._thread.join(timeout=10)
        self._sock.close()
        self.fake.url = None

    def __enter__(self) -> BackgroundServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
