"""L2-02b: the version table (``odoo_mcp.connection.versions``) against real 17.0 and 19.0.

The table is checked against both captured signature files (``inspect.signature`` of a real
Odoo's registry classes): every method it says exists at 17 / 19 is in that file with those
parameter names, every method it says absent is not (or is marked ``absent_on_17``). The
convenience calls are checked on the wire against a scripted Odoo that knows the real
differences (``scripted_odoo``), and each version fact against the capture that shows it.
"""

from __future__ import annotations

import json
import xmlrpc.client
from pathlib import Path
from typing import Any

import pytest
from scripted_odoo import Harness

from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport
from odoo_mcp.connection import ConnectionManager, ConnectionSettings, versions
from odoo_mcp.connection.json2_params import JSON2_PARAMS, to_named_params
from odoo_mcp.connection.version import parse_version

HERE = Path(__file__).parent
FIXTURES = HERE.parents[1] / "fixtures"
ADMIN = {"username": "admin", "password": "admin"}


def _signatures(major: int) -> dict[str, Any]:
    path = FIXTURES / f"odoo{major}" / "meta_method_signatures.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert data["odoo_version"].startswith(f"{major}.0"), data["odoo_version"]
    return data


def _capture(major: int, name: str) -> Any:
    return json.loads((FIXTURES / f"odoo{major}" / name).read_text(encoding="utf-8"))


def _entries(data: dict[str, Any], method: str) -> list[tuple[str, dict[str, Any] | None]]:
    """``method`` as BaseModel and every captured model have it (None: not listed)."""
    found = [("BaseModel", data["BaseModel"].get(method))]
    found += [(model, methods.get(method)) for model, methods in data["models"].items()]
    return found


def _present(entry: dict[str, Any] | None) -> bool:
    return entry is not None and not entry.get("absent_on_17")


def _positional(entry: dict[str, Any]) -> tuple[str, ...]:
    kinds = ("POSITIONAL_OR_KEYWORD", "POSITIONAL_ONLY")
    return tuple(p["name"] for p in entry["params"] if p["kind"] in kinds)


@pytest.mark.parametrize("major", [17, 19])
@pytest.mark.parametrize("method", sorted(versions.METHODS))
@pytest.mark.req("REQ-02b-02", "REQ-02a-08")
def test_the_table_matches_the_captured_signatures(major: int, method: str) -> None:
    data = _signatures(major)
    entries = _entries(data, method)
    facts = versions.METHODS[method]
    if not versions.exists(method, major):
        assert not any(_present(entry) for _, entry in entries), f"{method} exists on {major}"
        if major == 17:  # the 17 file lists 19's names: a 19 method absent on 17 is marked
            assert any(entry and entry.get("absent_on_17") for _, entry in entries), method
        return
    # BaseModel's own (web-module methods such as formatted_read_group are on every model)
    base = data["BaseModel"].get(method)
    present = [(model, entry) for model, entry in entries if _present(entry)]
    if not _present(base):
        assert len(present) == len(data["models"]), f"{method} missing on some {major} models"
        base = present[0][1]
    assert base is not None
    assert _positional(base) == versions.parameters(method, major), (method, major)
    model_api = {"api.model", "api.model_create_multi"} & set(base["decorators"])
    assert bool(model_api) is facts.model_method, (method, major)
    private = "api.private" in base["decorators"]
    assert private is not versions.callable_remotely(method, major), (method, major)
    # a model overriding it under other names is what positional_only is for
    names = {_positional(entry) for _, entry in present}
    assert (len(names) > 1) is versions.positional_only(method, major), (method, major, names)


@pytest.mark.req("REQ-02b-02")
def test_methods_absent_on_one_version_are_the_tables() -> None:
    """The table covers each BaseModel method 17 lacks, and each one 19 dropped."""
    s17, s19 = _signatures(17), _signatures(19)
    absent_on_17 = {m for m, e in s17["BaseModel"].items() if e.get("absent_on_17")}
    absent_on_17 |= {
        m for methods in s17["models"].values() for m, e in methods.items()
        if e.get("absent_on_17") and not m.startswith(("action_", "button_", "message_"))
    }  # fmt: skip
    assert {m for m in absent_on_17 if m in versions.METHODS} == {
        "check_access",
        "formatted_read_group",
        "has_access",
    }
    dropped = {
        m for m in versions.METHODS
        if any(_present(e) for _, e in _entries(s17, m))
        and not any(_present(e) for _, e in _entries(s19, m))
    }  # fmt: skip
    assert dropped == {"name_get"}
    assert not versions.exists("name_get", 19) and versions.exists("name_get", 17)


