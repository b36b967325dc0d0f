"""A real ``odoo-mcp serve --transport http`` process, for the HTTP transport's tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx2

from fake_odoo.demo import ADMIN_API_KEY

__all__ = ["ACCEPT", "serve_http"]

#: what a streamable HTTP client sends with every POST
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve_http(fake_url: str, *flags: str, **env_extra: str) -> Iterator[str]:
    """``odoo-mcp serve --transport http`` as a process on a free port; yields its base URL."""
    port = _free_port()
    env = {**os.environ, "ODOO_URL": fake_url, "ODOO_DB": "demo", "ODOO_USERNAME": "admin",
           "ODOO_API_KEY": ADMIN_API_KEY, "ODOO_MCP_LOG_LEVEL": "warning", **env_extra}  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, "-m", "odoo_mcp", "serve", "--transport", "http", "--port", str(port),
         *flags],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx2.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx2.TransportError:
                pass
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "the HTTP server did not start"
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stderr is not None:
            process.stderr.close()
