"""Issue 19: the fleet harness: odoo-mcp replicas behind HAProxy, under load and failover.

Starts on loopback, each step bounded in time and everything torn down at the end (also on
Ctrl-C and SIGTERM): the fake Odoo 19.0 (``--latency-ms`` injected on every Odoo request),
Redis (unless ``--no-redis``), ``--replicas`` ``odoo-mcp serve --transport http --http-auth
on`` processes given ``ODOO_MCP_STATE_URL=redis://...`` (the shared state of issue 19's other
half: rate-limit buckets, refused tokens, session owners; a server without it ignores the
variable) and HAProxy (config from ``fleet_lb.haproxy_config``) in the foreground.
Phases (``--phases``):

- ``load``: stateful, sticky by ``Mcp-Session-Id``: ``--sessions`` MCP SDK sessions of admin and
  demo alternately, ``--calls`` tool calls each, every answer checked for its user (the checks
  of ``http_load.py``); run through a balancer with one replica, then with all of them.
  Throughput, p50/p99, sessions per replica, and that each session stayed on one replica.
- ``isolation``: demo sends admin's ``Mcp-Session-Id``, through the balancer (sticky: the
  owner's replica) and straight at each replica; anything but 403/404 is a leak.
- ``failover``: stateful sessions loop tool calls; one replica is SIGKILLed mid-run. Counts
  what clients see (404 on the session, 5xx, transport errors) and wrong answers (must be 0);
  every client on the killed replica must get 404, initialize again and answer correctly.
- ``ratelimit``: stateless replicas, round robin, ``burst 5, 30/min``; admin paces calls
  through the balancer; the accepted count must stay within burst + rate x elapsed + 1, the
  limit of one caller fleet-wide. Without shared state each replica admits its own allowance.
- ``oauth``: stateless replicas with ``--oauth on``, one ``ODOO_MCP_OAUTH_SECRET`` and
  ``--public-url`` the balancer's URL (its port chosen first), round robin. With the shared
  state: the metadata name the balancer wherever asked; a client registers and signs in
  (the form posted as a browser would) on r1 directly, exchanges the code on r2, calls tools
  as the demo user on every replica and through HAProxy, refreshes on another replica (the
  rotated refresh token refused everywhere, and that reuse ends the grant); the MCP SDK's
  OAuth client signs in through HAProxy alone, its token revoked on one replica and refused on
  all. Then each replica with its own memory: r2 refuses r1's token with 401.

Exit status 0 only when every check passed; a markdown summary ends the output.
Run ``python bench/fleet.py`` or ``tox -e fleet -- --replicas 2``.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import math
import os
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import parse_qs, urlsplit

import httpx2
from fleet_lb import REPLICA_HEADER, haproxy_config
from http_load import CALLS, TOKENS, checked_calls
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from pydantic import AnyUrl

from fake_odoo.demo import ADMIN_API_KEY
from odoo_mcp.adapter.http.oauth.provider import challenge_of

PHASES = ("load", "isolation", "failover", "ratelimit", "oauth")
PROTOCOL = "2025-06-18"
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
RATE_BURST = 5
RATE_RPM = 30
HAPROXY = "/usr/sbin/haproxy"
REDIS = "/usr/bin/redis-server"


def phase(text: str) -> None:
    print(f"phase: {text}", flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# -- processes -----------------------------------------------------------------------------------


@dataclass
class Child:
    name: str
    process: subprocess.Popen[bytes]
    stderr: IO[bytes]

    def tail(self) -> str:
        self.stderr.flush()
        self.stderr.seek(0)
        return self.stderr.read()[-1500:].decode(errors="replace")


@dataclass
class Processes:
    """Every child the harness started, stopped in reverse order by ``stop_all``."""

    children: list[Child] = field(default_factory=list)

    def start(self, name: str, argv: Sequence[str], env: dict[str, str] | None = None) -> Child:
        # stderr to a file: a pipe nobody reads fills up and blocks the child; stop() closes it
        stderr = tempfile.TemporaryFile()  # noqa: SIM115
        process = subprocess.Popen(
            list(argv),
            env={**os.environ, **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        child = Child(name, process, stderr)
        self.children.append(child)
        return child

    def stop(self, child: Child) -> None:
        if child.process.poll() is None:
            child.process.terminate()
            try:
                child.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.process.kill()
                child.process.wait(timeout=10)
        child.stderr.close()
        if child in self.children:
            self.children.remove(child)

    def stop_all(self) -> None:
        for child in reversed(list(self.children)):
            self.stop(child)


def wait_until(ready: Callable[[], bool], child: Child, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if ready():
                return
        except (httpx2.TransportError, OSError):
            pass
        if child.process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{child.name} did not start:\n{child.tail()}")
        time.sleep(0.1)


def http_ok(url: str) -> Callable[[], bool]:
    return lambda: httpx2.get(url, timeout=1).status_code == 200


@dataclass
class Fleet:
    """The running pieces: the fake Odoo, Redis, the replicas and the balancers."""

    procs: Processes
    fake: Child | None = None
    odoo_url: str = ""
    state_url: str | None = None
    replicas: list[tuple[Child, str]] = field(default_factory=list)  # (process, host:port)

    def start_fake(self, latency_ms: float) -> None:
        port = free_port()
        argv = [sys.executable, "-m", "fake_odoo.cli", "serve", "--port", str(port)]
        child = self.fake = self.procs.start("fake Odoo", [*argv, "--log-level", "warning"])
        self.odoo_url = f"http://127.0.0.1:{port}"
        wait_until(http_ok(f"{self.odoo_url}/__fake__/info"), child, 30)
        if latency_ms > 0:
            fault = {"kind": "latency", "seconds": latency_ms / 1000}
            httpx2.post(f"{self.odoo_url}/__fake__/faults", json=fault, timeout=5)

    def start_redis(self) -> None:
        port = free_port()
        argv = [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
        child = self.procs.start("redis", [*argv, "--appendonly", "no"])
        self.state_url = f"redis://127.0.0.1:{port}/0"

        def pong() -> bool:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")

        wait_until(pong, child, 15)

    def redis_keys(self) -> int | None:
        if self.state_url is None:
            return None
        import redis

        client = redis.Redis.from_url(self.state_url)
        try:
            return int(client.dbsize())
        finally:
            client.close()

    def start_replicas(
        self,
        count: int,
        *,
        stateless: bool,
        env: dict[str, str],
        flags: Sequence[str] = (),
        shared: bool = True,
    ) -> None:
        """``count`` replicas given ``env`` and ``flags``; ``shared``: the Redis state URL too."""
        started: list[tuple[Child, str]] = []
        shared_state = {"ODOO_MCP_STATE_URL": self.state_url} if shared and self.state_url else {}
        for index in range(1, count + 1):
            port = free_port()
            environ = {
                "ODOO_URL": self.odoo_url,
                "ODOO_DB": "demo",
                "ODOO_USERNAME": "admin",
                "ODOO_API_KEY": ADMIN_API_KEY,
                # the server logs each refused demo call (REQ-10-18): not what this measures
                "ODOO_MCP_LOG_LEVEL": "error",
                **shared_state,
                # issue 37: HAProxy's address here; its X-Forwarded-For alone is believed
                "ODOO_MCP_TRUSTED_PROXIES": "127.0.0.1",
                **env,
            }
            argv = [sys.executable, "-m", "odoo_mcp", "serve", "--transport", "http"]
            argv += ["--host", "127.0.0.1", "--port", str(port), "--http-auth", "on"]
            argv += ["--stateless"] if stateless else []
            argv += flags
            started.append(
                (self.procs.start(f"replica r{index}", argv, environ), f"127.0.0.1:{port}")
            )
        for child, address in started:  # they start in parallel; wait for each in turn
            wait_until(http_ok(f"http://{address}/health"), child, 60)
        self.replicas = started

    def stop_replicas(self) -> None:
        for child, _ in self.replicas:
            self.procs.stop(child)
        self.replicas = []

    def start_balancer(
        self, addresses: Sequence[str], *, sticky: bool, workdir: Path, port: int | None = None
    ) -> str:
        """HAProxy on ``port`` (a free one by default): the URL of its MCP endpoint."""
        port = free_port() if port is None else port
        config = workdir / f"haproxy-{port}.cfg"
        config.write_text(haproxy_config(port, addresses, sticky=sticky), encoding="utf-8")
        # -db: foreground, no daemon, so it is our child and dies with the harness
        child = self.procs.start(f"haproxy :{port}", [HAPROXY, "-db", "-f", str(config)])
        base = f"http://127.0.0.1:{port}"
        wait_until(http_ok(f"{base}/health"), child, 15)
        return f"{base}/mcp"

    def stop_balancer(self, port: int) -> None:
        for child in list(self.procs.children):
            if child.name == f"haproxy :{port}":
                self.procs.stop(child)


# -- raw MCP over HTTP (exact statuses, which the SDK client turns into exceptions) ------------


@dataclass
class Reply:
    status: int
    body: dict[str, Any] | None
    session: str | None
    replica: str | None


async def post(
    http: httpx2.AsyncClient,
    url: str,
    message: dict[str, Any],
    session: str | None = None,
    *,
    access: str | None = None,
) -> Reply:
    """One JSON-RPC message; ``access``: this request's Bearer token (else the client's)."""
    headers = dict(MCP_HEADERS)
    if access is not None:
        headers["Authorization"] = f"Bearer {access}"
    if session is not None:
        headers["Mcp-Session-Id"] = session
        headers["MCP-Protocol-Version"] = PROTOCOL
    response = await http.post(url, content=json.dumps(message), headers=headers)
    body: dict[str, Any] | None = None
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        for line in response.text.splitlines():
            if line.startswith("data:") and line[5:].strip():
                body = json.loads(line[5:])
    elif response.content:
        try:
            body = response.json()
        except ValueError:
            body = None
    return Reply(
        response.status_code,
        body,
        response.headers.get("mcp-session-id"),
        response.headers.get(REPLICA_HEADER),
    )


async def initialize(http: httpx2.AsyncClient, url: str) -> Reply:
    params = {
        "protocolVersion": PROTOCOL,
        "capabilities": {},
        "clientInfo": {"name": "fleet-harness", "version": "1"},
    }
    reply = await post(
        http, url, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}
    )
    if reply.status == 200 and reply.session:
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        await post(http, url, note, reply.session)
    return reply


def tool_call(index: int, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": tool, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": index, "method": "tools/call", "params": params}


def tool_answer(reply: Reply) -> tuple[dict[str, Any], bool] | None:
    """The structured answer of a tools/call reply and its isError, or None if it has none."""
    result = (reply.body or {}).get("result")
    if not isinstance(result, dict) or not result.get("content"):
        return None
    return json.loads(result["content"][0]["text"]), bool(result.get("isError"))


def bearer(user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[user]}"}


# -- phase 1: load -----------------------------------------------------------------------------


@dataclass
class LoadResult:
    label: str
    sessions: int
    calls: int = 0
    wrong: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    wall: float = 0.0
    per_replica: Counter[str] = field(default_factory=Counter)
    unsticky: int = 0  # sessions whose requests were answered by more than one replica
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds spent during the run

    def quantile(self, q: float) -> float:
        ms = sorted(x * 1000 for x in self.latencies)
        return ms[min(len(ms) - 1, int(len(ms) * q))] if ms else float("nan")


async def load_session(url: str, user: str, calls: int, result: LoadResult) -> None:
    answered_by: set[str] = set()

    async def note_replica(response: httpx2.Response) -> None:
        if replica := response.headers.get(REPLICA_HEADER):
            answered_by.add(replica)

    latencies: list[float] = []  # this session's (the result is shared by all sessions)
    try:
        async with (
            httpx2.AsyncClient(
                headers=bearer(user), timeout=60, event_hooks={"response": [note_replica]}
            ) as http,
            Client(streamable_http_client(url, http_client=http), mode="legacy") as client,
        ):
            await checked_calls(client, user, calls, latencies, result.wrong)
    except Exception as exc:  # a failed session is an error; the run goes on
        result.wrong.append(f"{user} session: {type(exc).__name__}: {exc}")
    result.latencies += latencies
    result.calls += len(latencies)
    for replica in answered_by:
        result.per_replica[replica] += 1
    result.unsticky += len(answered_by) > 1


async def run_load(label: str, url: str, sessions: int, calls: int) -> LoadResult:
    result = LoadResult(label, sessions)
    started = time.perf_counter()
    users = ("admin", "demo")
    await asyncio.gather(*(load_session(url, users[i % 2], calls, result) for i in range(sessions)))
    result.wall = time.perf_counter() - started
    return result


# -- phase 2: isolation ------------------------------------------------------------------------


async def run_isolation(balancer: str, direct: list[str]) -> dict[str, Any]:
    """Demo uses admin's session: through the balancer, and at each replica directly."""
    async with (
        httpx2.AsyncClient(headers=bearer("admin"), timeout=30) as admin,
        httpx2.AsyncClient(headers=bearer("demo"), timeout=30) as demo,
    ):
        opened = await initialize(admin, balancer)
        if opened.status != 200 or opened.session is None:
            return {"ok": False, "seen": {"admin initialize": opened.status}}
        seen: dict[str, int] = {}
        call = tool_call(1, "odoo_core_count", {"model": "sale.order"})
        seen[f"balancer (sticky: {opened.replica})"] = (
            await post(demo, balancer, call, opened.session)
        ).status
        for index, url in enumerate(direct, start=1):
            seen[f"replica r{index} directly"] = (
                await post(demo, url, call, opened.session)
            ).status
        # admin keeps its own session through all this
        own = await post(admin, balancer, call, opened.session)
        answer = tool_answer(own)
        admin_ok = own.status == 200 and answer is not None and answer[0].get("count") == 39
        await admin.request(
            "DELETE", balancer, headers={"Mcp-Session-Id": opened.session, **MCP_HEADERS}
        )
    # 403 (the session is someone else's) or 404 (unknown here) refuse; any 2xx is a leak
    refused = all(status in (403, 404) for status in seen.values())
    return {"ok": refused and admin_ok, "seen": seen, "admin_ok": admin_ok}


