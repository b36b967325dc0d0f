"""Steps of the HTTP session guide (REQ-HTTP): raw HTTP requests to an HTTP target's endpoint.

The kit starts the target (its command, on a free port) as for any scenario, then speaks to
the MCP endpoint with plain HTTP so that statuses, headers and session ids can be checked:
what an MCP client library would hide. Streamed answers (``text/event-stream``) are read as
their last ``data:`` line.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2
from mcp.types import CallToolResult
from pytest_bdd import given, parsers, when

from odoo_mcp_conformance import tls
from odoo_mcp_conformance.answers import answers_of_http
from odoo_mcp_conformance.checks import check
from odoo_mcp_conformance.driver import ToolOutcome
from odoo_mcp_conformance.jsonpath import MISSING, lookup, matches
from odoo_mcp_conformance.timing import scaled
from odoo_mcp_conformance.world import World, not_applicable

ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
CLIENT_INFO = {"name": "odoo-mcp-conformance", "version": "1"}


def _initialize_request(version: str = "2025-06-18") -> dict[str, Any]:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT_INFO}
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}


_SESSION = "http_session_id"
_VERSION = "http_protocol_version"
_ANSWER = "http_answer"
_CONCURRENT = "http_concurrent_answers"


def _url(world: World) -> str:
    driver = world.server()
    if not driver.url:
        not_applicable("the target is not served over HTTP")
    world.raw_requests = True  # untimed requests: every call of the scenario counts
    return driver.url


def _headers(world: World, token: str) -> dict[str, str]:
    """The request headers: the target's own (its user's token), another user's, or none."""
    headers = dict(ACCEPT)
    if token == "own":
        headers.update(world.server().headers)
    elif token.startswith("user:"):
        coordinates = world.control.coordinates(token.removeprefix("user:"))
        headers.update(world.target.headers_for(coordinates))
    elif token.startswith("bearer:"):
        headers["Authorization"] = f"Bearer {token.removeprefix('bearer:')}"
    version = world.remembered.get(_VERSION)
    if isinstance(version, str):
        headers["MCP-Protocol-Version"] = version
    return headers


def _send(
    world: World, verb: str, body: Any | None, *, session: str, token: str = "own"
) -> httpx2.Response:
    headers = _headers(world, token)
    if session == "own":
        found = world.remembered.get(_SESSION)
        if not isinstance(found, str):
            raise AssertionError("no session was initialized in this scenario")
        headers["Mcp-Session-Id"] = found
    elif session != "none":
        headers["Mcp-Session-Id"] = session
    with httpx2.Client(verify=tls.verify(), timeout=scaled(30)) as http:
        answer = http.request(verb, _url(world), json=body, headers=headers)
    world.remembered[_ANSWER] = answer
    # issue 36: raw answers are judged by the invariants too
    world.raw_answers += answers_of_http(body, answer.text, answer.headers.get("content-type", ""))
    return answer


def _answer(world: World) -> httpx2.Response:
    answer = world.remembered.get(_ANSWER)
    if not isinstance(answer, httpx2.Response):
        raise AssertionError("no HTTP request was sent yet in this scenario")
    return answer


def _message(world: World) -> Any:
    """The JSON-RPC message of the last answer (plain JSON, or the stream's last event)."""
    answer = _answer(world)
    text = answer.text
    if "text/event-stream" in answer.headers.get("content-type", ""):
        data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
        data = [line for line in data if line]
        if not data:
            raise AssertionError(f"the event stream carries no data: {text[:300]!r}")
        text = data[-1]
    try:
        return json.loads(text)
    except ValueError as exc:
        raise AssertionError(f"the answer is not JSON: {text[:300]!r}") from exc


def _request(method: str, request_id: int = 2) -> dict[str, Any]:
    if method.startswith("notifications/"):
        return {"jsonrpc": "2.0", "method": method}
    params: dict[str, Any] = {}
    if method == "tools/call":
        params = {"name": "odoo_core_count", "arguments": {"model": "res.partner"}}
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


