"""Non-interference: how two answers to one call are compared, and leaks grouped and told.

An answer is the whole MCP reply as JSON data (a tool result with its content and structured
content, a resource's contents, a prompt's messages, or a JSON-RPC error's code, message and
data), with every text that holds JSON parsed so that a difference names its field. Two twins'
answers must be equal; the only values taken out first are wall-clock times (``WALL_CLOCK``):
a server's own clock is not Odoo data, and the twins' Odoo clocks are frozen months away.
"""

from __future__ import annotations

import difflib
import json
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from mcp import Client, MCPError

__all__ = [
    "INTERNAL_ERROR",
    "Finding",
    "answer",
    "diff_keys",
    "is_internal_error",
    "leak_class",
    "normalize_wall_clock",
    "summary",
    "writes",
]

INTERNAL_ERROR = -32603
#: the field of a domain leaf, in a call's JSON
DOMAIN_LEAF = re.compile(r'\["([\w.]+)", "(?:=|!=|<|>|in|not in|(?:=)?i?like|not ilike)"')
#: names that only blocked data answer to (for the leak classes)
BLOCKED_WORDS = re.compile(
    r"email_normalized|email_formatted|email_from|opportunity_ids|\bemail\b|crm\.lead"
    r"|show_email|array_agg|count_distinct"
)
#: an ISO date-time, as servers write their own clock
WALL_CLOCK = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?")
#: how far from now a time still counts as the server's own clock
_NEAR = 2 * 86400


def normalize_wall_clock(value: Any, now: float | None = None) -> Any:
    """``value`` with every date-time within two days of now replaced by ``<now>``."""
    now = time.time() if now is None else now

    def near(match: re.Match[str]) -> str:
        text = match.group(0).replace(" ", "T").replace("Z", "+00:00")
        try:
            when = datetime.fromisoformat(text)
        except ValueError:
            return match.group(0)
        stamp = when.replace(tzinfo=when.tzinfo or UTC).timestamp()
        return "<now>" if abs(stamp - now) < _NEAR else match.group(0)

    if isinstance(value, str):
        return WALL_CLOCK.sub(near, value)
    if isinstance(value, dict):
        return {k: normalize_wall_clock(v, now) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize_wall_clock(v, now) for v in value]
    return value


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
        return str(name) + mentions
    if call["kind"] == "resource":
        uri = re.sub(r"/\d+$", "/{id}", call["uri"])
        uri = re.sub(r"\?.*", "?{query}", uri)
        return f"resource {uri}" + (mentions if "?" in call["uri"] else "")
    if call["kind"] == "prompt":
        model = call["arguments"].get("model_name", "")
        return f"prompt {call['name']} {model}"
    return f"list {call['what']}"


def writes(call: dict[str, Any]) -> bool:
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


async def answer(client: Client, call: dict[str, Any]) -> Any:
    """The full answer to one call, as JSON data (an MCP error as its code, message, data),
    wall-clock times taken out."""
    return normalize_wall_clock(await _answer(client, call))


async def _answer(client: Client, call: dict[str, Any]) -> Any:
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


def is_internal_error(reply: Any) -> bool:
    """A JSON-RPC -32603, or a tool's error result of the internal category."""
    if not isinstance(reply, dict):
        return False
    if (reply.get("error") or {}).get("code") == INTERNAL_ERROR:
        return True
    if reply.get("is_error"):
        body = (reply.get("content") or [{}])[0].get("json") or {}
        return isinstance(body, dict) and body.get("category") == "internal"
    return False


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
