"""Headless Chromium driven through ChromeDriver's W3C WebDriver HTTP API (with ``httpx2``,
no browser-automation package), for the tests that need a real browser; and a small PNG
reader to check the screenshots it takes.

Chromium and ChromeDriver are the Debian packages ``chromium`` and ``chromium-driver``
(``CHROMIUM`` and ``CHROMEDRIVER`` name other binaries). ChromeDriver runs in its own
process group, killed with Chromium at the end, on an error, and at interpreter exit (a
Ctrl-C that skips the fixtures' teardown).
"""

from __future__ import annotations

import atexit
import base64
import os
import re
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import httpx2

__all__ = [
    "INSTALL_HINT",
    "Browser",
    "BrowserMissing",
    "Png",
    "find_binaries",
    "headless_chromium",
    "read_png",
]

BROWSERS: Final = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL_HINT: Final = (
    "install both with `apt-get install chromium chromium-driver` (Debian/Ubuntu; .ci/run "
    "does it), or name them with CHROMIUM=/path/to/chromium CHROMEDRIVER=/path/to/chromedriver"
)
#: the flags every run needs: no sandbox (containers run as root), nothing reaching the
#: network on its own (this machine's network is closed), a fresh profile
FLAGS: Final = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--disable-crash-reporter",
    "--disable-breakpad",
    "--force-device-scale-factor=1",
)
#: W3C WebDriver's name for an element reference in a JSON answer
_ELEMENT: Final = "element-6066-11e4-a52e-4f735466cecf"
_STARTED: Final = re.compile(rb"started successfully on port (\d+)")


class BrowserMissing(RuntimeError):
    """No Chromium or no ChromeDriver on this machine."""


def find_binaries() -> tuple[str, str]:
    """Chromium's and ChromeDriver's paths, or ``BrowserMissing`` saying how to get them."""
    given = os.environ.get("CHROMIUM")
    names = (given,) if given else BROWSERS
    chromium = next((path for name in names if (path := shutil.which(name))), None)
    driver = shutil.which(os.environ.get("CHROMEDRIVER") or "chromedriver")
    missing = [
        name for name, path in (("Chromium", chromium), ("ChromeDriver", driver)) if not path
    ]
    if chromium is None or driver is None:
        raise BrowserMissing(f"{' and '.join(missing)} not found: {INSTALL_HINT}")
    return chromium, driver