@pytest.mark.parametrize(
    ("version", "keyword"),
    [("16.0", "args"), ("17.0", "args"), ("18.0", "args"), ("saas~18.2", "args"),
     ("saas~18.3", "domain"), ("19.0", "domain")],
)  # fmt: skip
@pytest.mark.req("REQ-02b-02")
def test_name_search_keyword_per_version(version: str, keyword: str) -> None:
    """17 takes args= (odoo17/ok_xmlrpc_name_search_args_kwarg.json) and refuses domain=
    (err_xmlrpc_name_search_domain_kwarg.json); 19 the reverse (flow_name_search.json)."""
    assert versions.parameters("name_search", parse_version(version))[1] == keyword


def test_name_search_captures_show_the_cut_off() -> None:
    refused = _capture(17, "err_xmlrpc_name_search_domain_kwarg.json")
    assert "unexpected keyword argument 'domain'" in refused["fault"]["faultString"]
    accepted = _capture(17, "ok_xmlrpc_name_search_args_kwarg.json")
    assert "args" in accepted["params"][-1] and "fault" not in accepted


@pytest.mark.parametrize("protocol", ["xmlrpc", "jsonrpc"])
@pytest.mark.req("REQ-02b-02", "REQ-02a-08")
@pytest.mark.anyio
async def test_name_search_on_odoo17_sends_args(harness: Harness, protocol: str) -> None:
    """Real 17 raises TypeError for domain= (the server sent it for 17 before the table)."""
    harness.odoo.major = 17
    async with harness.manager(**ADMIN, protocol=protocol) as manager:
        assert await manager.name_search("res.partner", "Ac", [["is_company", "=", True]]) == [
            (1, "Acme")
        ]
    (call,) = [c for c in harness.odoo.calls if c[2] == "name_search"]
    assert call[4]["args"] == [["is_company", "=", True]] and "domain" not in call[4]


@pytest.mark.parametrize(("major", "sent"), [(17, 43), (19, [43])])
@pytest.mark.req("REQ-02b-02")
@pytest.mark.anyio
async def test_copy_answer_is_normalised_to_the_new_id(
    harness: Harness, major: int, sent: Any
) -> None:
    """flow_copy_partner.json: 17 answers an int, 19 ``[id]``; copy() gives the int both ways."""
    harness.odoo.major = major
    async with harness.manager(**ADMIN, protocol="xmlrpc") as manager:
        harness.odoo.answers[("res.partner", "copy")] = sent
        assert await manager.copy("res.partner", 3, {"name": "Copy"}) == 43
    (call,) = [c for c in harness.odoo.calls if c[2] == "copy"]
    assert call[3] == [[3]] and call[4]["default"] == {"name": "Copy"}
    assert versions.returns("copy", major) == ("id" if major == 17 else "ids")


def test_copy_captures_show_the_shapes() -> None:
    steps17 = _capture(17, "flow_copy_partner.json")["steps"]
    steps19 = _capture(19, "flow_copy_partner.json")["steps"]
    assert isinstance(steps17[1]["result"], int) and not isinstance(steps17[1]["result"], bool)
    assert isinstance(steps19[1]["result"], list) and len(steps19[1]["result"]) == 1
    assert "Expected singleton" in steps17[6]["fault"]["faultString"]


@pytest.mark.req("REQ-02b-02", "REQ-02b-09")
@pytest.mark.anyio
async def test_default_get_argument_name_per_version(harness: Harness) -> None:
    """17's BaseModel says ``fields_list`` but res.partner ``fields``: by position on 17; JSON-2
    on 19 names it ``fields`` (err_json2_default_get_fields_list.json refuses fields_list)."""
    assert versions.parameters("default_get", 17) == ("fields_list",)
    assert versions.positional_only("default_get", 17)
    assert versions.parameters("default_get", 19) == ("fields",)
    assert not versions.positional_only("default_get", 19)
    assert JSON2_PARAMS["default_get"] == (False, ("fields",))
    assert to_named_params("x.model", "default_get", [["name"]], {}) == {"fields": ["name"]}
    harness.odoo.major = 17
    async with harness.manager(**ADMIN, protocol="xmlrpc") as manager:
        assert await manager.default_get("res.partner", ["name"]) == {"name": False}
    (call,) = [c for c in harness.odoo.calls if c[2] == "default_get"]
    assert call[3] == [["name"]] and set(call[4]) <= {"context"}
    refused = _capture(19, "err_json2_default_get_fields_list.json")
    assert "fields_list" in json.dumps(refused)