# -- phase 3: failover -------------------------------------------------------------------------


@dataclass
class FailoverClient:
    user: str
    replica: str | None = None  # the replica of the session open when the kill came
    correct: int = 0
    correct_after_kill: int = 0
    wrong: list[str] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)  # what went wrong, by kind
    reinitialized: int = 0


async def failover_client(
    url: str, client: FailoverClient, killed: asyncio.Event, stop: float
) -> None:
    session: str | None = None
    index = 0
    async with httpx2.AsyncClient(headers=bearer(client.user), timeout=15) as http:
        while time.monotonic() < stop:
            try:
                if session is None:
                    opened = await initialize(http, url)
                    if opened.status != 200 or opened.session is None:
                        client.statuses[f"initialize {opened.status}"] += 1
                        await asyncio.sleep(0.1)
                        continue
                    session = opened.session
                    if not killed.is_set():
                        client.replica = opened.replica
                    elif client.replica is not None:  # it had a session before the kill
                        client.reinitialized += 1
                tool, arguments, check = CALLS[client.user][index % len(CALLS[client.user])]
                reply = await post(http, url, tool_call(index + 1, tool, arguments), session)
                index += 1
                answer = tool_answer(reply)
                if reply.status == 404:  # the session is unknown where the request landed
                    client.statuses["404 session unknown"] += 1
                    session = None
                elif reply.status != 200 or answer is None:
                    client.statuses[f"HTTP {reply.status}"] += 1
                    await asyncio.sleep(0.05)
                elif check(*answer):
                    client.correct += 1
                    client.correct_after_kill += killed.is_set()
                else:
                    client.wrong.append(f"{tool}: {str(answer[0])[:200]}")
            except httpx2.TransportError as exc:
                client.statuses[type(exc).__name__] += 1
                await asyncio.sleep(0.05)