# -- Given --------------------------------------------------------------------------------------
@given("the target serves MCP over HTTP")
def _serves_http(world: World) -> None:
    if "http" not in world.target.capabilities.features:
        not_applicable("the target does not claim the capability 'http'")


@given("the target authenticates HTTP callers")
def _authenticates(world: World) -> None:
    if "http_auth" not in world.target.capabilities.features:
        not_applicable("the target does not claim the capability 'http_auth'")


@given("the server runs without HTTP sessions")
def _stateless(world: World) -> None:
    if "http_stateless" not in world.target.capabilities.features:
        not_applicable("the target does not claim the capability 'http_stateless'")
    world.configure("stateless_http", True)


@given("the server runs in its default HTTP session mode")
def _default_mode(world: World) -> None:
    """REQ-HTTP-21: no session-mode setting at all (the target's own launch decides)."""
    if "stateless_http" in world.settings:
        raise AssertionError("the scenario set stateless_http: it tests the default mode")


@given(parsers.parse('the HTTP server listens on "{host}" with no authentication setting'))
def _listens_on(world: World, host: str) -> None:
    """REQ-HTTP-18: the listen address (setting ``http_host``) with authentication left to
    its default (setting ``http_auth`` = ``default``); N/A for targets that map neither."""
    world.configure("http_host", host)
    world.configure("http_auth", "default")


# -- When ---------------------------------------------------------------------------------------
@when(parsers.parse('the client initializes a session with protocol version "{version}"'))
def _initialize(world: World, version: str, token: str = "own") -> None:
    answer = _send(world, "POST", _initialize_request(version), session="none", token=token)
    if "mcp-session-id" in answer.headers:
        world.remembered[_SESSION] = answer.headers["mcp-session-id"]
    if answer.status_code == 200:
        result = _message(world).get("result", {})
        world.remembered[_VERSION] = result.get("protocolVersion")


@when(parsers.parse('the client initializes a session as "{user}"'))
def _initialize_as(world: World, user: str) -> None:
    _initialize(world, "2025-06-18", token=f"user:{user}")
    _send(world, "POST", _request("notifications/initialized"), session="own", token=f"user:{user}")


@when(parsers.parse('the client counts "{model}" records on its session as "{user}"'))
def _count_as(world: World, model: str, user: str) -> None:
    world.control.clear_calls()
    body = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "odoo_core_count", "arguments": {"model": model}}}  # fmt: skip
    _send(world, "POST", body, session="own", token=f"user:{user}")


@when(
    parsers.parse('the client counts "{model}" records on its session as "{user}" {times:d} times')
)
def _count_as_times(world: World, model: str, user: str, times: int) -> None:
    """The last answer is kept (the one over a limit, when there is one)."""
    for _ in range(times):
        _count_as(world, model, user)


@when(parsers.parse('the client initializes a session through the host "{host}"'))
def _through_host(world: World, host: str) -> None:
    headers = {**_headers(world, "own"), "Host": host}
    with httpx2.Client(verify=tls.verify(), timeout=scaled(30)) as http:
        world.remembered[_ANSWER] = http.post(
            _url(world), json=_initialize_request(), headers=headers
        )


@when(parsers.parse('the client sends "{method}" on its session'))
def _on_session(world: World, method: str) -> None:
    _send(world, "POST", _request(method), session="own")


@when(parsers.parse('the client sends "{method}" without a session id'))
def _without_session(world: World, method: str) -> None:
    _send(world, "POST", _request(method), session="none")


@when(parsers.parse('the client sends "{method}" on the session "{session}"'))
def _on_other_session(world: World, method: str, session: str) -> None:
    _send(world, "POST", _request(method), session=session)


@when(parsers.parse('the client sends "{method}" on its session with the token of "{user}"'))
def _as_other_user(world: World, method: str, user: str) -> None:
    _send(world, "POST", _request(method), session="own", token=f"user:{user}")


