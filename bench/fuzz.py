"""Fuzz: random and malformed tool calls over stdio and HTTP against one fake Odoo 19.

One fake Odoo 19.0 served on loopback; ``odoo-mcp serve`` spawned over stdio with the SDK's
client and ``odoo-mcp serve --transport http --http-auth on`` (admin API key as Bearer token)
with ``streamable_http_client``. ``--calls`` calls (default 10,000) are split half/half between
the two sessions; they are generated with ``random.Random(--seed)`` from the server's own
``tools/list`` (names and input schemas) plus unknown tool names, wrong types, huge and negative
numbers, NaN/Infinity, nulls, missing and extra arguments, 100k-character strings, odd unicode,
deep nesting, malformed domains, odd models and ids.

The SDK client cannot put every payload on the wire: it writes NaN/Infinity as null, refuses
lone surrogates and nesting deeper than ~250 levels. Such payloads go, byte for byte, through a
raw side channel of the same transport instead (a second stdio server process spoken to in
line-delimited JSON-RPC, a second MCP session on the same HTTP server spoken to with plain HTTP
POSTs); they show as the ``stdio-raw`` and ``http-raw`` rows.

Each call has a 5 s timeout and is classified as ok, tool error (``isError``), JSON-RPC error
(by code; -32603 and HTTP 5xx counted apart), hang (timeout) or crash (the session died: that
transport stops). Any answer text holding a traceback or a file path counts as a leak. RSS of
each server process is read from /proc before the first and after the last call.

Exit status 1 on any crash, hang, -32603 or leak, else 0. Run by hand:
``python bench/fuzz.py --calls 10000 --seed 1``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO

import httpx2
import jsonschema  # type: ignore[import-untyped]
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.testing import serve_fake_odoo
from odoo_mcp_demo.http_process import http_server_process

CALL_TIMEOUT = 5.0
LEAK_MARKERS = ("Traceback", 'File "/', "/site-packages/", "/work/", "/usr/lib")
CONNECTION_CLOSED = -32000
INTERNAL_ERROR = -32603
PROTOCOL_VERSION = "2025-06-18"
MAX_EXAMPLES = 10
#: pydantic's serializer gives up at 255 levels; the request envelope adds a few
SDK_MAX_DEPTH = 240

# ----------------------------------------------------------------------------- values

GOOD_MODELS = ["res.partner", "sale.order", "res.users", "product.product", "account.move",
               "res.company", "stock.picking", "res.country", "account.payment"]  # fmt: skip
BAD_MODELS = ["", "res.partner; drop", "ir.config_parameter", "../../etc/passwd", "res.partner\x00",
              "RES.PARTNER", " res.partner ", "x" * 10_000, "res..partner", "no.such.model",
              "ir.model", "res.users.apikeys", "\u202eres.partner", "res.partner'--", "%s%s%n",
              "{model}", "ir.rule", "base", "res_partner", "res.partner\n"]  # fmt: skip
GOOD_DOMAINS: list[Any] = [
    [], [["name", "ilike", "a"]], [["id", ">", 3]], ["|", ["id", "=", 1], ["id", "=", 2]],
    [["active", "=", True]], ["!", ["name", "=", "x"]], [["id", "in", [1, 2, 3]]],
]  # fmt: skip


def _nested(depth: int) -> Any:
    value: Any = ["name", "=", "x"]
    for _ in range(depth):
        value = [value]
    return value


def _nested_dict(depth: int) -> Any:
    value: Any = {"a": 1}
    for _ in range(depth):
        value = {"a": value}
    return value


BAD_DOMAINS: list[Any] = [
    ["|"], [["a"]], [[1, 2, 3]], "not a list", [["name", "=", ["x"] * 10_000]],
    ["&"], ["!"], ["|", ["id", "=", 1]], [["name", "bogus", 1]], [["name", "=like", "%"]],
    [["a.b.c.d.e", "=", 1]], [["id", "child_of", -1]], [["name", "in", [None]]],
    [["id", "=", 2**63]], [[None, None, None]], [{"a": 1}], [["name", "=", {"x": 1}]],
    [["name", "in", "abc"]], [["", "", ""]], [["id", "in", list(range(20_000))]],
    ["!"] * 500 + [["name", "=", "x"]], ["&"] * 499 + [["id", "=", 1]] * 500,
    ["|"] * 2000 + [["id", "=", 1]] * 2001, _nested(500), [_nested(500)], [_nested(50)],
    [["name", "=", "\x00"]], [["name", "ilike", "\\"]], [["name", "=", float("nan")]],
    [["password", "=", "x"]], [["id", "=", "1 OR 1=1"]],
]  # fmt: skip

ODD_STRINGS = ["\u202eevil\u202c", "a\x00b", "\x00", "😀" * 50, "e\u0301\u0301\u0301\u0301",
               "\ufeffname", "\uffff", "𝕏𝕐ℤ", "Z̴̡̛͇͈a̵l̷g̶o̸", "\u200b", "\u0645\u0631\u062d\u0628\u0627",
               "\ud800", "\udfff", "a\ud83d", "\r\n\t", "' OR 1=1 --", "${jndi:x}", "%00",
               "\\", "\"", "<script>", "A" * 100_000, "é" * 100_000, "name,id", "",
               " ", "*", "__class__", "\x1b[31m"]  # fmt: skip


def _nasty(rng: random.Random) -> Any:
    """A value of any type that is likely wrong where it lands."""
    kind = rng.randrange(14)
    if kind == 0:
        return rng.choice([2**63, 10**30, -(2**63) - 1, 2**40, -1, 0, -(10**30), 2**64])
    if kind == 1:
        return rng.choice([float("nan"), float("inf"), float("-inf")])
    if kind == 2:
        return rng.choice(["NaN", "Infinity", "-Infinity", "1e999"])
    if kind == 3:
        return None
    if kind == 4:
        return rng.choice(ODD_STRINGS)
    if kind == 5:
        return rng.choice([["a"], [1, 2], [[]], [None], list(range(1000))])
    if kind == 6:
        return rng.choice([{"a": 1}, {}, {"__proto__": 1}, {"": None}])
    if kind == 7:
        return rng.choice([True, False])
    if kind == 8:
        return rng.choice([1.5, -0.0, 1e308, 5e-324, -1.0])
    if kind == 9:
        return rng.choice([_nested(500), _nested_dict(500), _nested(100)])
    if kind == 10:
        return rng.choice(BAD_DOMAINS)
    if kind == 11:
        return rng.choice(BAD_MODELS)
    if kind == 12:
        return rng.choice(["12", "1", "-1", "true", "null", "[]"])
    return rng.choice([[0], [-1], [2**40], ["1"], [1, "a"], [], [2**63], [1.5], [None]])


def _good_value(name: str, schema: dict[str, Any], rng: random.Random) -> Any:
    """A plausible value for argument ``name`` (mostly valid)."""
    if name == "model":
        return rng.choice(GOOD_MODELS)
    if name == "domain":
        return rng.choice(GOOD_DOMAINS)
    if name in ("fields", "attributes"):
        return rng.choice([[], ["name"], ["id", "name", "display_name"], ["string", "type"]])
    if name == "ids":
        return rng.choice([[1], [1, 2, 3], list(range(1, 11)), [5]])
    if name in ("limit", "offset"):
        return rng.randint(0, 50)
    if name == "order":
        return rng.choice(["name asc", "id desc", "id", "name"])
    if name == "context":
        return rng.choice([{}, {"lang": "en_US"}, {"active_test": False}])
    if name == "filter":
        return rng.choice(["sale", "res", "account", ""])
    if name == "method":
        return rng.choice(["search_count", "read", "name_search", "fields_get", "copy",
                           "action_confirm", "write", "create", "unlink", "search",
                           "_private", "__init__", "sudo", "browse", "exists"])  # fmt: skip
    if name == "args":
        return rng.choice([[], [[1]], [[1, 2]], [[]], [[["name", "=", "x"]]]])
    if name == "kwargs":
        return rng.choice([{}, {"limit": 1}, {"fields": ["name"]}])
    if name in ("values", "vals"):
        return rng.choice([{"name": "Fuzz"}, {"name": "Fuzz", "email": "f@example.com"}, {}])
    if name == "vals_list":
        return [{"name": "Fuzz"}]
    kind = schema.get("type")
    if kind is None and schema.get("anyOf"):
        kind = next((s.get("type") for s in schema["anyOf"] if s.get("type") != "null"), None)
    if kind == "string":
        return rng.choice(["x", "test", "1", "res.partner"])
    if kind == "integer":
        return rng.randint(0, 10)
    if kind == "number":
        return rng.choice([0, 1.5])
    if kind == "boolean":
        return rng.choice([True, False])
    if kind == "array":
        items = schema.get("items") or {}
        return [1] if items.get("type") == "integer" else []
    if kind == "object":
        return {}
    return "x"


def _wrong_type(value: Any, rng: random.Random) -> Any:
    """Same slot, wrong JSON type: str for int, list for str, dict for list, ..."""
    if isinstance(value, bool):
        return rng.choice(["true", 1, None])
    if isinstance(value, int):
        return rng.choice([str(value), [value], {"v": value}, float(value) + 0.5])
    if isinstance(value, str):
        return rng.choice([[value], {"v": value}, 1, True])
    if isinstance(value, list):
        return rng.choice([{"0": value[:1]}, "[]", 1, None])
    if isinstance(value, dict):
        return rng.choice([[value], "{}", 0])
    return rng.choice(["x", 1, [], {}])


@dataclass
class Tool:
    name: str
    schema: dict[str, Any]
    output_schema: dict[str, Any] | None


UNKNOWN_TOOLS = ["", "odoo_core_nope", "odoo_core_search_read ", "ODOO_CORE_COUNT", "../etc/passwd",
                 "odoo_core_search_read\x00", "tools/list", "x" * 5000, "odoo_core_😀",
                 "orders.get.x", "odoo_core_execute;rm"]  # fmt: skip


def generate(tools: list[Tool], rng: random.Random) -> tuple[str, Any]:
    """One call: a tool name and its arguments (usually a dict, sometimes not)."""
    if rng.random() < 0.05:
        return rng.choice(UNKNOWN_TOOLS), {"model": "res.partner"}
    tool = rng.choice(tools)
    props: dict[str, Any] = tool.schema.get("properties") or {}
    required: list[str] = tool.schema.get("required") or []
    args: dict[str, Any] = {}
    for name, schema in props.items():
        if name in required or rng.random() < 0.5:
            args[name] = _good_value(name, schema, rng)
    roll = rng.random()
    if roll < 0.15:
        return tool.name, args  # a valid-looking call
    if roll < 0.17:
        return tool.name, rng.choice([None, [], "args", 1, [args]])  # arguments not an object
    for _ in range(rng.randint(1, 3)):
        mutation = rng.randrange(9)
        if mutation == 0 and required:
            args.pop(rng.choice(required), None)
        elif mutation == 1:
            extra = rng.choice(["extra", "__proto__", "sudo", "uid", "model ", "", "😀", "limit"])
            args[extra] = _nasty(rng)
        elif mutation == 2 and args:
            key = rng.choice(sorted(args))
            args[key] = _wrong_type(args[key], rng)
        elif mutation == 3 and args:
            args[rng.choice(sorted(args))] = _nasty(rng)
        elif mutation == 4 and "model" in props:
            args["model"] = rng.choice(BAD_MODELS)
        elif mutation == 5 and "domain" in props:
            args["domain"] = rng.choice(BAD_DOMAINS)
        elif mutation == 6 and "ids" in props:
            args["ids"] = (
                _nasty(rng)
                if rng.random() < 0.3
                else rng.choice(
                    [[0], [-1], [2**40], ["1"], [1, -1, 0], [2**63], list(range(1, 300)), [1.0]]
                )
            )
        elif mutation == 7:
            for name in ("limit", "offset"):
                if name in props:
                    args[name] = rng.choice([-1, 2**63, 10**30, -(2**31), "10", 1.5, None])
        elif mutation == 8 and props:
            key = rng.choice(sorted(props))
            args[key] = rng.choice(ODD_STRINGS)
    return tool.name, args


def _depth(value: Any, level: int = 0) -> int:
    if level > SDK_MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def _sdk_unsafe(value: Any) -> bool:
    """True when the SDK client would change (NaN -> null) or refuse (surrogates, depth) it."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return True
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return _depth(value) > SDK_MAX_DEPTH