async def run_failover(fleet: Fleet, url: str, sessions: int, seconds: float) -> dict[str, Any]:
    killed = asyncio.Event()
    clients = [FailoverClient(("admin", "demo")[i % 2]) for i in range(sessions)]
    stop = time.monotonic() + seconds
    tasks = [asyncio.create_task(failover_client(url, c, killed, stop)) for c in clients]
    await asyncio.sleep(seconds / 3)
    victim_child, _ = fleet.replicas[-1]
    victim = f"r{len(fleet.replicas)}"
    victim_child.process.send_signal(signal.SIGKILL)  # no goodbye: the replica just vanishes
    killed.set()
    killed_at = time.monotonic()
    await asyncio.gather(*tasks)
    on_victim = [c for c in clients if c.replica == victim]
    seen: Counter[str] = Counter()
    for c in clients:
        seen.update(c.statuses)
    wrong = sum(len(c.wrong) for c in clients)
    recovered = sum(c.correct_after_kill > 0 for c in clients)
    ok = (
        wrong == 0
        and recovered == len(clients)
        and bool(on_victim)
        # as documented: the surviving replica answered 404 on the old session, then a fresh
        # initialize worked
        and all(c.statuses["404 session unknown"] >= 1 and c.reinitialized >= 1 for c in on_victim)
    )
    return {
        "ok": ok,
        "victim": victim,
        "sessions": len(clients),
        "on_victim": len(on_victim),
        "seen": dict(seen),
        "wrong": wrong,
        "wrong_examples": [w for c in clients for w in c.wrong][:5],
        "recovered": recovered,
        "reinitialized": sum(c.reinitialized for c in on_victim),
        "correct": sum(c.correct for c in clients),
        "after_kill_s": stop - killed_at,
    }