@when(parsers.parse('the client sends "{method}" without a session id and without a token'))
def _no_token(world: World, method: str) -> None:
    world.control.clear_calls()
    _send(world, "POST", _request(method), session="none", token="none")


@when(parsers.parse('the client sends "{method}" on its session without a token'))
def _no_token_on_session(world: World, method: str) -> None:
    world.control.clear_calls()
    _send(world, "POST", _request(method), session="own", token="none")


@when(parsers.parse('the client sends "{method}" without a session id and the token "{token}"'))
def _bad_token(world: World, method: str, token: str) -> None:
    world.control.clear_calls()
    _send(world, "POST", _request(method), session="none", token=f"bearer:{token}")


@when("the client sends malformed JSON on its session")
def _malformed(world: World) -> None:
    headers = {**_headers(world, "own"), "Mcp-Session-Id": str(world.remembered.get(_SESSION))}
    with httpx2.Client(verify=tls.verify(), timeout=scaled(30)) as http:
        world.remembered[_ANSWER] = http.post(_url(world), content=b"{not json", headers=headers)


@when(parsers.parse('the client sends "{methods}" on its session concurrently'))
def _concurrently(world: World, methods: str) -> None:
    """REQ-HTTP-20: the comma-separated requests leave together, each on its own connection;
    the last one's answer is the answer later checks read."""
    names = [name.strip() for name in methods.split(",")]
    session = world.remembered.get(_SESSION)
    if not isinstance(session, str):
        raise AssertionError("no session was initialized in this scenario")
    url, headers = _url(world), {**_headers(world, "own"), "Mcp-Session-Id": session}

    def one(index: int, method: str) -> httpx2.Response:
        with httpx2.Client(verify=tls.verify(), timeout=scaled(30)) as http:
            return http.post(url, json=_request(method, 10 + index), headers=headers)

    with ThreadPoolExecutor(max_workers=len(names)) as pool:
        answers = list(pool.map(one, range(len(names)), names))
    for index, (name, answer) in enumerate(zip(names, answers, strict=True)):
        kind = answer.headers.get("content-type", "")
        world.raw_answers += answers_of_http(_request(name, 10 + index), answer.text, kind)
    world.remembered[_CONCURRENT] = list(zip(names, answers, strict=True))
    world.remembered[_ANSWER] = answers[-1]


@when("the client ends its session")
def _end(world: World) -> None:
    _send(world, "DELETE", None, session="own")


@when("the client checks the health endpoint without a token")
def _health(world: World) -> None:
    url = _url(world)
    base = url[: url.index("/", len("http://"))] if url.count("/") > 2 else url
    with httpx2.Client(verify=tls.verify(), timeout=scaled(30)) as http:
        world.remembered[_ANSWER] = http.get(f"{base}/health")


# -- Then ---------------------------------------------------------------------------------------
@check(parsers.parse("the HTTP status is {status:d}"))
def _status(world: World, status: int) -> None:
    answer = _answer(world)
    assert answer.status_code == status, (
        f"HTTP {answer.status_code}, expected {status}: {answer.text[:300]!r}"
    )


@check(parsers.parse('every concurrent "{method}" has the HTTP status {status:d}'))
def _concurrent_status(world: World, method: str, status: int) -> None:
    answers = world.remembered.get(_CONCURRENT)
    assert isinstance(answers, list), "no concurrent requests were sent in this scenario"
    mine = [answer for name, answer in answers if name == method]
    assert mine, f"no concurrent {method} was sent"
    wrong = [f"HTTP {a.status_code}: {a.text[:200]!r}" for a in mine if a.status_code != status]
    assert not wrong, f"{len(wrong)} of {len(mine)} {method} answers: {wrong}"


