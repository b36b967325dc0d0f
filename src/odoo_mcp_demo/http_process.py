"""``odoo-mcp serve --transport http`` as a child process on a free loopback port, logged in
to a fake Odoo as its admin: for the HTTP transport's tests and load benchmark."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx2

from fake_odoo.demo import ADMIN_API_KEY

__all__ = ["free_port", "http_server_process"]


def free_port() -> int:
    """A TCP port nothing listens on now, on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def http_server_process(
    odoo_url: str, *flags: str, timeout: float = 30.0, **env: str
) -> Iterator[str]:
    """Start the server with these CLI flags and extra environment; yield its base URL once
    ``GET /health`` answers; stop it on exit. Its stderr goes to a file (a pipe nobody reads
    would fill up and block the server) and ends the error if the server does not start."""
    port = free_port()
    environ = {
        **os.environ,
        "ODOO_URL": odoo_url,
        "ODOO_DB": "demo",
        "ODOO_USERNAME": "admin",
        "ODOO_API_KEY": ADMIN_API_KEY,
        "ODOO_MCP_LOG_LEVEL": "warning",
        **env,
    }
    argv = [
        sys.executable,
        "-m",
        "odoo_mcp",
        "serve",
        "--transport",
        "http",
        "--port",
        str(port),
        *flags,
    ]
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            argv, env=environ, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    if httpx2.get(f"{base}/health", timeout=1).status_code == 200:
                        break
                except httpx2.TransportError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    stderr.seek(0)
                    tail = stderr.read()[-2000:].decode(errors="replace")
                    raise RuntimeError(f"the HTTP server did not start:\n{tail}")
                time.sleep(0.1)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