# -- phase 4: rate limit fleet-wide ------------------------------------------------------------


async def run_ratelimit(url: str, calls: int, per_second: float) -> dict[str, Any]:
    """One caller (admin) paces ``calls`` calls through a round-robin balancer."""
    accepted = refused = failed = 0
    by_replica: Counter[str] = Counter()
    async with httpx2.AsyncClient(headers=bearer("admin"), timeout=30) as http:
        started = time.monotonic()
        for index in range(calls):
            # stateless: every request stands alone, no initialize and no session id
            call = tool_call(index + 1, "odoo_core_count", {"model": "sale.order"})
            try:
                reply = await post(http, url, call)
            except httpx2.TransportError:
                failed += 1
                continue
            answer = tool_answer(reply)
            if answer is not None and not answer[1] and answer[0].get("count") == 39:
                accepted += 1
                by_replica[reply.replica or "?"] += 1
            elif answer is not None and answer[1] and answer[0].get("category") == "rate_limit":
                refused += 1
            else:
                failed += 1
            next_at = started + (index + 1) / per_second
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        elapsed = time.monotonic() - started
    allowance = RATE_BURST + RATE_RPM / 60 * elapsed + 1
    return {
        "ok": failed == 0 and accepted <= allowance,
        "sent": calls,
        "accepted": accepted,
        "refused": refused,
        "failed": failed,
        "elapsed": elapsed,
        "allowance": allowance,
        "by_replica": dict(by_replica),
    }


# -- phase 5: OAuth across replicas ------------------------------------------------------------

#: never opened: the browser stops at the redirect and reads the code off its URL
OAUTH_REDIRECT = "http://127.0.0.1:9/callback"
#: the demo user's answers (17 sale orders; payments refused) tell whose token acted
DEMO_CHECKS = (CALLS["demo"][0], CALLS["demo"][2])


class StepFailed(Exception):
    """A step of the OAuth flow did not answer as it must (the phase's check fails)."""


def expect(condition: bool, said: str) -> None:
    if not condition:
        raise StepFailed(said)


@dataclass(frozen=True)
class Place:
    """Where a request goes: a replica directly, or the balancer."""

    name: str
    base: str

    @property
    def mcp(self) -> str:
        return f"{self.base}/mcp"


def page_text(response: httpx2.Response) -> str:
    """A page's words, without its markup and style (an error page says what went wrong)."""
    text = re.sub(r"<(style|title)>.*?</\1>", " ", response.text, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())[:200]


def rebased(url: str, base: str | None) -> str:
    """``url`` on ``base`` (same path and query), or unchanged when ``base`` is None."""
    if base is None:
        return url
    parts = urlsplit(url)
    return f"{base}{parts.path}" + (f"?{parts.query}" if parts.query else "")


async def register(http: httpx2.AsyncClient, at: Place) -> str:
    """RFC 7591 registration of a public client at ``at``: its client id."""
    body = {
        "client_name": "fleet harness",
        "redirect_uris": [OAUTH_REDIRECT],
        "token_endpoint_auth_method": "none",
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
    }
    answer = await http.post(f"{at.base}/register", json=body)
    expect(answer.status_code == 201, f"register on {at.name}: {answer.status_code}")
    return str(answer.json()["client_id"])


async def browse_signin(web: httpx2.AsyncClient, url: str, stay: str | None) -> dict[str, str]:
    """A browser's part from the authorization URL: ``/authorize``, the sign-in page it
    redirects to, the form posted with the demo user's password; the redirect's query. With
    ``stay`` (a replica's base URL) every request goes there, whatever host the page names."""
    answer = await web.get(rebased(url, stay))
    expect(answer.status_code == 302, f"/authorize: {answer.status_code} {page_text(answer)}")
    page = await web.get(rebased(answer.headers["location"], stay))
    expect(page.status_code == 200, f"sign-in page: {page.status_code} {page_text(page)}")
    fields = {
        name: html.unescape(value)
        for name, value in re.findall(r'name=(request|csrf) value="([^"]*)"', page.text)
    }
    action = re.search(r'<form method=post action="([^"]+)"', page.text)
    expect(action is not None and set(fields) == {"request", "csrf"}, "no sign-in form")
    assert action is not None
    form = {**fields, "login": "demo", "secret": "demo"}
    back = await web.post(rebased(html.unescape(action.group(1)), stay), data=form)
    location = back.headers.get("location", "")
    expect(
        back.status_code == 303 and location.startswith(OAUTH_REDIRECT + "?"),
        f"sign-in: {back.status_code} {page_text(back)}",
    )
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


async def sign_in(http: httpx2.AsyncClient, at: Place, client_id: str) -> tuple[str, str]:
    """A sign-in of the demo user on replica ``at`` directly: its code and PKCE verifier."""
    verifier = secrets.token_urlsafe(48)
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": OAUTH_REDIRECT,
        "code_challenge": challenge_of(verifier),
        "code_challenge_method": "S256",
        "state": "fleet",
    }
    url = str(httpx2.URL(f"{at.base}/authorize", params=query))
    found = await browse_signin(http, url, at.base)
    expect(found.get("state") == "fleet", f"state {found.get('state')!r}")
    return found["code"], verifier


async def token(http: httpx2.AsyncClient, at: Place, **form: str) -> httpx2.Response:
    return await http.post(f"{at.base}/token", data=form)


def said(response: httpx2.Response) -> str:
    """A token endpoint's answer: the status and the OAuth error, if any."""
    try:
        error = response.json().get("error")
    except ValueError:
        error = None
    return f"{response.status_code} {error}" if error else str(response.status_code)


