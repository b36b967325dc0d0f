"""Steps of SPEC-02 (the Odoo connection) and of SPEC-03's prerequisites, as a client sees them:
the context and protocol of every call the fake logged, the version and URL the server reports,
and an Odoo without some modules.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pytest_bdd import given, parsers

from odoo_mcp_conformance.checks import check
from odoo_mcp_conformance.control import OdooCall
from odoo_mcp_conformance.jsonpath import MISSING, lookup, matches
from odoo_mcp_conformance.steps.common import parse_json, result_data
from odoo_mcp_conformance.world import World, not_applicable

#: the protocol a server names -> the call log's protocols (JSON-RPC is /jsonrpc or /web/...)
_LOGGED_AS = {"xmlrpc": {"xmlrpc"}, "jsonrpc": {"jsonrpc", "web"}, "json2": {"json2"}}


@given(parsers.parse('Odoo has no "{module}" module installed'))
def _without_module(world: World, module: str) -> None:
    """The fake becomes a database where ``module`` (and what depends on it) was never
    installed. The scenario gets its own server, started after this: a pooled one may hold
    what it learnt of the modules at its own start-up. The plugin restores every module
    when the scenario ends."""
    if world.driver is not None:
        raise AssertionError("remove Odoo modules before the server starts: reorder the steps")
    world.fresh = True
    removed = world.control.uninstall([module])
    if module not in removed:
        raise AssertionError(f"the fake still has {module!r} installed: {removed}")


@given(parsers.parse("Odoo's major version is {major:d}"))
def _version_is(world: World, major: int) -> None:
    """Behaviour of one Odoo version: not applicable on a run against another."""
    version = str(world.control.info()["version"])
    if int(version.split(".")[0].split("~")[-1]) != major:
        not_applicable(f"the run's Odoo is {version}, not {major}")


def _model_calls(world: World) -> list[OdooCall]:
    calls = world.caused_calls()
    assert calls, "Odoo received no call on a model"
    return calls


def _shown(call: OdooCall) -> str:
    return (
        f"{call.get('model')}.{call.get('method')} with context {json.dumps(call.get('context'))}"
    )


@check(parsers.parse("every call Odoo received carried the context:"))
def _every_context(world: World, docstring: str) -> None:
    """Each model call since the last request holds these context keys with these values."""
    expected = parse_json(docstring, world)
    wrong = [c for c in _model_calls(world) if not matches(c.get("context") or {}, expected)]
    assert not wrong, f"calls without {json.dumps(expected)}: " + "; ".join(map(_shown, wrong))


@check(parsers.parse('every "{method}" call Odoo received carried the context:'))
def _method_context(world: World, method: str, docstring: str) -> None:
    """The calls of one ORM method: a tool's own keys go with its data call, not with the
    metadata calls a server may make first on its own (fields_get of a model it has not seen)."""
    expected = parse_json(docstring, world)
    calls = [c for c in _model_calls(world) if c.get("method") == method]
    assert calls, f"Odoo received no {method!r} call"
    wrong = [c for c in calls if not matches(c.get("context") or {}, expected)]
    assert not wrong, f"calls without {json.dumps(expected)}: " + "; ".join(map(_shown, wrong))


@check(parsers.parse('no call Odoo received carried "{key}" in its context'))
def _no_context_key(world: World, key: str) -> None:
    wrong = [c for c in _model_calls(world) if key in (c.get("context") or {})]
    assert not wrong, f"calls with {key!r} in their context: " + "; ".join(map(_shown, wrong))


@check(parsers.parse('every call Odoo received went over "{protocol}"'))
def _every_protocol(world: World, protocol: str) -> None:
    """Object calls since the last request, judged by the endpoint they reached."""
    wanted = _LOGGED_AS[protocol]
    wrong = [c for c in _model_calls(world) if c.get("protocol") not in wanted]
    assert not wrong, f"calls not over {protocol}: " + "; ".join(
        f"{c.get('model')}.{c.get('method')} on {c.get('path')}" for c in wrong
    )


def major_minor(version: object) -> tuple[str, str] | None:
    """A version's major and minor parts (``saas~17.2`` and ``17.2.0`` alike), None if it
    has none. Issue 27: "19.0.0" and "19.0" name the same Odoo; patch levels and build
    suffixes are an implementation's to show or not."""
    match = re.match(r"^(?:saas~)?(\d+)\.(\d+)", str(version)) if version is not None else None
    return (match.group(1), match.group(2)) if match else None


@check(parsers.parse('the version in "{path}" is the one Odoo reports'))
def _odoo_version(world: World, path: str) -> None:
    """Compared by major and minor (issue 27)."""
    actual, version = lookup(result_data(world), path), world.control.info()["version"]
    assert actual is not MISSING, f"the result has no {path!r}"
    assert isinstance(actual, str) and major_minor(actual) == major_minor(version), (
        f"{path} is {actual!r}; Odoo's common.version() says {version!r} "
        "(compared by major and minor version)"
    )


@check(parsers.parse('the URL in "{path}" is the Odoo URL the server was given'))
def _odoo_url(world: World, path: str) -> None:
    """The URL the server was started with (the forwarder's when one stands in between)."""
    actual = lookup(result_data(world), path)
    given_url = world.proxy.url if world.proxy is not None else world.control.url
    assert actual is not MISSING, f"the result has no {path!r}"
    assert actual == given_url.rstrip("/"), (
        f"{path} is {actual!r}, the server was given {given_url}"
    )


def _error_body(world: World) -> dict[str, Any]:
    outcome = world.last()
    assert outcome.error is None, f"expected a tool error result, got {outcome.error}"
    data = outcome.structured
    assert outcome.is_error and isinstance(data, dict), (
        f"expected a SPEC-10 tool error, got {outcome.text[:300]!r}"
    )
    return data


@check(parsers.parse("the error's category and code are one of {pairs}"))
def _category_code_pair(world: World, pairs: str) -> None:
    """Where the seed gives one failure two rows (REQ-10-05's ProtocolError and REQ-10-08's
    HTTP statuses), each row's category goes with its own code."""
    data = _error_body(world)
    allowed = [tuple(pair) for pair in json.loads(pairs)]
    found = (data.get("category"), data.get("code"))
    assert found in allowed, f"category and code {list(found)}, expected one of {pairs}"


@check(parsers.parse("the error's retry guidance fits its category"))
def _retry_fits(world: World) -> None:
    """REQ-10-15: connection and rate-limit errors are retried after a wait (retry true, a
    positive retry_after); access errors are not (retry false)."""
    data = _error_body(world)
    category, retry, wait = data.get("category"), data.get("retry"), data.get("retry_after")
    if category in ("connection", "rate_limit"):
        assert retry is True, f"a {category} error with retry {retry!r}, expected true"
        assert isinstance(wait, int | float) and not isinstance(wait, bool) and wait > 0, (
            f"retry_after is {wait!r}, expected a positive number of seconds"
        )
    else:
        assert category == "access", f"no retry rule here for the category {category!r}"
        assert retry is False, f"an access error with retry {retry!r}, expected false"
