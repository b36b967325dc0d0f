"""Runs MCP calls on two servers, one per twin database, and compares the answers (issue 26).

``TwinServers(mode, user)`` builds a ``TwinPair`` of fake Odoo databases, one MCP server on
each (same settings: ``SETTINGS`` plus the mode's) logged in as ``user``, and a connected
client per server, inside a blocking anyio portal so that synchronous code (hypothesis tests,
the bench) can drive them.  ``run_sequence(calls)`` sends each call to both, in order, and
returns a ``Finding`` per call whose answers differ or hold a canary; between two sequences
the twins are reset when the previous one may have written.
"""

from __future__ import annotations

import difflib
import json
import logging
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any
from unittest.mock import patch

from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from mcp import Client, MCPError

from mcp_servers import fake_server
from noninterference.calls import call_sequences
from noninterference.twins import FROZEN_NOW, TwinPair, canaries_in
from odoo_mcp.toolsets import registration

__all__ = [
    "MODES",
    "SETTINGS",
    "USERS",
    "Finding",
    "TwinServers",
    "explore",
    "leak_class",
    "summary",
    "twin_servers",
]

#: what is blocked: the twins differ in exactly these
SETTINGS: dict[str, object] = {
    "field_blocklist": "email",
    "model_blocklist": "crm.lead",
    "enabled_toolsets": "core,contracts",
}
MODES: dict[str, dict[str, object]] = {
    "readonly": {"mode": "readonly"},
    "restricted": {"mode": "restricted", "write_allowlist": "res.partner,sale.order"},
    "full": {"mode": "full"},
}
USERS = ("admin", "demo")
INTERNAL_ERROR = -32603
#: the field of a domain leaf, in a call's JSON
DOMAIN_LEAF = re.compile(r'\["([\w.]+)", "(?:=|!=|<|>|in|not in|(?:=)?i?like|not ilike)"')
#: names that only blocked data answer to (for the leak classes)
BLOCKED_WORDS = re.compile(
    r"email_normalized|email_formatted|email_from|opportunity_ids|\bemail\b|crm\.lead"
    r"|show_email|array_agg|count_distinct"
)


@dataclass
class Finding:
    """One call whose two answers differ (``diff``) or hold canaries (``canaries``)."""

    mode: str
    user: str
    call: dict[str, Any]
    answer_a: Any
    answer_b: Any
    canaries: list[str] = field(default_factory=list)
    before: list[dict[str, Any]] = field(default_factory=list)

    @property
    def differs(self) -> bool:
        return _dump(self.answer_a) != _dump(self.answer_b)

    @property
    def leak_keys(self) -> list[str]:
        """The keys under which the answers differ (``[n]`` a list's length, ``<text>``
        a plain text), and ``canary`` if one is shown."""
        keys = diff_keys(self.answer_a, self.answer_b) if self.differs else set()
        return sorted(keys | ({"canary"} if self.canaries else set()))

    @property
    def leak_class(self) -> str:
        return f"{leak_class(self.call)} -> {','.join(self.leak_keys)}"

    def diff(self, lines: int = 16) -> str:
        a = json.dumps(self.answer_a, indent=1, sort_keys=True, default=str).splitlines()
        b = json.dumps(self.answer_b, indent=1, sort_keys=True, default=str).splitlines()
        out = list(difflib.unified_diff(a, b, "twin A", "twin B", n=0, lineterm=""))
        return "\n".join(out[:lines] + (["..."] if len(out) > lines else []))

    def report(self, width: int = 600) -> str:
        head = f"[{self.mode}/{self.user}] {self.leak_class}\n  call: {_dump(self.call)}"
        if self.before:
            head += f"\n  after: {_dump(self.before)[:width]}"
        parts = [head]
        if self.canaries:
            parts.append(f"  canaries: {self.canaries[:5]}")
        if self.differs:
            parts.append(f"  A: {_dump(self.answer_a)[:width]}")
            parts.append(f"  B: {_dump(self.answer_b)[:width]}")
            parts.append("  diff:\n" + "\n".join("    " + ln for ln in self.diff().splitlines()))
        return "\n".join(parts)


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)