async def as_demo(http: httpx2.AsyncClient, url: str, access: str) -> tuple[str, list[str]]:
    """``demo`` when the token's calls at ``url`` answer as the demo user, else what came
    (``401 invalid_token``, a wrong answer); and the replicas that answered."""
    replicas: list[str] = []
    for index, (tool, arguments, check) in enumerate(DEMO_CHECKS, start=1):
        reply = await post(http, url, tool_call(index, tool, arguments), access=access)
        replicas += [reply.replica] if reply.replica else []
        answer = tool_answer(reply)
        if reply.status != 200 or answer is None:
            return f"{reply.status} {(reply.body or {}).get('error', '')}".strip(), replicas
        if not check(*answer):
            return f"wrong: {tool} {str(answer[0])[:120]}", replicas
    return "demo", replicas


async def everywhere(
    http: httpx2.AsyncClient, places: Sequence[Place], lb: Place, access: str
) -> dict[str, str]:
    """``as_demo`` on each replica directly, then through the balancer (round robin: as many
    times as there are replicas, so that each one answers)."""
    seen = {at.name: (await as_demo(http, at.mcp, access))[0] for at in places}
    through: set[str] = set()
    answered: set[str] = set()
    for _ in places:
        result, replicas = await as_demo(http, lb.mcp, access)
        through.add(result)
        answered.update(replicas)
    seen[f"{lb.name} ({'+'.join(sorted(answered)) or 'none'})"] = ", ".join(sorted(through))
    return seen


def shown(seen: dict[str, str]) -> str:
    return ", ".join(f"{where} {result}" for where, result in seen.items())


async def metadata_check(
    http: httpx2.AsyncClient, places: Sequence[Place], lb: Place, public: str
) -> Check:
    """RFC 9728 and RFC 8414 metadata name the balancer, wherever they are asked; so does the
    401 challenge of an unauthenticated request."""
    origin = lb.base
    wrong: list[str] = []
    resource = issuer = ""
    for at in (lb, *places):
        prm = (await http.get(f"{at.base}/.well-known/oauth-protected-resource/mcp")).json()
        asm = (await http.get(f"{at.base}/.well-known/oauth-authorization-server")).json()
        resource, issuer = str(prm.get("resource")), str(asm.get("issuer"))
        servers = [str(s).rstrip("/") for s in prm.get("authorization_servers", [])]
        if (
            resource.rstrip("/") != public
            or servers != [origin]
            or issuer.rstrip("/") != origin
            or asm.get("token_endpoint") != f"{origin}/token"
            or asm.get("authorization_endpoint") != f"{origin}/authorize"
        ):
            wrong.append(f"{at.name}: resource {resource}, issuer {issuer}")
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    bare = await http.post(lb.mcp, content=json.dumps(message), headers=MCP_HEADERS)
    metadata = f'resource_metadata="{origin}/.well-known/oauth-protected-resource/mcp"'
    challenged = bare.status_code == 401 and metadata in bare.headers.get("www-authenticate", "")
    measured = (
        f"resource {resource}, issuer {issuer}, the same from {lb.name} and "
        f"{len(places)} replicas directly; unauthenticated POST /mcp: {bare.status_code}, "
        f"{metadata if challenged else 'challenge ' + bare.headers.get('www-authenticate', '')}"
    )
    if wrong:
        measured += "; wrong: " + "; ".join(wrong)
    return "oauth: metadata names the balancer (--public-url)", not wrong and challenged, measured


class TokenStorage:
    """The SDK client's token storage, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class Browser:
    """The SDK client's redirect and callback handlers: a browser through the balancer."""

    def __init__(self, answered: set[str]) -> None:
        self.result: AuthorizationCodeResult | None = None
        self.answered = answered

    async def note(self, response: httpx2.Response) -> None:
        if replica := response.headers.get(REPLICA_HEADER):
            self.answered.add(replica)

    async def redirect(self, url: str) -> None:
        hooks = {"response": [self.note]}
        async with httpx2.AsyncClient(timeout=15, event_hooks=hooks) as web:
            found = await browse_signin(web, url, None)
        self.result = AuthorizationCodeResult(code=found["code"], state=found.get("state"))

    async def callback(self) -> AuthorizationCodeResult:
        assert self.result is not None
        return self.result


async def sdk_client_check(lb: Place, storage: TokenStorage) -> Check:
    """The MCP SDK's OAuth client, given the balancer's URL alone: discovery, registration,
    sign-in, code exchange and tool calls, each request wherever round robin sends it."""
    answered: set[str] = set()
    browser = Browser(answered)
    auth = OAuthClientProvider(
        server_url=lb.mcp,
        client_metadata=OAuthClientMetadata(
            client_name="fleet harness (MCP SDK)",
            redirect_uris=[AnyUrl(OAUTH_REDIRECT)],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
        ),
        storage=storage,
        redirect_handler=browser.redirect,
        callback_handler=browser.callback,
    )
    results: list[str] = []
    async with (
        httpx2.AsyncClient(auth=auth, timeout=30, event_hooks={"response": [browser.note]}) as http,
        Client(streamable_http_client(lb.mcp, http_client=http), mode="legacy") as client,
    ):
        for tool, arguments, check in DEMO_CHECKS:
            result = await client.call_tool(tool, arguments)
            answer = json.loads(result.content[0].text)  # type: ignore[union-attr]
            results.append("demo" if check(answer, bool(result.is_error)) else f"wrong {tool}")
    ok = results == ["demo", "demo"] and storage.tokens is not None
    measured = (
        f"signed in and called as {', '.join(sorted(set(results)))}; requests answered by "
        f"{'+'.join(sorted(answered))}"
    )
    return "oauth: the MCP SDK's OAuth client through HAProxy alone", ok, measured