def _dump(value: Any) -> str:
    """JSON for the report: NaN as NaN, surrogates escaped."""
    return json.dumps(value, ensure_ascii=True, allow_nan=True)


# ----------------------------------------------------------------------------- results


@dataclass
class Outcome:
    kind: str  # ok | tool_error | rpc_error | hang | crash
    code: int | str | None = None
    text: str = ""  # everything the answer said, for the leak check
    malformed: str = ""


@dataclass
class Stats:
    name: str
    calls: int = 0
    ok: int = 0
    tool_errors: int = 0
    rpc_codes: Counter[int | str] = field(default_factory=Counter)
    internal: int = 0
    hangs: int = 0
    crashes: int = 0
    leaks: int = 0
    malformed: int = 0
    schema_violations: int = 0
    wall: float = 0.0
    rss_before: float | None = None
    rss_after: float | None = None
    examples: dict[str, list[str]] = field(default_factory=dict)
    stopped: str = ""

    def example(self, kind: str, tool: str, arguments: Any, answer: str) -> None:
        bucket = self.examples.setdefault(kind, [])
        if len(bucket) < MAX_EXAMPLES:
            args = _dump(arguments)
            args = args if len(args) <= 300 else args[:300] + "..."
            bucket.append(f"tool={tool!r} arguments={args}\n        -> {answer[:300]}")