@dataclass(frozen=True)
class Browser:
    """One WebDriver session: navigate, find, type, click, read, take a screenshot."""

    http: httpx2.Client
    session: str
    width: int
    height: int

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        answer = self.http.request(method, f"/session/{self.session}{path}", json=body)
        value = answer.json().get("value")
        if answer.status_code != 200:
            raise AssertionError(f"WebDriver {method} {path}: {answer.status_code} {value}")
        return value

    def cdp(self, command: str, **params: object) -> Any:
        """A Chrome DevTools Protocol command, through ChromeDriver."""
        return self._call("POST", "/goog/cdp/execute", {"cmd": command, "params": params})

    def open(self, url: str) -> None:
        """Navigate, and wait for the page to load (WebDriver's normal page load strategy)."""
        self._call("POST", "/url", {"url": url})

    @property
    def url(self) -> str:
        return str(self._call("GET", "/url"))

    @property
    def source(self) -> str:
        """The DOM, serialised."""
        return str(self._call("GET", "/source"))

    def find(self, css: str) -> str:
        """The element the CSS selector matches (the first), as a WebDriver reference."""
        return str(
            self._call("POST", "/element", {"using": "css selector", "value": css})[_ELEMENT]
        )

    def count(self, css: str) -> int:
        return len(self._call("POST", "/elements", {"using": "css selector", "value": css}))

    def text(self, css: str) -> str:
        """The element's rendered text (what a person sees)."""
        return str(self._call("GET", f"/element/{self.find(css)}/text"))

    def attribute(self, css: str, name: str) -> str | None:
        value = self._call("GET", f"/element/{self.find(css)}/attribute/{name}")
        return None if value is None else str(value)

    def property(self, css: str, name: str) -> object:
        """The element's DOM property (a field's ``value`` is what it holds now)."""
        return self._call("GET", f"/element/{self.find(css)}/property/{name}")

    def displayed(self, css: str) -> bool:
        return bool(self._call("GET", f"/element/{self.find(css)}/displayed"))

    def type(self, css: str, text: str) -> None:
        """Clear the field, then type into it as a keyboard does."""
        element = self.find(css)
        self._call("POST", f"/element/{element}/clear", {})
        self._call("POST", f"/element/{element}/value", {"text": text})

    def click(self, css: str) -> None:
        self._call("POST", f"/element/{self.find(css)}/click", {})

    def wait_for(self, done: Any, timeout: float = 10.0) -> None:
        """Poll ``done()`` (after a click that navigates) until it is true."""
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"the browser did not get there in {timeout} s: {self.url}")
            time.sleep(0.05)

    def screenshot(self) -> bytes:
        """The window's content, as PNG."""
        return base64.b64decode(self._call("GET", "/screenshot"))


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """End ChromeDriver's process group (ChromeDriver, Chromium and its helpers), and wait
    until none of it runs (the dead wait as zombies for the init process to reap them)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    process.wait(10)
    deadline = time.monotonic() + 10
    while _running_in_group(process.pid) and time.monotonic() < deadline:
        time.sleep(0.02)


def _running_in_group(group: int) -> bool:
    """Whether a process of this group still runs (Linux's /proc; false elsewhere)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # "pid (comm) state ppid pgrp ...": the command may hold spaces and parentheses
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            return True
    return False


@contextmanager
def headless_chromium(width: int = 1280, height: int = 800) -> Iterator[Browser]:
    """ChromeDriver and a headless Chromium with a fresh profile and a window of this size;
    both are killed on exit, whatever happened."""
    chromium, driver = find_binaries()
    with (
        tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile,
        tempfile.TemporaryFile() as log,
    ):
        process = subprocess.Popen(
            [driver, "--port=0"], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            start_new_session=True,  # its own group: one killpg ends it and its browser
        )  # fmt: skip
        atexit.register(_kill_group, process)
        try:
            port = _port_of(process, log)
            with httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
                options = {
                    "binary": chromium,
                    "args": [*FLAGS, f"--user-data-dir={profile}",
                             f"--window-size={width},{height}"],
                }  # fmt: skip
                capabilities = {"browserName": "chrome", "goog:chromeOptions": options,
                                "pageLoadStrategy": "normal"}  # fmt: skip
                answer = http.post("/session", json={"capabilities": {"alwaysMatch": capabilities}})
                value = answer.json()["value"]
                assert answer.status_code == 200, f"Chromium did not start: {value}"
                browser = Browser(http, value["sessionId"], width, height)
                # headless Chromium's --window-size counts a toolbar it does not draw: the
                # page gets less height; pin the viewport to the window's size instead
                browser.cdp("Emulation.setDeviceMetricsOverride", width=width, height=height,
                            deviceScaleFactor=1, mobile=False)  # fmt: skip
                try:
                    yield browser
                finally:
                    with suppress(httpx2.HTTPError):  # the group's kill ends it anyway
                        http.delete(f"/session/{browser.session}", timeout=5)
        finally:
            _kill_group(process)
            atexit.unregister(_kill_group)


def _port_of(process: subprocess.Popen[bytes], log: Any, timeout: float = 10.0) -> int:
    """ChromeDriver's port, from the line it writes once it listens."""
    deadline = time.monotonic() + timeout
    while True:
        log.seek(0)
        said = log.read()
        if found := _STARTED.search(said):
            return int(found.group(1))
        if process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(
                f"ChromeDriver did not start: {said[-2000:].decode(errors='replace')}"
            )
        time.sleep(0.02)


# -- the screenshot ------------------------------------------------------------------------


@dataclass(frozen=True)
class Png:
    """A decoded PNG: its size, and the colours of its pixels (every ``step``-th row)."""

    width: int
    height: int
    colours: frozenset[bytes]


def read_png(data: bytes, step: int = 8) -> Png:
    """Decode an 8-bit RGB or RGBA PNG (what Chromium writes): size, and the distinct
    colours seen on every ``step``-th row. A bad signature, chunk or filter raises."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at, header, idat = 8, b"", bytearray()
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ValueError(f"bad CRC in chunk {kind!r}")
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or colour_type not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour_type}")
    bpp = 3 if colour_type == 2 else 4
    stride = width * bpp
    raw = zlib.decompress(bytes(idat))
    if len(raw) != height * (stride + 1):
        raise ValueError(f"{len(raw)} bytes of pixels for {width}x{height}")
    previous, colours = bytearray(stride), set[bytes]()
    for y in range(height):
        line = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        previous = _unfilter(line[0], bytearray(line[1:]), previous, bpp)
        if y % step == 0:
            colours.update(bytes(previous[x : x + bpp]) for x in range(0, stride, bpp))
    return Png(width, height, frozenset(colours))


def _unfilter(kind: int, row: bytearray, up: bytearray, bpp: int) -> bytearray:
    """One row's bytes from its filtered bytes and the row above (PNG's five filters)."""
    if kind == 0:
        return row
    if kind == 2:
        return bytearray((a + b) & 0xFF for a, b in zip(row, up, strict=True))
    for i in range(len(row)):
        left = row[i - bpp] if i >= bpp else 0
        if kind == 1:
            row[i] = (row[i] + left) & 0xFF
        elif kind == 3:
            row[i] = (row[i] + ((left + up[i]) >> 1)) & 0xFF
        elif kind == 4:
            corner = up[i - bpp] if i >= bpp else 0
            guess = left + up[i] - corner
            pa, pb, pc = abs(guess - left), abs(guess - up[i]), abs(guess - corner)
            near = left if pa <= pb and pa <= pc else up[i] if pb <= pc else corner
            row[i] = (row[i] + near) & 0xFF
        else:
            raise ValueError(f"PNG filter {kind}")
    return row