async def oauth_shared(places: Sequence[Place], lb: Place, public: str) -> list[Check]:
    """Shared state: one sign-in's tokens issued, used, rotated and revoked across replicas."""
    checks: list[Check] = []
    first, second, third = places[0], places[1], places[2 % len(places)]
    async with httpx2.AsyncClient(timeout=15) as http:
        checks.append(await metadata_check(http, places, lb, public))
        client_id = await register(http, first)
        code, verifier = await sign_in(http, first, client_id)
        exchanged = await token(
            http, second, grant_type="authorization_code", code=code,
            redirect_uri=OAUTH_REDIRECT, client_id=client_id, code_verifier=verifier,
        )  # fmt: skip
        expect(exchanged.status_code == 200, f"code exchange on {second.name}: {said(exchanged)}")
        tokens = exchanged.json()
        checks.append((
            f"oauth: registered and signed in on {first.name}, code exchanged on {second.name}",
            True, f"exchange {said(exchanged)}, expires_in {tokens.get('expires_in')}",
        ))  # fmt: skip
        seen = await everywhere(http, places, lb, tokens["access_token"])
        checks.append((
            "oauth: the access token acts as demo on every replica and through HAProxy",
            all(v == "demo" for v in seen.values()), shown(seen),
        ))  # fmt: skip
        form = {"grant_type": "refresh_token", "client_id": client_id}
        refreshed = await token(http, third, **form, refresh_token=tokens["refresh_token"])
        expect(refreshed.status_code == 200, f"refresh on {third.name}: {said(refreshed)}")
        fresh = refreshed.json()
        seen = await everywhere(http, places, lb, fresh["access_token"])
        old_access, _ = await as_demo(http, lb.mcp, tokens["access_token"])
        rotated = fresh["refresh_token"] != tokens["refresh_token"]
        checks.append((
            f"oauth: refreshed on {third.name}; the new access token acts as demo everywhere",
            rotated and all(v == "demo" for v in seen.values()),
            f"{shown(seen)}; new refresh token: {rotated}; the access token before the "
            f"refresh: {old_access} (it lives until it expires)",
        ))  # fmt: skip
        reused = {
            at.name: said(await token(http, at, **form, refresh_token=tokens["refresh_token"]))
            for at in (*places, lb)
        }
        checks.append((
            "oauth: the rotated refresh token is refused on every replica and HAProxy",
            all(v == "400 invalid_grant" for v in reused.values()), shown(reused),
        ))  # fmt: skip
        # OAuth 2.1 §4.3.1: a refresh token presented again means a stolen one: the grant
        # ends, its newest tokens too, on every replica
        seen = await everywhere(http, places, lb, fresh["access_token"])
        again = said(await token(http, first, **form, refresh_token=fresh["refresh_token"]))
        checks.append((
            "oauth: that reuse ended the grant fleet-wide (its newest tokens refused)",
            all(v == "401 invalid_token" for v in seen.values()) and again == "400 invalid_grant",
            f"new access token: {shown(seen)}; new refresh token on {first.name}: {again}",
        ))  # fmt: skip
    storage = TokenStorage()
    checks.append(await sdk_client_check(lb, storage))
    assert storage.tokens is not None and storage.client is not None
    revoker = places[-1]
    # the SDK's client registers with a secret (client_secret_post): revoke and refresh use it
    client = {
        "client_id": storage.client.client_id or "",
        "client_secret": storage.client.client_secret or "",
    }
    async with httpx2.AsyncClient(timeout=15) as http:
        revoked = await http.post(
            f"{revoker.base}/revoke",
            # the SDK's revocation handler wants the field, empty for a public client
            data={"token": storage.tokens.refresh_token or "", **client},
        )  # fmt: skip
        seen = await everywhere(http, places, lb, storage.tokens.access_token)
        form = {
            "grant_type": "refresh_token",
            "refresh_token": storage.tokens.refresh_token or "",
            **client,
        }
        refused = {at.name: said(await token(http, at, **form)) for at in places}
    checks.append((
        f"oauth: revoked on {revoker.name}: refused on every replica and HAProxy",
        revoked.status_code == 200
        and all(v == "401 invalid_token" for v in seen.values())
        and all(v == "400 invalid_grant" for v in refused.values()),
        f"revoke {revoked.status_code}; access token: {shown(seen)}; refresh: {shown(refused)}",
    ))  # fmt: skip
    return checks


async def oauth_isolated(places: Sequence[Place], lb: Place) -> list[Check]:
    """No shared state: each replica knows only the clients, codes and tokens it issued."""
    first, second = places[0], places[1]
    async with httpx2.AsyncClient(timeout=15) as http:
        client_id = await register(http, first)
        code, verifier = await sign_in(http, first, client_id)
        form = {"grant_type": "authorization_code", "code": code, "client_id": client_id,
                "redirect_uri": OAUTH_REDIRECT, "code_verifier": verifier}  # fmt: skip
        elsewhere = await token(http, second, **form)
        here = await token(http, first, **form)
        expect(here.status_code == 200, f"code exchange on {first.name}: {said(here)}")
        access = here.json()["access_token"]
        own, _ = await as_demo(http, first.mcp, access)
        message = tool_call(1, *DEMO_CHECKS[0][:2])
        headers = {**MCP_HEADERS, "Authorization": f"Bearer {access}"}
        other = await http.post(second.mcp, content=json.dumps(message), headers=headers)
        body = other.json() if other.status_code == 401 else {}
        challenge = other.headers.get("www-authenticate", "")
        statuses: Counter[str] = Counter()
        for index in range(2 * len(places)):  # one call each: round robin alternates
            reply = await post(http, lb.mcp, tool_call(index, *DEMO_CHECKS[0][:2]), access=access)
            statuses[f"{reply.replica} {reply.status}"] += 1
    try:
        sdk = await sdk_client_check(lb, TokenStorage())
        through = f"passed ({sdk[2]})" if sdk[1] else f"failed ({sdk[2]})"
    except Exception as exc:  # what a client sees there: its flow breaks somewhere
        leaf: BaseException = exc
        while isinstance(leaf, BaseExceptionGroup) and leaf.exceptions:
            leaf = leaf.exceptions[0]  # the SDK's task groups wrap the failing step
        through = f"fails: {type(leaf).__name__}: {leaf}"[:300]
    refused = other.status_code == 401 and body.get("error") == "invalid_token"
    names = " and ".join(
        name for name in ('error="invalid_token"', "resource_metadata") if name in challenge
    )
    measured = (
        f"code from {first.name} exchanged on {second.name}: {said(elsewhere)}; on "
        f"{first.name}: {said(here)}, its token there: {own}; on {second.name}: "
        f"{other.status_code} {body.get('error')} ({body.get('error_description')!r}; "
        f"WWW-Authenticate {names}); through HAProxy, one call "
        f"each: {', '.join(f'{k} x{v}' for k, v in sorted(statuses.items()))}; the MCP "
        f"SDK's OAuth client through HAProxy {through}"
    )
    return [(
        f"oauth without shared state: {second.name} refuses {first.name}'s token with 401",
        own == "demo" and refused and elsewhere.status_code in (400, 401), measured,
    )]  # fmt: skip