def _leaky(text: str) -> str | None:
    return next((m for m in LEAK_MARKERS if m in text), None)


def _classify_result(result: Any) -> Outcome:
    text = _dump(result)
    if not isinstance(result, dict) or not isinstance(result.get("content"), list):
        return Outcome("ok", text=text, malformed="result without a content list")
    if result.get("isError"):
        return Outcome("tool_error", text=text)
    return Outcome("ok", text=text)


def record(
    stats: Stats, tools: dict[str, Tool], tool: str, arguments: Any, outcome: Outcome
) -> None:
    stats.calls += 1
    answer = outcome.text
    if outcome.kind == "ok":
        stats.ok += 1
        spec = tools.get(tool)
        if outcome.malformed:
            stats.malformed += 1
            stats.example("malformed result", tool, arguments, outcome.malformed + ": " + answer)
        elif spec is not None and spec.output_schema is not None:
            with contextlib.suppress(ValueError):
                structured = json.loads(answer).get("structuredContent")
                error = jsonschema.exceptions.best_match(
                    jsonschema.Draft202012Validator(spec.output_schema).iter_errors(structured)
                )
                if error is not None:
                    stats.schema_violations += 1
                    stats.example(
                        "output schema violation", tool, arguments, f"{error.message[:150]}"
                    )
    elif outcome.kind == "tool_error":
        stats.tool_errors += 1
    elif outcome.kind == "rpc_error":
        assert outcome.code is not None
        stats.rpc_codes[outcome.code] += 1
        if outcome.code == INTERNAL_ERROR or (
            isinstance(outcome.code, str) and outcome.code.startswith("http 5")
        ):
            stats.internal += 1
            stats.example("-32603 / HTTP 5xx", tool, arguments, f"{outcome.code}: {answer}")
    elif outcome.kind == "hang":
        stats.hangs += 1
        stats.example("hang", tool, arguments, answer or f"no answer in {CALL_TIMEOUT:.0f} s")
    elif outcome.kind == "crash":
        stats.crashes += 1
        stats.example("crash", tool, arguments, answer)
    marker = _leaky(answer)
    if marker is not None:
        stats.leaks += 1
        where = answer.find(marker)
        stats.example(
            "leak", tool, arguments, f"[{marker}] ...{answer[max(0, where - 120) : where + 160]}"
        )