@pytest.mark.anyio
async def test_default_get_over_json2_on_odoo19_names_fields(harness: Harness) -> None:
    async with harness.manager(**ADMIN, api_key="KEY") as manager:
        assert await manager.default_get("sale.order", ["state"]) == {"state": False}
    (call,) = [c for c in harness.odoo.calls if c[2] == "default_get"]
    assert call[0] == "json2" and call[4]["fields"] == ["state"]


@pytest.mark.parametrize("major", [16, 17, 18, 19])
@pytest.mark.req("REQ-02b-02")
@pytest.mark.anyio
async def test_name_get_only_where_it_is_neither_deprecated_nor_gone(
    harness: Harness, major: int
) -> None:
    """17 still has name_get (odoo17/ok_xmlrpc_partner_name_get.json) but logs a deprecation
    on each call; the server reads display_name from 17, as it must from 18."""
    harness.odoo.major = major
    async with harness.manager(**ADMIN, protocol="xmlrpc") as manager:
        assert await manager.name_get("res.partner", [3]) == [(3, "Partner 3")]
    methods = [call[2] for call in harness.odoo.calls]
    assert ("name_get" in methods) is (major <= 16)
    assert versions.exists("name_get", major) is (major <= 17)
    if major == 17:
        captured = _capture(17, "ok_xmlrpc_partner_name_get.json")
        pairs = xmlrpc.client.loads(captured["raw_body"])[0][0]
        assert pairs[0] == [14, "Azure Interior"]


def test_access_methods_per_version() -> None:
    """meta_check_access_rights.json: steps 27-31 on 17 and 19."""
    s17 = _capture(17, "meta_check_access_rights.json")["steps"]
    s19 = _capture(19, "meta_check_access_rights.json")["steps"]
    allowed17 = xmlrpc.client.loads(s17[26]["raw_body"])[0][0]
    assert allowed17 is True and versions.returns("check_access_rights", 17) == "true_or_raise"
    assert "cannot marshal None" in s19[26]["fault"]["faultString"]
    assert versions.returns("check_access_rights", 19) == "none_or_raise"
    for step in (27, 28, 29, 30):  # has_access / check_access: AttributeError on 17
        assert "AttributeError" in s17[step]["fault"]["faultString"]
    assert not versions.exists("has_access", 17) and not versions.exists("check_access", 17)
    assert s19[27]["result"] is False and versions.callable_remotely("has_access", 19)
    assert s19[28]["fault"]["faultCode"] == 4  # private on 19
    assert versions.exists("check_access", 19) and not versions.callable_remotely(
        "check_access", 19
    )


def test_formatted_read_group_per_version() -> None:
    steps17 = _capture(17, "flow_read_group.json")["steps"]
    faults = [
        s["fault"]["faultString"] for s in steps17 if s["params"][4] == "formatted_read_group"
    ]
    assert len(faults) == 2 and all("AttributeError" in text for text in faults)
    assert not versions.exists("formatted_read_group", 17)
    assert versions.exists("formatted_read_group", 19)
    assert versions.exists("web_search_read", 17) and versions.exists("web_search_read", 19)


def test_version_keys() -> None:
    assert versions.version_key(None) == versions.NEWEST
    assert versions.version_key(17) == (17, 0)
    assert versions.version_key(parse_version("saas~18.3")) == (18, 3)
    with pytest.raises(KeyError):
        versions.parameters("no_such_method", 17)
    assert versions.exists("action_confirm", 17)  # not tracked: Odoo answers


@pytest.mark.parametrize("version", ["16.0", "17.0", "19.0"])
@pytest.mark.parametrize("protocol", ["xmlrpc", "jsonrpc"])
@pytest.mark.req("REQ-02b-02", "REQ-02a-08")
@pytest.mark.anyio
async def test_convenience_calls_against_the_fake_odoo(version: str, protocol: str) -> None:
    """The fake Odoo refuses 17's ``name_search(domain=)`` with real 17's TypeError."""
    fake = FakeOdoo(version)
    settings = ConnectionSettings.model_validate(
        {"url": IN_PROCESS_URL, "database": "demo", "protocol": protocol, **ADMIN}
    )
    async with ConnectionManager(settings, transport=FakeOdooTransport(app=fake.app)) as conn:
        found = await conn.name_search("res.partner", "Azure", [["is_company", "=", True]])
        assert [name for _, name in found] == ["Azure Interior"]
        new_id = await conn.copy("res.partner", found[0][0])
        assert isinstance(new_id, int) and new_id != found[0][0]
        assert await conn.default_get("res.partner", ["active"]) == {"active": True}
        assert (await conn.name_get("res.partner", [new_id]))[0][0] == new_id
    called = {call.method for call in fake.calls if call.service == "object"}
    assert ("name_get" in called) is (version == "16.0")