def _shape(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(sorted(value)) + "}"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


def diff_keys(a: Any, b: Any, key: str = "<root>") -> set[str]:
    """The innermost dict keys under which ``a`` and ``b`` differ."""
    if a == b:
        return set()
    if isinstance(a, dict) and isinstance(b, dict):
        out: set[str] = set()
        for k in a.keys() | b.keys():
            out |= diff_keys(a.get(k), b.get(k), k)
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return {f"{key}[n]"}
        out = set()
        for x, y in zip(a, b, strict=True):
            out |= diff_keys(x, y, key)
        return out
    return {key}


def leak_class(call: dict[str, Any]) -> str:
    """A short key grouping calls of the same shape: tool, model, method, argument shape and
    the blocked names they mention."""
    text = _dump(call)
    words = sorted(set(BLOCKED_WORDS.findall(text)))
    mentions = f" mentions={','.join(words)}" if words else ""
    filtered = sorted(set(DOMAIN_LEAF.findall(text)))
    if filtered:
        mentions += f" filters={','.join(filtered)}"
    if call["kind"] == "tool":
        args = call["arguments"]
        name = call["name"]
        if name == "odoo_core_execute":
            pos = args.get("args", [])
            kw = sorted(args.get("kwargs") or {})
            name += f" {args.get('model')}.{args.get('method')} args={len(pos)} kwargs={kw}"
        else:
            name += f" {args.get('model', '')} {sorted(args)}"
        return name + mentions
    if call["kind"] == "resource":
        uri = re.sub(r"/\d+$", "/{id}", call["uri"])
        uri = re.sub(r"\?.*", "?{query}", uri)
        return f"resource {uri}" + (mentions if "?" in call["uri"] else "")
    if call["kind"] == "prompt":
        model = call["arguments"].get("model_name", "")
        return f"prompt {call['name']} {model}"
    return f"list {call['what']}"


def _writes(call: dict[str, Any]) -> bool:
    if call["kind"] != "tool":
        return False
    name = call["name"]
    if name in ("odoo_core_create", "odoo_core_write", "odoo_core_unlink"):
        return True
    return name == "odoo_core_execute" and call["arguments"].get("method") not in (
        "search_read",
        "search",
        "search_count",
        "read",
        "read_group",
        "formatted_read_group",
        "fields_get",
        "name_search",
        "name_get",
        "default_get",
    )


def _parsed(item: dict[str, Any]) -> dict[str, Any]:
    """A content item whose text is JSON, with the JSON parsed (diffs then show the field)."""
    text = item.get("text")
    if isinstance(item.get("content"), dict):
        item = dict(item, content=_parsed(item["content"]))
    if not isinstance(text, str) or text[:1] not in "[{":
        return item
    try:
        parsed = json.loads(text)
    except ValueError:
        return item
    return {**{k: v for k, v in item.items() if k != "text"}, "json": parsed}


async def _answer(client: Client, call: dict[str, Any]) -> Any:
    """The full answer to one call, as JSON data (an MCP error as its code, message, data)."""
    try:
        kind = call["kind"]
        if kind == "tool":
            result: Any = await client.call_tool(call["name"], call["arguments"])
            content = [_parsed(c.model_dump(mode="json")) for c in result.content]
            structured = result.structured_content
            if structured is not None and [c.get("json") for c in content] == [structured]:
                structured = "(the content's JSON)"
            return {"is_error": result.is_error, "content": content, "structured": structured}
        if kind == "resource":
            result = await client.read_resource(call["uri"])
        elif kind == "prompt":
            result = await client.get_prompt(call["name"], call["arguments"])
        else:
            lister = {
                "tools": client.list_tools,
                "resources": client.list_resources,
                "templates": client.list_resource_templates,
                "prompts": client.list_prompts,
            }[call["what"]]
            result = await lister()
        dumped = result.model_dump(mode="json")
        for key in ("contents", "messages"):
            dumped[key] = [_parsed(item) for item in dumped.get(key, [])]
        return dumped
    except MCPError as exc:
        return {
            "error": {"code": exc.error.code, "message": exc.error.message, "data": exc.error.data}
        }
    except Exception as exc:  # a crash on the client side is an answer too
        return {"exception": type(exc).__name__, "message": str(exc)[:500]}


def is_internal_error(answer: Any) -> bool:
    """A JSON-RPC -32603, or a tool's error result of the internal category."""
    if not isinstance(answer, dict):
        return False
    if (answer.get("error") or {}).get("code") == INTERNAL_ERROR:
        return True
    if answer.get("is_error"):
        body = (answer.get("content") or [{}])[0].get("json") or {}
        return isinstance(body, dict) and body.get("category") == "internal"
    return False


class TwinServers:
    """One mode and user: a server on each twin and a client to each (see the module doc)."""

    def __init__(
        self,
        portal: BlockingPortal,
        stack: ExitStack,
        mode: str,
        user: str,
        extra: dict[str, object] | None = None,
    ) -> None:
        self.mode, self.user = mode, user
        self.portal = portal
        self.twins = TwinPair()
        settings = {**SETTINGS, **MODES[mode], **(extra or {})}
        self.clients = [
            stack.enter_context(
                portal.wrap_async_context_manager(
                    Client(fake_server(fake, login=user, **settings), mode="legacy")
                )
            )
            for fake in self.twins.both
        ]
        self.dirty = False
        self.calls = 0
        self.internal_errors = 0
        #: leak_class -> (count, first call) of the calls answered with an internal error
        self.internal: dict[str, list[Any]] = {}

    def run_sequence(self, calls: list[dict[str, Any]]) -> list[Finding]:
        if self.dirty:
            self.twins.reset()
            self.dirty = False
        findings = []
        for n, call in enumerate(calls):
            a, b = (self.portal.call(_answer, client, call) for client in self.clients)
            self.calls += 1
            crashed = is_internal_error(a) + is_internal_error(b)
            self.internal_errors += crashed
            if crashed:
                seen = self.internal.setdefault(leak_class(call), [0, call, a])
                seen[0] += 1
            self.dirty = self.dirty or _writes(call)
            sent = _dump(call)
            found = canaries_in(_dump(a), sent) + canaries_in(_dump(b), sent)
            finding = Finding(self.mode, self.user, call, a, b, sorted(set(found)), calls[:n])
            if finding.differs or finding.canaries:
                findings.append(finding)
        return findings


@contextmanager
def twin_servers(
    combos: list[tuple[str, str]] | None = None, extra: dict[str, object] | None = None
) -> Iterator[dict[tuple[str, str], TwinServers]]:
    """``TwinServers`` for each (mode, user), all on one event loop, closed on exit;
    ``extra`` settings override ``SETTINGS`` (e.g. more blocked fields)."""
    combos = combos or [(m, u) for m in MODES for u in USERS]
    logging.disable(logging.ERROR)  # the servers log every refusal and crash: thousands
    # the toolset registration report's time (wall clock, seconds) is the one thing two
    # server processes legitimately differ in: both twins get the same
    frozen = patch.object(registration, "_now", lambda: FROZEN_NOW.replace(" ", "T") + "Z")
    try:
        with frozen, start_blocking_portal("asyncio") as portal, ExitStack() as stack:
            yield {(m, u): TwinServers(portal, stack, m, u, extra) for m, u in combos}
    finally:
        logging.disable(logging.NOTSET)


def explore(servers: TwinServers, examples: int, seed: int = 26) -> list[Finding]:
    """Run ``examples`` generated call sequences (seeded: the same ones every time)."""
    findings: list[Finding] = []

    combo = sorted(MODES).index(servers.mode) * len(USERS) + USERS.index(servers.user)

    @hypothesis_seed(seed * 100 + combo)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(call_sequences)
    def run(calls: list[dict[str, Any]]) -> None:
        findings.extend(servers.run_sequence(calls))

    run()
    return findings


def summary(findings: list[Finding], examples_per_class: int = 1, width: int = 600) -> str:
    """The distinct leak classes, most frequent first, with an example of each."""
    classes: dict[str, list[Finding]] = {}
    for finding in findings:
        classes.setdefault(finding.leak_class, []).append(finding)
    ranked = sorted(classes.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    lines = [f"{len(findings)} leaking answers in {len(classes)} classes:"]
    for key, group in ranked:
        where = sorted({f"{f.mode}/{f.user}" for f in group})
        canary = sum(1 for f in group if f.canaries)
        differ = sum(1 for f in group if f.differs)
        lines.append(f"- {key}: {len(group)} ({differ} differ, {canary} with canaries) in {where}")
    for _key, group in ranked:
        lines.append("")
        lines.extend(f.report(width) for f in group[:examples_per_class])
    return "\n".join(lines)