# ----------------------------------------------------------------------------- channels


class SdkChannel:
    """A session of the SDK's ``Client``; requests go out raw so the client neither validates
    nor reshapes what the server answers."""

    def __init__(self, client: Client, pid: int | None) -> None:
        self.client = client
        self.pid = pid

    async def call(self, tool: str, arguments: Any) -> Outcome:
        dispatcher = self.client.session._dispatcher
        try:
            result = await asyncio.wait_for(
                dispatcher.send_raw_request("tools/call", {"name": tool, "arguments": arguments}),
                CALL_TIMEOUT,
            )
        except TimeoutError:
            return await self._after_failure("hang", f"no answer in {CALL_TIMEOUT:.0f} s")
        except MCPError as exc:
            text = _dump({"code": exc.code, "message": exc.message, "data": exc.data})
            if exc.code == CONNECTION_CLOSED:
                return await self._after_failure("crash", text)
            return Outcome("rpc_error", code=exc.code, text=text)
        except Exception as exc:  # anything else: is the session still there?
            return await self._after_failure("crash", f"{type(exc).__name__}: {exc}")
        return _classify_result(result)

    async def _after_failure(self, kind: str, text: str) -> Outcome:
        if self.pid is not None and not _alive(self.pid):
            return Outcome("crash", text=f"{text}; server process {self.pid} is gone")
        try:
            await asyncio.wait_for(self.client.send_ping(), CALL_TIMEOUT)
        except Exception as exc:
            return Outcome("crash", text=f"{text}; then ping failed: {type(exc).__name__}: {exc}")
        if kind == "crash":  # the session lives on: the exception was the client's
            return Outcome("rpc_error", code="client exception", text=text)
        return Outcome(kind, text=text)


