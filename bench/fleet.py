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

Exit status 0 only when every check passed; a markdown summary ends the output.
Run ``python bench/fleet.py`` or ``tox -e fleet -- --replicas 2``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
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

import httpx2
from fleet_lb import REPLICA_HEADER, haproxy_config
from http_load import CALLS, TOKENS, checked_calls
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from fake_odoo.demo import ADMIN_API_KEY

PHASES = ("load", "isolation", "failover", "ratelimit")
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

    def start_replicas(self, count: int, *, stateless: bool, env: dict[str, str]) -> None:
        started: list[tuple[Child, str]] = []
        for index in range(1, count + 1):
            port = free_port()
            environ = {
                "ODOO_URL": self.odoo_url,
                "ODOO_DB": "demo",
                "ODOO_USERNAME": "admin",
                "ODOO_API_KEY": ADMIN_API_KEY,
                # the server logs each refused demo call (REQ-10-18): not what this measures
                "ODOO_MCP_LOG_LEVEL": "error",
                **({"ODOO_MCP_STATE_URL": self.state_url} if self.state_url else {}),
                # issue 37: HAProxy's address here; its X-Forwarded-For alone is believed
                "ODOO_MCP_TRUSTED_PROXIES": "127.0.0.1",
                **env,
            }
            argv = [sys.executable, "-m", "odoo_mcp", "serve", "--transport", "http"]
            argv += ["--host", "127.0.0.1", "--port", str(port), "--http-auth", "on"]
            argv += ["--stateless"] if stateless else []
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

    def start_balancer(self, addresses: Sequence[str], *, sticky: bool, workdir: Path) -> str:
        port = free_port()
        config = workdir / f"haproxy-{port}.cfg"
        config.write_text(haproxy_config(port, addresses, sticky=sticky), encoding="utf-8")
        # -db: foreground, no daemon, so it is our child and dies with the harness
        child = self.procs.start(f"haproxy :{port}", [HAPROXY, "-db", "-f", str(config)])
        base = f"http://127.0.0.1:{port}"
        wait_until(http_ok(f"{base}/health"), child, 15)
        return f"{base}/mcp"


# -- raw MCP over HTTP (exact statuses, which the SDK client turns into exceptions) ------------


@dataclass
class Reply:
    status: int
    body: dict[str, Any] | None
    session: str | None
    replica: str | None


async def post(
    http: httpx2.AsyncClient, url: str, message: dict[str, Any], session: str | None = None
) -> Reply:
    headers = dict(MCP_HEADERS)
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
                    elif client.correct:
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
