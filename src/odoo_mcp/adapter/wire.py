"""Issue 41: a tool result serialized once on its way through the SDK.

A tool's answer is already encoded once by the adapter: the text block *is* the JSON of the
structured content (``safety.scrub.scrub_to_json``). The SDK then walks the whole result
three more times before the bytes leave: the result model dumped to a dict, that dict
validated and dumped again for the protocol version's surface, and the JSON-RPC response
dumped to JSON (about 10 times the cost of one encoding: 6.1 ms against 0.6 ms for 500
rows, ``bench/percall.py``'s profile of issue 41).

Two of the SDK's steps learn to recognise a :class:`KeptResult` (``sdk.keep_encodings``):

* the runner's shaping of a result (``ServerRunner._serialize``) shapes an empty stand-in
  of the same form, then puts the real text and structured content back into the dict it
  made: the same dict the SDK would have made, without walking the values;
* the dispatcher's answer to a request (``JSONRPCDispatcher._write_result``) sends an
  :class:`EncodedResponse`: the real values (what a transport passing messages in memory
  reads), and as its JSON the SDK's own encoding of a stand-in with the kept encoding put
  where the stand-in's markers are (what stdio and streamable HTTP write).

Anything else falls back to the SDK's own path on the real values: a result built elsewhere,
an era or transport that serializes otherwise (``model_dump``, other arguments), a record
pruned after a minute unwritten. The bytes are the SDK's own either way
(``tests/odoo_mcp/adapter/test_wire.py`` compares them, byte for byte).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import pydantic_core
from mcp.types import CallToolResult, JSONRPCResponse, RequestId, TextContent
from pydantic import ConfigDict, PrivateAttr

__all__ = ["EncodedResponse", "KeptResult", "encoded_response", "kept_result", "shaped"]

#: seconds a kept encoding waits for its answer to be written before it is let go (the
#: dispatcher writes right after the handler returns; a result never written must not stay)
KEPT_SECONDS: Final = 60.0
#: the shortest text kept: below it the SDK's own way costs less (its three walks of a few
#: values against the stand-in's dumps; measured in one process, best of 5: one
#: row 31 against 44 us, five rows 46 against 48, twenty 112 against 70, 500 2.6 against
#: 0.67 ms)
KEEP_FROM: Final = 2048
#: the arguments stdio and streamable HTTP serialize a message with (``mcp`` 2.3)
_WIRE_DUMP: Final[dict[str, Any]] = {"by_alias": True, "exclude_unset": True}


@dataclass(slots=True)
class _Kept:
    structured: dict[str, Any]
    text: str
    born: float


#: kept encodings by the identity of their structured content (the dicts the SDK passes on
#: keep that object: it copies the result's envelope, never its values)
_KEPT: dict[int, _Kept] = {}


class KeptResult(CallToolResult):
    """A tool result whose text block is the JSON of its structured content."""

    model_config = ConfigDict(defer_build=True)  # built by the first long result (issue 41)


def kept_result(
    structured: dict[str, Any], text: str, *, keep_from: int = KEEP_FROM
) -> CallToolResult:
    """The result of a tool call, ``text`` being ``structured``'s JSON (compact, as
    pydantic-core writes it): the SDK serializes it once (see the module) when the text is
    ``keep_from`` characters or more, as the SDK does when it is shorter."""
    if len(text) < keep_from:
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=structured
        )
    now = time.monotonic()
    if _KEPT:  # a copy first: servers on other threads' loops may use the table meanwhile
        for key, old in list(_KEPT.items()):
            if now - old.born > KEPT_SECONDS:
                _KEPT.pop(key, None)
    _KEPT[id(structured)] = _Kept(structured, text, now)
    return KeptResult(content=[TextContent(type="text", text=text)], structured_content=structured)


def shaped(
    result: KeptResult, shape: Callable[[CallToolResult], Mapping[str, Any]]
) -> dict[str, Any]:
    """The runner's wire dict of ``result``, from ``shape`` (the SDK's shaping of a result)
    applied to an empty stand-in: the values are the result's own, not copies."""
    structured, text = result.structured_content, _text_of(result)
    if structured is None or text is None:
        return dict(shape(result))
    stand_in = CallToolResult(content=[TextContent(type="text", text="")], structured_content={})
    dumped: dict[str, Any] = dict(shape(stand_in))
    content = dumped.get("content")
    if not (isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict)):
        return dict(shape(result))  # a shape this module does not know: the SDK's own way
    dumped["content"] = [{**content[0], "text": text}]
    if "structuredContent" in dumped:
        dumped["structuredContent"] = structured
    return dumped


def _text_of(result: CallToolResult) -> str | None:
    if len(result.content) != 1 or not isinstance(result.content[0], TextContent):
        return None
    return result.content[0].text


class EncodedResponse(JSONRPCResponse):
    """A response to ``tools/call`` whose JSON was made from the kept encoding."""

    model_config = ConfigDict(defer_build=True)  # built by the first long result (issue 41)
    _wire: str = PrivateAttr(default="")

    def model_dump_json(self, **kwargs: Any) -> str:
        if kwargs == _WIRE_DUMP and self._wire:
            return self._wire
        return super().model_dump_json(**kwargs)


def encoded_response(request_id: RequestId, result: dict[str, Any]) -> JSONRPCResponse | None:
    """The response the dispatcher sends for ``result``, when its encoding was kept; None
    leaves it to the SDK."""
    structured = result.get("structuredContent")
    if not _KEPT or not isinstance(structured, dict):
        return None
    kept = _KEPT.pop(id(structured), None)
    content = result.get("content")
    if (
        kept is None
        or kept.structured is not structured
        or not isinstance(content, list)
        or len(content) != 1
        or not isinstance(content[0], dict)
        or content[0].get("text") is not kept.text
    ):
        return None
    token = secrets.token_hex(16)
    text_mark, structured_mark = f"odoo-mcp-text-{token}", f"odoo-mcp-structured-{token}"
    stand_in = {**result, "content": [{**content[0], "text": text_mark}],
                "structuredContent": {structured_mark: 0}}  # fmt: skip
    line = JSONRPCResponse(jsonrpc="2.0", id=request_id, result=stand_in).model_dump_json(
        by_alias=True, exclude_unset=True
    )
    text_at, structured_at = f'"{text_mark}"', f'{{"{structured_mark}":0}}'
    i, j = line.find(text_at), line.find(structured_at)
    if i < 0 or j < 0:
        return None
    literal = pydantic_core.to_json(kept.text).decode()
    pieces = sorted([(i, text_at, literal), (j, structured_at, kept.text)])
    wire, done = [], 0
    for at, mark, value in pieces:
        wire += [line[done:at], value]
        done = at + len(mark)
    wire.append(line[done:])
    response = EncodedResponse.model_construct(
        _fields_set={"jsonrpc", "id", "result"}, jsonrpc="2.0", id=request_id, result=result
    )
    response._wire = "".join(wire)
    return response
