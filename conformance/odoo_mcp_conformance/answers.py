"""Every answer the kit receives during a scenario, recorded where it enters: the driver.

Issue 36: a seed rule that holds for "all responses" is judged on every answer a run sees,
whichever scenario caused it, not only where one step looks. The driver appends one
:class:`Answer` per request it sends (tool calls, resource reads, prompts, listings, and the
JSON-RPC errors any of them gets) and keeps the notifications the server sent; the
invariants (``invariants/``) read them when the scenario ends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

import mcp.types as t

__all__ = [
    "Answer",
    "AnswerKind",
    "answer_of_request",
    "answer_of_tool",
    "answers_of_http",
    "json_body",
    "result_body",
]

AnswerKind = Literal["tool", "resource", "prompt", "listing", "notification", "other"]


def json_body(text: str) -> Any:
    """``text`` parsed when it is a JSON object or array, else None."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return None
    try:
        return json.loads(stripped)
    except ValueError:
        return None


@dataclass(frozen=True)
class Answer:
    """One answer: what was asked (``request``, ``name``, ``arguments``) and what came.

    ``body`` is the answer's JSON (a tool result's body as the seeds place it, a resource's
    parsed contents), ``texts`` every text the answer carries (for the rules that look at
    all of it: no traceback), ``error`` the JSON-RPC error (code, message, data) if one came.
    """

    kind: AnswerKind
    request: str
    name: str = ""
    arguments: Any = None
    body: Any = None
    is_error: bool = False
    error: tuple[int, str, Any] | None = None
    texts: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The call in words, for a failure message."""
        if self.kind == "tool":
            args = json.dumps(self.arguments, default=str, sort_keys=True)
            return f"tools/call {self.name} {args[:200]}"
        return f"{self.request} {self.name}".strip()


def result_body(result: t.CallToolResult) -> Any:
    """A tool result's JSON body where the seeds put it (a text block holding JSON, SPEC-10's
    own example), else ``structuredContent`` unwrapped from the SDK's ``{"result": ...}``."""
    for block in result.content:
        if isinstance(block, t.TextContent):
            body = json_body(block.text)
            if body is not None:
                return body
    data = result.structured_content
    if isinstance(data, dict) and set(data) == {"result"} and not result.content:
        return data["result"]
    return data


def _texts(result: Any) -> tuple[str, ...]:
    """Every text of an SDK result, JSON-encoded as it was received (a traceback hides in any
    string of it)."""
    try:
        dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    except AttributeError:
        dumped = result
    return (json.dumps(dumped, ensure_ascii=False, default=str),)


def answer_of_tool(
    name: str, arguments: Any, result: t.CallToolResult | None, error: tuple[int, str, Any] | None
) -> Answer:
    """The answer to one ``tools/call``."""
    if result is None:
        return Answer("tool", "tools/call", name, arguments, error=error, texts=_error_texts(error))
    return Answer(
        "tool",
        "tools/call",
        name,
        arguments,
        body=result_body(result),
        is_error=bool(result.is_error),
        texts=_texts(result),
    )


def _error_texts(error: tuple[int, str, Any] | None) -> tuple[str, ...]:
    if error is None:
        return ()
    return (json.dumps(list(error), ensure_ascii=False, default=str),)


def answer_of_request(result: Any, error: tuple[int, str, Any] | None) -> Answer:
    """The answer to any other request, known by the SDK type of its result."""
    if error is not None:
        return Answer("other", "request", error=error, texts=_error_texts(error))
    if isinstance(result, t.ReadResourceResult):
        uris = tuple(str(c.uri) for c in result.contents)
        text = next((c.text for c in result.contents if isinstance(c, t.TextResourceContents)), "")
        return Answer(
            "resource",
            "resources/read",
            uris[0] if uris else "",
            body=json_body(text),
            texts=_texts(result),
        )
    if isinstance(result, t.GetPromptResult):
        return Answer("prompt", "prompts/get", texts=_texts(result))
    if isinstance(result, (t.ListResourcesResult, t.ListResourceTemplatesResult)):
        return Answer("listing", "resources/list", body=result, texts=_texts(result))
    if isinstance(result, (t.ListToolsResult, t.ListPromptsResult)):
        return Answer("listing", type(result).__name__, texts=_texts(result))
    return Answer("other", type(result).__name__, texts=_texts(result) if result else ())


def answer_of_notification(message: Any) -> Answer:
    """A message the server sent on its own (notifications, log messages)."""
    root = getattr(message, "root", message)
    method = str(getattr(root, "method", type(root).__name__))
    params = getattr(root, "params", None)
    uri = str(getattr(params, "uri", "") or "")
    return Answer("notification", method, uri, texts=_texts(root))


def answers_of_http(request: Any, text: str, content_type: str) -> list[Answer]:
    """The answers in a raw HTTP exchange (the kit's own HTTP steps): each JSON-RPC message of
    a JSON body or of an event stream, read as the SDK client's answers are."""
    if "text/event-stream" in content_type:
        bodies = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
    else:
        bodies = [text]
    messages = [json_body(body) for body in bodies if body]
    method = request.get("method", "") if isinstance(request, dict) else ""
    params = request.get("params") if isinstance(request, dict) else None
    answers = []
    for message in messages:
        if not isinstance(message, dict):
            continue
        if "id" not in message and "method" in message:  # a notification on the stream
            answers.append(
                Answer("notification", str(message["method"]), texts=(json.dumps(message),))
            )
            continue
        error = message.get("error")
        rpc = None
        if isinstance(error, dict):
            rpc = (int(error.get("code", 0)), str(error.get("message", "")), error.get("data"))
        result = message.get("result")
        if method == "tools/call" and isinstance(params, dict):
            parsed = t.CallToolResult.model_validate(result) if isinstance(result, dict) else None
            answers.append(answer_of_tool(str(params.get("name")), params.get("arguments"),
                                          parsed, rpc))  # fmt: skip
        else:
            answers.append(
                Answer("other", str(method), error=rpc, texts=(json.dumps(message, default=str),))
            )
    return answers