def oauth_checks(fleet: Fleet, args: argparse.Namespace, workdir: Path) -> list[Check]:
    """The OAuth phase: replicas with ``--oauth on``, one secret and ``--public-url`` the
    balancer's; with the shared state (Redis), then with each replica's own memory."""
    if args.replicas < 2:
        return [("oauth", True, "skipped: needs two replicas")]
    port = free_port()  # the balancer's, known before the replicas: it is their public URL
    origin = f"http://127.0.0.1:{port}"
    public = f"{origin}/mcp"
    env = {"ODOO_MCP_OAUTH_SECRET": secrets.token_hex(32)}  # one secret, every replica
    flags = ["--oauth", "on", "--public-url", public]
    checks: list[Check] = []
    for shared in (True, False) if fleet.state_url else (False,):
        state = "Redis" if shared else "each its own memory"
        phase(
            f"oauth: {args.replicas} stateless replicas, --oauth on, --public-url {public}, "
            f"state {state}, HAProxy round robin"
        )
        fleet.start_replicas(args.replicas, stateless=True, env=env, flags=flags, shared=shared)
        addresses = [address for _, address in fleet.replicas]
        fleet.start_balancer(addresses, sticky=False, workdir=workdir, port=port)
        places = [Place(f"r{i}", f"http://{a}") for i, a in enumerate(addresses, start=1)]
        lb = Place("HAProxy", origin)
        try:
            flow = oauth_shared(places, lb, public) if shared else oauth_isolated(places, lb)
            checks += bounded(flow, 120)
        except StepFailed as failed:
            checks.append((f"oauth ({state})", False, f"step failed: {failed}"))
        finally:
            fleet.stop_balancer(port)
            fleet.stop_replicas()
    return checks


# -- the run -----------------------------------------------------------------------------------

Check = tuple[str, bool, str]  # (what, passed, measured)


def bounded(coro: Any, seconds: float) -> Any:
    return asyncio.run(asyncio.wait_for(coro, seconds))


def cpu_seconds(pid: int | None = None) -> float:
    """User + system CPU time of a child (from /proc), or of this process."""
    if pid is None:
        return time.process_time()
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


def load_checks(fleet: Fleet, args: argparse.Namespace, workdir: Path) -> list[LoadResult]:
    addresses = [address for _, address in fleet.replicas]
    results = []
    for size in sorted({1, args.replicas}):
        url = fleet.start_balancer(addresses[:size], sticky=True, workdir=workdir)
        phase(f"load: {args.sessions} sessions x {args.calls} calls, {size} replica(s), HAProxy")
        # where the CPU went: on two cores the load generator competes with the fleet
        pids = {"harness": None, "fake Odoo": fleet.fake.process.pid if fleet.fake else None}
        pids |= {f"r{i}": child.process.pid for i, (child, _) in enumerate(fleet.replicas, 1)}
        before = {name: cpu_seconds(pid) for name, pid in pids.items()}
        result = bounded(run_load(f"{size} replica(s)", url, args.sessions, args.calls), 300)
        result.cpu = {name: cpu_seconds(pid) - before[name] for name, pid in pids.items()}
        for error in result.wrong[:5]:
            print("  error:", error)
        results.append(result)
    return results


def load_check(result: LoadResult, expected_calls: int) -> Check:
    passed = not result.wrong and result.calls == expected_calls and not result.unsticky
    measured = (
        f"{result.calls} calls, {len(result.wrong)} wrong or failed, "
        f"{result.unsticky} sessions answered by two replicas"
    )
    return f"load, {result.label}: zero wrong answers, sticky", passed, measured


def failover_check(fleet: Fleet, url: str, args: argparse.Namespace) -> Check:
    if args.replicas < 2:
        return "failover", True, "skipped: needs two replicas"
    phase(f"failover: {args.sessions} sessions, {args.failover_seconds:g} s, SIGKILL one replica")
    seconds = args.failover_seconds
    fo = bounded(run_failover(fleet, url, args.sessions, seconds), seconds + 60)
    for error in fo["wrong_examples"]:
        print("  wrong:", error)
    seen = ", ".join(f"{k} x{v}" for k, v in sorted(fo["seen"].items())) or "nothing"
    measured = (
        f"{fo['on_victim']}/{fo['sessions']} sessions on {fo['victim']}; seen: {seen}; "
        f"re-initialized {fo['reinitialized']}; recovered {fo['recovered']}/{fo['sessions']}; "
        f"wrong {fo['wrong']}; correct answers {fo['correct']}"
    )
    return f"failover: {fo['victim']} killed, all recover, 0 wrong", fo["ok"], measured