@check(parsers.parse('the JSON answer "{path}" is {value}'))
def _json_path(world: World, path: str, value: str) -> None:
    """A plain JSON answer (not JSON-RPC), such as the health endpoint's."""
    try:
        body = _answer(world).json()
    except ValueError as exc:
        raise AssertionError(f"not JSON: {_answer(world).text[:300]!r}") from exc
    actual, expected = lookup(body, path), json.loads(value)
    assert actual is not MISSING, f"the answer has no {path!r}: {json.dumps(body)[:300]}"
    assert matches(actual, expected), f"{path} is {json.dumps(actual)[:300]}, expected {value}"


@check(parsers.parse('the answer has the header "{name}"'))
def _has_header(world: World, name: str) -> None:
    assert name.lower() in _answer(world).headers, f"no {name} header: {_answer(world).headers}"


@check(parsers.parse('the answer has no header "{name}"'))
def _no_header(world: World, name: str) -> None:
    assert name.lower() not in _answer(world).headers, f"{name}: {_answer(world).headers}"


@check(parsers.parse('the answer header "{name}" starts with "{prefix}"'))
def _header_prefix(world: World, name: str, prefix: str) -> None:
    value = _answer(world).headers.get(name, "")
    assert value.lower().startswith(prefix.lower()), f"{name}: {value!r}"


@check(parsers.parse("the request is refused with a 4xx status"))
def _refused(world: World) -> None:
    answer = _answer(world)
    assert 400 <= answer.status_code < 500, f"HTTP {answer.status_code}: {answer.text[:300]!r}"


@check(parsers.parse("the answer has no body"))
def _no_body(world: World) -> None:
    assert _answer(world).content == b"", f"a body: {_answer(world).text[:200]!r}"


@check(parsers.parse('the JSON-RPC answer "{path}" is {value}'))
def _rpc_path(world: World, path: str, value: str) -> None:
    actual, expected = lookup(_message(world), path), json.loads(value)
    assert actual is not MISSING, f"the answer has no {path!r}: {_message(world)}"
    assert matches(actual, expected), f"{path} is {json.dumps(actual)[:300]}, expected {value}"


@check(parsers.parse('the tool result "{path}" is {value}'))
def _tool_result_path(world: World, path: str, value: str) -> None:
    """A raw tools/call answer, read where the seeds put the body (text content first)."""
    message = _message(world)
    raw = message.get("result") if isinstance(message, dict) else None
    assert isinstance(raw, dict), f"expected a tools/call result, got {json.dumps(message)[:300]}"
    body = ToolOutcome(CallToolResult.model_validate(raw), None).structured
    actual, expected = lookup(body, path), json.loads(value)
    assert actual is not MISSING, (
        f"expected {path} in the tool result, got {json.dumps(body)[:300]}"
    )
    assert matches(actual, expected), (
        f"expected {path} to be {value}, got {json.dumps(actual)[:300]}"
    )


@check(parsers.parse('the JSON-RPC answer "{path}" includes {value}'))
def _rpc_includes(world: World, path: str, value: str) -> None:
    actual, expected = lookup(_message(world), path), json.loads(value)
    assert isinstance(actual, list), f"{path} is not a list: {json.dumps(actual)[:300]}"
    assert expected in actual, f"{path} is {json.dumps(actual)[:300]}, without {value}"


@check(parsers.parse("the JSON-RPC answer is an error with code {code:d}"))
def _rpc_error(world: World, code: int) -> None:
    message = _message(world)
    assert isinstance(message, dict) and "error" in message, f"not an error: {message}"
    assert message["error"].get("code") == code, f"error {message['error']}, expected {code}"


@check(parsers.parse("Odoo received no data call"))
def _no_data_call(world: World) -> None:
    """Checking a token may cost the token's own "who am I" call, never a data call."""
    calls = [
        c for c in world.control.data_calls()
        if (c.get("model"), c.get("method")) != ("res.users", "context_get")
    ]  # fmt: skip
    assert not calls, f"Odoo received data calls: {calls}"