class RawStdioChannel:
    """A second ``odoo-mcp serve`` over stdio, written to in line-delimited JSON-RPC."""

    def __init__(self, env: dict[str, str], errlog: TextIO) -> None:
        self.env = env
        self.errlog = errlog
        self.process: asyncio.subprocess.Process | None = None
        self.next_id = 0

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "odoo_mcp", "serve", env=self.env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.errlog, limit=256 * 1024 * 1024,
        )  # fmt: skip
        answer = await asyncio.wait_for(
            self._request("initialize", {"protocolVersion": PROTOCOL_VERSION, "capabilities": {},
                                         "clientInfo": {"name": "fuzz-raw", "version": "0"}}),
            30,
        )  # fmt: skip
        if "result" not in answer:
            raise RuntimeError(f"raw stdio initialize failed: {answer}")
        await self._write({"jsonrpc": "2.0", "method": "notifications/initialized"})

    async def _write(self, message: Any) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(_dump(message).encode() + b"\n")
        await self.process.stdin.drain()

    async def _request(self, method: str, params: Any) -> dict[str, Any]:
        assert self.process is not None and self.process.stdout is not None
        self.next_id += 1
        request_id = self.next_id
        await self._write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            line = await self.process.stdout.readline()
            if not line:
                raise ConnectionError("server closed stdout")
            with contextlib.suppress(ValueError):
                message = json.loads(line)
                if isinstance(message, dict) and message.get("id") == request_id:
                    return message
                if (
                    isinstance(message, dict)
                    and "method" not in message
                    and message.get("id", 0) is None
                ):
                    return message  # an error for a request it could not parse

    async def call(self, tool: str, arguments: Any) -> Outcome:
        try:
            answer = await asyncio.wait_for(
                self._request("tools/call", {"name": tool, "arguments": arguments}), CALL_TIMEOUT
            )
        except TimeoutError:
            if self.process is not None and self.process.returncode is not None:
                return Outcome("crash", text=f"server exited {self.process.returncode}")
            return Outcome("hang", text=f"no answer in {CALL_TIMEOUT:.0f} s")
        except (ConnectionError, BrokenPipeError, OSError) as exc:
            code = self.process.returncode if self.process is not None else None
            return Outcome("crash", text=f"{type(exc).__name__}: {exc}; exit code {code}")
        return _classify_jsonrpc(answer)

    async def close(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


def _classify_jsonrpc(answer: dict[str, Any]) -> Outcome:
    if "error" in answer:
        error = answer["error"] if isinstance(answer["error"], dict) else {}
        return Outcome("rpc_error", code=error.get("code", "?"), text=_dump(answer["error"]))
    return _classify_result(answer.get("result"))


class RawHttpChannel:
    """A second MCP session on the HTTP server, spoken to with plain POSTs of raw JSON."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.http = httpx2.AsyncClient(timeout=CALL_TIMEOUT + 1)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json",
                        "Accept": "application/json, text/event-stream"}  # fmt: skip
        self.next_id = 0

    async def start(self) -> None:
        response = await self.http.post(self.url, headers=self.headers, content=_dump(
            {"jsonrpc": "2.0", "id": 0, "method": "initialize",
             "params": {"protocolVersion": PROTOCOL_VERSION, "capabilities": {},
                        "clientInfo": {"name": "fuzz-raw", "version": "0"}}}
        ))  # fmt: skip
        if response.status_code != 200:
            raise RuntimeError(f"raw HTTP initialize: {response.status_code} {response.text}")
        session = response.headers.get("mcp-session-id")
        if session:
            self.headers["mcp-session-id"] = session
        self.headers["mcp-protocol-version"] = PROTOCOL_VERSION
        await self.http.post(self.url, headers=self.headers, content=_dump(
            {"jsonrpc": "2.0", "method": "notifications/initialized"}
        ))  # fmt: skip

    async def call(self, tool: str, arguments: Any) -> Outcome:
        self.next_id += 1
        body = {"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                "params": {"name": tool, "arguments": arguments}}  # fmt: skip
        try:
            response = await asyncio.wait_for(
                self.http.post(self.url, headers=self.headers, content=_dump(body)), CALL_TIMEOUT
            )
        except TimeoutError:
            return Outcome("hang", text=f"no answer in {CALL_TIMEOUT:.0f} s")
        except httpx2.TimeoutException:
            return Outcome("hang", text=f"no answer in {CALL_TIMEOUT:.0f} s (httpx)")
        except httpx2.TransportError as exc:
            return Outcome("crash", text=f"{type(exc).__name__}: {exc}")
        text = response.text
        message: Any = None
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            for line in text.splitlines():
                if line.startswith("data:"):
                    with contextlib.suppress(ValueError):
                        candidate = json.loads(line[5:])
                        if isinstance(candidate, dict) and candidate.get("id") == self.next_id:
                            message = candidate
        else:
            with contextlib.suppress(ValueError):
                message = json.loads(text)
        if isinstance(message, dict) and ("error" in message or "result" in message):
            return _classify_jsonrpc(message)
        if response.status_code >= 400:
            return Outcome("rpc_error", code=f"http {response.status_code}", text=text[:2000])
        return Outcome(
            "ok", text=text, malformed=f"HTTP {response.status_code}, no JSON-RPC answer"
        )

    async def close(self) -> None:
        await self.http.aclose()


# ----------------------------------------------------------------------------- processes


def _rss_mb(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _children() -> dict[int, list[str]]:
    """Our child processes and their argv, from /proc."""
    found: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
            if ppid != os.getpid():
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                found[int(entry)] = cmdline.read().decode(errors="replace").split("\x00")
        except (OSError, ValueError, IndexError):
            continue
    return found


def _find_server(http_port: str | None, exclude: set[int]) -> int | None:
    for pid, argv in _children().items():
        if pid in exclude or "odoo_mcp" not in argv or "serve" not in argv:
            continue
        if http_port is None and "--transport" not in argv:
            return pid
        if http_port is not None and http_port in argv:
            return pid
    return None


# ----------------------------------------------------------------------------- driver


@dataclass
class Lane:
    """One transport: its SDK session, its raw side channel and their statistics."""

    sdk: SdkChannel
    raw: RawStdioChannel | RawHttpChannel
    sdk_stats: Stats
    raw_stats: Stats
    calls: list[tuple[str, Any]]


async def drive(lane: Lane, tools: dict[str, Tool], deadline: float, max_hangs: int) -> None:
    started = time.perf_counter()
    raw_started = 0.0
    try:
        for tool, arguments in lane.calls:
            if time.monotonic() > deadline:
                lane.sdk_stats.stopped = lane.raw_stats.stopped = "--max-seconds reached"
                break
            raw = _sdk_unsafe(arguments)
            stats = lane.raw_stats if raw else lane.sdk_stats
            if stats.stopped:
                continue
            t0 = time.perf_counter()
            channel = lane.raw if raw else lane.sdk
            outcome = await channel.call(tool, arguments)
            if raw:
                raw_started += time.perf_counter() - t0
            record(stats, tools, tool, arguments, outcome)
            if outcome.kind == "crash":
                stats.stopped = "crashed: transport stopped"
            elif stats.hangs >= max_hangs:
                stats.stopped = f"{max_hangs} hangs (--max-hangs): later calls skipped"
    finally:
        lane.raw_stats.wall = raw_started
        lane.sdk_stats.wall = time.perf_counter() - started - raw_started


def _tools_from(listing: Any) -> dict[str, Tool]:
    return {
        t.name: Tool(
            t.name, dict(t.input_schema), dict(t.output_schema) if t.output_schema else None
        )
        for t in listing.tools
    }


async def run(
    args: argparse.Namespace, fake_url: str, base: str, errlog: TextIO, stats: list[Stats]
) -> None:
    deadline = time.monotonic() + args.max_seconds
    env = {"PATH": os.environ.get("PATH", ""), "ODOO_URL": fake_url, "ODOO_DB": "demo",
           "ODOO_USERNAME": "admin", "ODOO_API_KEY": ADMIN_API_KEY, "ODOO_MCP_LOG_LEVEL": "error",
           "ODOO_MCP_MODE": args.mode, "ODOO_MCP_ENABLED_TOOLSETS": args.toolsets}  # fmt: skip
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "odoo_mcp", "serve"], env=env
    )
    raw_stdio = RawStdioChannel(env, errlog)
    raw_http = RawHttpChannel(f"{base}/mcp", ADMIN_API_KEY)
    port = base.rsplit(":", 1)[1]
    async with contextlib.AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {ADMIN_API_KEY}"}, timeout=60)
        )
        stdio_client_ = await stack.enter_async_context(
            Client(stdio_client(params, errlog=errlog), mode="legacy")
        )
        http_client = await stack.enter_async_context(
            Client(streamable_http_client(f"{base}/mcp", http_client=http), mode="legacy")
        )
        stdio_pid = _find_server(None, set())
        http_pid = _find_server(port, set())
        stack.push_async_callback(raw_stdio.close)
        stack.push_async_callback(raw_http.close)
        await raw_stdio.start()
        await raw_http.start()
        tools = _tools_from(await stdio_client_.list_tools())
        http_tools = _tools_from(await http_client.list_tools())
        if sorted(tools) != sorted(http_tools):
            print(f"note: stdio lists {sorted(tools)}, HTTP lists {sorted(http_tools)}")
        print(f"{len(tools)} tools: {', '.join(sorted(tools))}")
        rng = random.Random(args.seed)
        tool_list = [tools[name] for name in sorted(tools)]
        calls = [generate(tool_list, rng) for _ in range(args.calls)]
        print(f"phase: {args.calls} generated calls over stdio and HTTP (SDK and raw lanes), "
              f"at most {args.max_seconds} s", flush=True)  # fmt: skip
        lanes = [
            Lane(SdkChannel(stdio_client_, stdio_pid), raw_stdio, stats[0], stats[1], calls[0::2]),
            Lane(SdkChannel(http_client, http_pid), raw_http, stats[2], stats[3], calls[1::2]),
        ]
        pids = [stdio_pid, raw_stdio.pid, http_pid, http_pid]
        for item, pid in zip(stats, pids, strict=True):
            item.rss_before = _rss_mb(pid)
        drives = asyncio.gather(*(drive(lane, tools, deadline, args.max_hangs) for lane in lanes))
        try:  # drive() stops itself at the deadline; this bounds a call stuck past it
            await asyncio.wait_for(drives, max(1.0, deadline - time.monotonic()) + 30)
        except TimeoutError:
            for item in stats:
                item.stopped = item.stopped or "killed by the --max-seconds watchdog"
        for item, pid in zip(stats, pids, strict=True):
            item.rss_after = _rss_mb(pid)


def _mb(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def report(stats: list[Stats], wall: float, stderr_text: str) -> bool:
    header = (f"{'transport':10} {'calls':>6} {'ok':>6} {'toolerr':>7} {'rpcerr':>6} "
              f"{'-32603':>6} {'hangs':>5} {'crash':>5} {'leaks':>5} {'schema':>6} "
              f"{'RSS MB before/after':>19} {'wall s':>7}")  # fmt: skip
    print(header)
    print("-" * len(header))
    for s in stats:
        rss = f"{_mb(s.rss_before)} / {_mb(s.rss_after)}"
        print(f"{s.name:10} {s.calls:6} {s.ok:6} {s.tool_errors:7} {sum(s.rpc_codes.values()):6} "
              f"{s.internal:6} {s.hangs:5} {s.crashes:5} {s.leaks:5} {s.schema_violations:6} "
              f"{rss:>19} {s.wall:7.1f}")  # fmt: skip
    print(f"total wall {wall:.1f} s (http and http-raw share one server process)")
    for s in stats:
        if s.rpc_codes:
            codes = ", ".join(f"{code}: {n}" for code, n in sorted(s.rpc_codes.items(), key=str))
            print(f"  {s.name} JSON-RPC errors by code: {codes}")
        if s.malformed:
            print(f"  {s.name}: {s.malformed} answers without a JSON-RPC result/content list")
        if s.stopped:
            print(f"  {s.name}: {s.stopped}")
    tracebacks = stderr_text.count("Traceback")
    print(f"stdio servers' stderr: {len(stderr_text)} chars, {tracebacks} tracebacks logged")
    for s in stats:
        for kind, examples in s.examples.items():
            print(f"\n[{s.name}] {kind} (first {len(examples)}):")
            for example in examples:
                print(f"  - {example}")
    return any(s.crashes or s.hangs or s.internal or s.leaks for s in stats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=900)
    parser.add_argument("--max-hangs", type=int, default=20, help="per row, then it stops")
    parser.add_argument("--mode", default="full", help="ODOO_MCP_MODE (full lists write tools)")
    parser.add_argument("--toolsets", default="core,contracts", help="ODOO_MCP_ENABLED_TOOLSETS")
    args = parser.parse_args()
    logging.getLogger("odoo.http").setLevel(logging.ERROR)  # the fake's deprecation warnings
    started = time.perf_counter()
    stats = [Stats("stdio"), Stats("stdio-raw"), Stats("http"), Stats("http-raw")]
    with (
        tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog,
        serve_fake_odoo("19.0") as fake,
        http_server_process(
            str(fake.url), "--http-auth", "on", ODOO_MCP_LOG_LEVEL="error",
            ODOO_MCP_MODE=args.mode, ODOO_MCP_ENABLED_TOOLSETS=args.toolsets,
        ) as base,
    ):  # fmt: skip
        asyncio.run(run(args, str(fake.url), base, errlog, stats))
        errlog.seek(0)
        stderr_text = errlog.read()
    failed = report(stats, time.perf_counter() - started, stderr_text)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