def ratelimit_check(fleet: Fleet, args: argparse.Namespace, workdir: Path) -> Check:
    phase(
        f"ratelimit: {args.replicas} stateless replicas, round robin, "
        f"burst {RATE_BURST}, {RATE_RPM}/min"
    )
    limits = {
        "ODOO_MCP_RATE_LIMIT": "true",
        "ODOO_MCP_RATE_LIMIT_RPM": str(RATE_RPM),
        "ODOO_MCP_RATE_LIMIT_BURST": str(RATE_BURST),
    }
    fleet.start_replicas(args.replicas, stateless=True, env=limits)
    addresses = [address for _, address in fleet.replicas]
    url = fleet.start_balancer(addresses, sticky=False, workdir=workdir)
    pacing = args.rate_calls / args.rate_per_second
    rl = bounded(run_ratelimit(url, args.rate_calls, args.rate_per_second), pacing + 60)
    per = ", ".join(f"{k} {v}" for k, v in sorted(rl["by_replica"].items()))
    measured = (
        f"sent {rl['sent']}, accepted {rl['accepted']} ({per}), refused {rl['refused']}, "
        f"failed {rl['failed']}; allowance {rl['allowance']:.1f} over {rl['elapsed']:.1f} s"
    )
    return "rate limit fleet-wide: accepted <= burst + rate x elapsed + 1", rl["ok"], measured


def summary(
    args: argparse.Namespace, state: str, loads: list[LoadResult], checks: list[Check]
) -> None:
    print(f"\n## Fleet harness: {args.replicas} replica(s), state {state}, ", end="")
    print(f"fake Odoo latency {args.latency_ms:g} ms\n")
    if loads:
        columns = ["behind HAProxy", "sessions x calls", "calls/s", "p50 ms", "p99 ms", "wrong"]
        columns += ["sessions per replica", "CPU s during the run"]
        print("| " + " | ".join(columns) + " |")
        print("|" + "---|" * len(columns))
        for r in loads:
            spread = ", ".join(f"{k} {v}" for k, v in sorted(r.per_replica.items()))
            rate = r.calls / r.wall if r.wall else 0.0
            p50 = statistics.median(x * 1000 for x in r.latencies) if r.latencies else math.nan
            cells = [r.label, f"{r.sessions} x {args.calls}", f"{rate:.0f}", f"{p50:.1f}"]
            cells += [f"{r.quantile(0.99):.1f}", str(len(r.wrong)), spread]
            cells.append(
                ", ".join(f"{k} {v:.1f}" for k, v in r.cpu.items()) + f" (wall {r.wall:.1f})"
            )
            print("| " + " | ".join(cells) + " |")
        print()
    print("| check | result | measured |")
    print("|---|---|---|")
    for name, passed, measured in checks:
        print(f"| {name} | {'pass' if passed else 'FAIL'} | {measured} |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, choices=(1, 2, 3), default=2)
    parser.add_argument("--sessions", type=int, default=20, help="load and failover sessions")
    parser.add_argument("--calls", type=int, default=20, help="tool calls per load session")
    parser.add_argument("--latency-ms", type=float, default=5.0, help="added to each Odoo request")
    parser.add_argument("--no-redis", action="store_true", help="in-process state only")
    parser.add_argument("--phases", default=",".join(PHASES), help="comma-separated subset")
    parser.add_argument("--failover-seconds", type=float, default=6.0)
    parser.add_argument("--rate-calls", type=int, default=32)
    parser.add_argument("--rate-per-second", type=float, default=4.0)
    args = parser.parse_args(argv)
    phases = [p for p in args.phases.split(",") if p]
    if unknown := set(phases) - set(PHASES):
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")

    # SIGTERM (tox, CI timeouts) unwinds like Ctrl-C, through the finally that stops children
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    fleet = Fleet(Processes())
    checks: list[Check] = []
    loads: list[LoadResult] = []
    state = "in-process (--no-redis)" if args.no_redis else "ODOO_MCP_STATE_URL=redis"
    try:
        with tempfile.TemporaryDirectory(prefix="odoo-mcp-fleet-") as tmp:
            workdir = Path(tmp)
            also = "" if args.no_redis else " and Redis"
            phase(f"starting the fake Odoo ({args.latency_ms:g} ms latency){also}")
            fleet.start_fake(args.latency_ms)
            if not args.no_redis:
                fleet.start_redis()
            if {"load", "isolation", "failover"} & set(phases):
                phase(f"starting {args.replicas} stateful replicas ({state}) and HAProxy")
                fleet.start_replicas(args.replicas, stateless=False, env={})
                addresses = [address for _, address in fleet.replicas]
                sticky = fleet.start_balancer(addresses, sticky=True, workdir=workdir)
                if "load" in phases:
                    loads = load_checks(fleet, args, workdir)
                    checks += [load_check(r, args.sessions * args.calls) for r in loads]
                if "isolation" in phases:
                    phase("isolation: demo sends admin's Mcp-Session-Id")
                    direct = [f"http://{address}/mcp" for address in addresses]
                    iso = bounded(run_isolation(sticky, direct), 60)
                    seen = ", ".join(f"{where} {status}" for where, status in iso["seen"].items())
                    checks.append(("isolation: another user's session refused", iso["ok"], seen))
                if "failover" in phases:
                    checks.append(failover_check(fleet, sticky, args))
                fleet.stop_replicas()
            if "ratelimit" in phases:
                checks.append(ratelimit_check(fleet, args, workdir))
                fleet.stop_replicas()
            if "oauth" in phases:
                checks += oauth_checks(fleet, args, workdir)
            keys = fleet.redis_keys()
            if keys is not None:  # 0 keys: the replicas did not use the shared state
                print(f"redis keys after the run: {keys}", flush=True)
    except (RuntimeError, TimeoutError) as exc:
        checks.append(("harness", False, f"{type(exc).__name__}: {exc}"))
    finally:
        fleet.procs.stop_all()
    summary(args, state, loads, checks)
    return 0 if checks and all(passed for _, passed, _ in checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
