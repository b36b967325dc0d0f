"""Helpers to use the fake Odoo from tests: served on a free port, or in process.

``serve_fake_odoo(version="19.0")`` builds a ``FakeOdoo`` (or takes one), serves it with
uvicorn on a free 127.0.0.1 port from a background thread and yields the handle (its
``.url`` set); any client (``xmlrpc.client``, httpx2, another process) can talk to it.
``in_process_client(fake)`` yields an ``httpx2.AsyncClient`` whose transport calls the
ASGI app directly (no socket); injected ``refuse``/``drop`` faults surface there as
``httpx2.ConnectError`` / ``httpx2.RemoteProtocolError``, as they would over a socket.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

import httpx2

from fake_odoo.faults import FakeConnectionError
from fake_odoo.handle import FakeOdoo
from fake_odoo.server import BackgroundServer

__all__ = ["FakeOdooTransport", "in_process_client", "quiet_deprecation_log", "serve_fake_odoo"]

IN_PROCESS_URL = "http://fake-odoo.test"


@contextmanager
def serve_fake_odoo(
    version: str = "19.0",
    *,
    dataset: str = "demo",
    scale: int = 1,
    fake: FakeOdoo | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
) -> Iterator[FakeOdoo]:
    """Serve a fake Odoo over real HTTP for the duration of the block."""
    handle = fake if fake is not None else FakeOdoo(version, dataset=dataset, scale=scale)
    with BackgroundServer(handle, host, port):
        yield handle


class FakeOdooTransport(httpx2.ASGITransport):
    """ASGITransport turning injected connection faults into httpx2 transport errors."""

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        try:
            return await super().handle_async_request(request)
        except FakeConnectionError as exc:
            if exc.kind == "refuse":
                raise httpx2.ConnectError(str(exc), request=request) from exc
            raise httpx2.RemoteProtocolError(str(exc), request=request) from exc


@asynccontextmanager
async def in_process_client(fake: FakeOdoo) -> AsyncIterator[httpx2.AsyncClient]:
    """An async httpx2 client wired straight to ``fake``'s ASGI app."""
    transport = FakeOdooTransport(app=fake.app)
    async with httpx2.AsyncClient(transport=transport, base_url=IN_PROCESS_URL) as client:
        yield client


def quiet_deprecation_log() -> None:
    """Hide the WARNING an Odoo 19 logs on every XML-RPC / JSON-RPC call (the fake imitates
    it): a benchmark making thousands of calls would print it thousands of times."""
    logging.getLogger("odoo.http").setLevel(logging.ERROR)
