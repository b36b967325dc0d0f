"""The invariants (issue 36): each seed rule fails its own requirement wherever it is broken,
and passes the other legal shapes the seeds leave open."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from odoo_mcp_conformance.answers import Answer, answers_of_http
from odoo_mcp_conformance.baseline import Baseline
from odoo_mcp_conformance.catalogue import load_catalogue
from odoo_mcp_conformance.invariants import Context, Scope, judge_answers
from odoo_mcp_conformance.report import ScenarioResult, build_report
from odoo_mcp_conformance.sources import SEED, Check

TYPES = {
    "res.partner": {
        "id": "integer",
        "name": "char",
        "country_id": "many2one",
        "comment": "html",
        "image_1920": "binary",
        "avatar_128": "binary",
        "category_id": "many2many",
        "write_date": "datetime",
        "date": "date",
        "email": "char",
        "signature": "html",
    },
    "sale.order": {"id": "integer", "partner_id": "many2one", "date_order": "datetime"},
}


class Types:
    def of(self, model: str) -> Mapping[str, str]:
        return TYPES.get(model, {})

    def new_scenario(self) -> None:
        pass


def ctx(**settings: Any) -> Context:
    return Context(Types(), Scope.of(settings, {}, {}))  # type: ignore[arg-type]


def tool(name: str, args: dict[str, Any], body: Any, *, is_error: bool = False) -> Answer:
    return Answer("tool", "tools/call", name, args, body=body, is_error=is_error)


def failed(answers: list[Answer], context: Context | None = None) -> dict[str, str]:
    checks = judge_answers(answers, context or ctx(), ())
    return {c.requirements[0]: c.message for c in checks if c.outcome == "failed"}


GOOD = {
    "id": 9,
    "name": "Acme",
    "country_id": {"id": 1, "name": "Belgium"},
    "comment": "Hi",
    "category_id": [1, 2],
    "write_date": "2026-01-02T03:04:05Z",
    "date": None,
    "email": "",
}


def envelope(records: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "records": records,
        "count": len(records),
        "model": "res.partner",
        "limit": 80,
        "offset": 0,
        "has_more": False,
        **extra,
    }


def places(record: dict[str, Any]) -> list[Answer]:
    """The same record through every path that returns records: the rule holds in each."""
    return [
        tool("odoo_core_search_read", {"model": "res.partner"}, envelope([record])),
        tool("odoo_core_read", {"model": "res.partner", "ids": [9]}, {"records": [record]}),
        tool(
            "odoo_core_execute",
            {"model": "res.partner", "method": "read", "args": [[9]]},
            {"result_type": "value", "result": [record]},
        ),
        Answer("resource", "resources/read", "odoo://record/res.partner/9", body=record),
        Answer(
            "resource",
            "resources/read",
            "odoo://record/res.partner?limit=5",
            body={"records": [record]},
        ),
    ]


EXPECTED_REQ = ["REQ-04-05", "REQ-04-05", "REQ-04-05", "REQ-06-10", "REQ-06-10"]


def test_a_conformant_record_passes_everywhere() -> None:
    assert failed(places(GOOD)) == {}


@pytest.mark.parametrize("index", range(5))
def test_a_pair_many2one_fails_in_each_place_on_its_requirement(index: int) -> None:
    bad = {**GOOD, "country_id": [1, "Belgium"]}
    answer = places(bad)[index]
    assert set(failed([answer])) == {EXPECTED_REQ[index]}


@pytest.mark.parametrize(
    ("change", "tool_req"),
    [
        ({"write_date": "2026-01-02 03:04:05"}, "REQ-04-37"),
        ({"comment": "<p>Hi</p>"}, "REQ-04-35"),
        ({"email": False}, "REQ-04-35"),
        ({"country_id": False}, "REQ-04-35"),
        ({"category_id": [{"id": 1}]}, "REQ-04-35"),
        ({"image_1920": "aGVsbG8="}, "REQ-04-36"),
        ({"avatar_128": "aGVsbG8="}, "REQ-04-36"),
        ({"signature": "x"}, "REQ-11-14"),
    ],
)
def test_each_rule_fails_through_the_tools_and_the_resources(
    change: dict[str, Any], tool_req: str
) -> None:
    answers = places({**GOOD, **change})
    for answer in answers[:3]:
        assert tool_req in failed([answer]), answer.label
    resource_req = "REQ-06-22" if tool_req == "REQ-11-14" else "REQ-06-10"
    for answer in answers[3:]:
        assert resource_req in failed([answer]), answer.label


def test_a_binary_field_the_request_names_may_come() -> None:
    record = {**GOOD, "image_1920": "aGVsbG8="}
    args = {"model": "res.partner", "fields": ["name", "image_1920"]}
    assert failed([tool("odoo_core_search_read", args, envelope([record]))]) == {}
    execute = {"model": "res.partner", "method": "read", "args": [[9], ["image_1920"]]}
    assert (
        failed([tool("odoo_core_execute", execute, {"result_type": "value", "result": [record]})])
        == {}
    )


def test_html_is_not_judged_when_stripping_is_off_or_unknown() -> None:
    answer = places({**GOOD, "comment": "<p>Hi</p>"})[0]
    assert failed([answer], ctx(strip_html=False)) == {}
    unknown = Context(Types(), Scope.of({}, {"ODOO_MCP_STRIP_HTML": "false"}, {}))  # type: ignore[arg-type]
    assert failed([answer], unknown) == {}


def test_a_configured_blocklist_counts_like_the_built_in_one() -> None:
    answer = places({**GOOD, "email": "a@b.c"})[0]
    assert failed([answer]) == {}
    assert set(failed([answer], ctx(field_blocklist=["email"]))) == {"REQ-11-14"}
    blocked = tool(
        "odoo_core_count", {"model": "crm.lead"}, {"model": "crm.lead", "domain": [], "count": 3}
    )
    assert failed([blocked]) == {}
    assert set(failed([blocked], ctx(model_blocklist=["crm.lead"]))) == {"REQ-11-07"}
    assert set(failed([blocked], ctx(model_allowlist=["res.partner"]))) == {"REQ-11-06"}


def test_has_more_and_limits() -> None:
    three = [{"id": i} for i in range(3)]
    ok = envelope(three, limit=3, has_more=True)
    assert failed([tool("odoo_core_search_read", {"model": "res.partner", "limit": 3}, ok)]) == {}
    wrong = envelope(three, limit=3, has_more=False)
    assert set(
        failed([tool("odoo_core_search_read", {"model": "res.partner", "limit": 3}, wrong)])
    ) == {"REQ-04-04"}
    many = envelope([{"id": i} for i in range(81)], limit=81)
    assert "REQ-04-01" in failed([tool("odoo_core_search_read", {"model": "res.partner"}, many)])
    listing = Answer(
        "resource",
        "resources/read",
        "odoo://record/res.partner",
        body={"records": [{"id": i} for i in range(21)]},
    )
    assert set(failed([listing])) == {"REQ-06-12"}


def test_error_objects_and_retry() -> None:
    body = {
        "error": True,
        "category": "validation",
        "code": "VALIDATION_ERROR",
        "message": "m",
        "suggestion": "s",
        "retry": True,
    }
    assert failed([tool("odoo_core_write", {}, body, is_error=True)]) == {}
    wrong = tool("odoo_core_write", {}, {**body, "retry": False}, is_error=True)
    assert set(failed([wrong])) == {"REQ-10-15"}
    rpc = Answer(
        "tool",
        "tools/call",
        "nope",
        {},
        error=(-32601, "Unknown tool", {**body, "category": "not_found", "retry": False}),
    )
    assert set(failed([rpc])) == {"REQ-10-15"}
    assert set(failed([tool("odoo_core_write", {}, "oops", is_error=True)])) == {"REQ-10-02"}
    assert set(failed([tool("odoo_core_write", {}, body)])) == {"REQ-10-17"}
    trace = {**body, "message": 'Traceback (most recent call last):\n  File "x.py", line 1'}
    assert "REQ-10-14" in failed([tool("odoo_core_write", {}, trace, is_error=True)])
    kept = {**body, "original_error": "Traceback (most recent call last):\n..."}
    answer = Answer(
        "tool", "tools/call", "odoo_core_write", {}, body=kept, is_error=True, texts=(str(kept),)
    )
    assert failed([answer]) == {}


def test_a_broken_invariant_fails_its_requirement_alone_in_a_scenario_of_others() -> None:
    broken = Check(
        step="invariant: x",
        source=SEED,
        outcome="failed",
        message="m",
        requirements=("REQ-04-05",),
        invariant=True,
    )
    other = Check(step="the call succeeds", source=SEED, outcome="failed", message="n")
    result = ScenarioResult(
        id="a",
        feature="f.feature",
        scenario="s",
        requirements=("REQ-04-20",),
        outcome="failed",
        checks=(broken, other),
    )
    report = build_report(
        target="t",
        odoo_version="19.0",
        catalogue=load_catalogue(),
        results=[result],
        baseline=Baseline(),
    )
    status = {v.id: v.status for v in report.requirements}
    assert status["REQ-04-05"] == "failing"
    assert status["REQ-04-20"] == "failing"  # its own check failed
    assert status["REQ-04-35"] == "untested"


def test_raw_http_answers_are_judged_like_the_drivers() -> None:
    """The kit's own HTTP steps (an event stream or a JSON body) feed the same rules."""
    body = {
        "error": True,
        "category": "access",
        "code": "ACCESS_DENIED",
        "message": "no",
        "suggestion": "ask",
        "retry": True,
    }
    result = {"content": [{"type": "text", "text": json.dumps(body)}], "isError": True}
    message = {"jsonrpc": "2.0", "id": 2, "result": result}
    request = {"method": "tools/call", "params": {"name": "odoo_core_count", "arguments": {}}}
    stream = f"event: message\ndata: {json.dumps(message)}\n\n"
    answers = answers_of_http(request, stream, "text/event-stream")
    assert [a.name for a in answers] == ["odoo_core_count"]
    assert set(failed(answers)) == {"REQ-10-15"}  # access: retry false
    error = {
        "jsonrpc": "2.0",
        "id": 3,
        "error": {
            "code": -32601,
            "message": "x",
            "data": {**body, "category": "not_found", "retry": False},
        },
    }
    assert set(
        failed(
            answers_of_http(
                {"method": "tools/call", "params": {"name": "z"}},
                json.dumps(error),
                "application/json",
            )
        )
    ) == {"REQ-10-15"}
