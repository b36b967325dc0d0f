"""Which ORM methods a version has, with which parameters and answers: Odoo 17 vs 19.

Each fact is asserted on 17 (as the odoo17 captures show it) and on 19 (unchanged);
``meta_method_signatures.json`` (``inspect.signature`` on a real 17) checks the parameter
names of every ``BaseModel`` method the fake serves at 17.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from fake_odoo import FakeOdoo
from fake_odoo.orm.exceptions import AccessError
from fake_odoo.orm.service import resolve

ADMIN = 2
SIGNATURES_17 = (
    Path(__file__).resolve().parents[2] / "fixtures" / "odoo17" / "meta_method_signatures.json"
)


@pytest.fixture(scope="module")
def v17() -> FakeOdoo:
    return FakeOdoo("17.0")


@pytest.fixture(scope="module")
def v19() -> FakeOdoo:
    return FakeOdoo("19.0")


def call(fake: FakeOdoo, model: str, method: str, *args: Any, **kwargs: Any) -> Any:
    return fake.call_kw(ADMIN, model, method, list(args), kwargs)


def _company_ids(fake: FakeOdoo, limit: int) -> list[int]:
    ids: list[int] = call(fake, "res.partner", "search", [("is_company", "=", True)], limit=limit)
    return ids


def test_unknown_and_private_method_texts(v17: FakeOdoo, v19: FakeOdoo) -> None:
    with pytest.raises(AttributeError) as old:
        call(v17, "res.partner", "no_such_method", [])
    assert str(old.value) == "The method 'no_such_method' does not exist on the model 'res.partner'"
    with pytest.raises(AttributeError) as new:
        call(v19, "res.partner", "no_such_method", [])
    assert str(new.value) == "The method 'res.partner.no_such_method' does not exist"
    with pytest.raises(AccessError) as denied17:
        call(v17, "res.partner", "_compute_display_name", [1])
    assert denied17.value.message == (
        "Private methods (such as _compute_display_name) cannot be called remotely."
    )
    with pytest.raises(AccessError) as denied19:
        call(v19, "res.partner", "_compute_display_name", [1])
    assert denied19.value.message == (
        "Private methods (such as 'res.partner._compute_display_name') cannot be called remotely."
    )


@pytest.mark.parametrize(
    ("model", "method", "args"),
    [
        ("sale.order", "formatted_read_group", [[]]),
        ("ir.config_parameter", "has_access", [[], "read"]),
        ("ir.config_parameter", "check_access", [[], "read"]),
    ],
)
def test_methods_new_in_18_or_19_are_unknown_on_17(
    v17: FakeOdoo, v19: FakeOdoo, model: str, method: str, args: list[Any]
) -> None:
    with pytest.raises(AttributeError) as info:
        call(v17, model, method, *args)
    assert str(info.value) == f"The method '{method}' does not exist on the model '{model}'"
    if method == "check_access":  # api.private on 19
        with pytest.raises(AccessError, match="cannot be called remotely"):
            call(v19, model, method, *args)
    else:
        call(v19, model, method, *args)


def test_name_search_takes_args_on_17_and_domain_on_19(v17: FakeOdoo, v19: FakeOdoo) -> None:
    assert call(v17, "res.partner", "name_search", "Az", args=[])
    assert call(v17, "res.partner", "name_search", "Az", [("is_company", "=", True)])
    with pytest.raises(TypeError) as old:
        call(v17, "res.partner", "name_search", "Az", domain=[])
    assert str(old.value) == "BaseModel.name_search() got an unexpected keyword argument 'domain'"
    assert call(v19, "res.partner", "name_search", "Az", domain=[])
    with pytest.raises(TypeError, match="unexpected keyword argument 'args'"):
        call(v19, "res.partner", "name_search", "Az", args=[])


def test_name_get_exists_until_17(v17: FakeOdoo, v19: FakeOdoo) -> None:
    ids = _company_ids(v17, 2)
    rows = call(v17, "res.partner", "read", ids, ["display_name"])
    names = {row["id"]: row["display_name"] for row in rows}
    expected = [[i, names[i]] for i in ids]
    assert call(v17, "res.partner", "name_get", ids) == expected
    with pytest.raises(AttributeError, match=r"'res\.partner\.name_get' does not exist"):
        call(v19, "res.partner", "name_get", _company_ids(v19, 1))


def test_default_get_parameter_name(v17: FakeOdoo, v19: FakeOdoo) -> None:
    assert call(v17, "res.partner", "default_get", fields_list=["active"]) == {"active": True}
    with pytest.raises(TypeError, match=r"^BaseModel\.default_get\(\) .* 'fields'$"):
        call(v17, "res.partner", "default_get", fields=["active"])
    assert call(v19, "res.partner", "default_get", fields=["active"]) == {"active": True}
    with pytest.raises(TypeError, match=r"^BaseModel\.default_get\(\) .* 'fields_list'$"):
        call(v19, "res.partner", "default_get", fields_list=["active"])


def test_copy_is_single_record_on_17(v17: FakeOdoo, v19: FakeOdoo) -> None:
    source = _company_ids(v17, 2)
    copied = call(v17, "res.partner", "copy", source[:1])
    assert isinstance(copied, int) and copied not in source
    with pytest.raises(ValueError, match=r"^Expected singleton: res\.partner\("):
        call(v17, "res.partner", "copy", source)
    copies = call(v19, "res.partner", "copy", _company_ids(v19, 2))
    assert isinstance(copies, list) and len(copies) == 2


def test_check_access_rights_answer(v17: FakeOdoo, v19: FakeOdoo) -> None:
    assert call(v17, "res.partner", "check_access_rights", "read") is True
    assert call(v19, "res.partner", "check_access_rights", "read") is None


@pytest.mark.parametrize("version", ["17.0", "19.0"])
def test_web_search_read_and_web_read(version: str) -> None:
    fake = FakeOdoo(version)
    spec = {
        "name": {},
        "country_id": {"fields": {"display_name": {}}},
        "child_ids": {"fields": {"name": {}}, "limit": 1},
    }
    domain = [("is_company", "=", True)]
    page = call(fake, "res.partner", "web_search_read", domain, spec, limit=2, order="name")
    assert page["length"] == call(fake, "res.partner", "search_count", domain)
    first = page["records"][0]
    assert set(first) == {"id", "name", "country_id", "child_ids"}
    country = first["country_id"]
    assert set(country) == {"id", "display_name"}
    children = first["child_ids"]
    assert set(children[0]) == {"id", "name"}  # the first `limit` children are read,
    assert all(set(child) == {"id"} for child in children[1:])  # the others stay ids
    assert call(fake, "res.partner", "web_read", [first["id"]], spec) == [first]
    assert call(fake, "res.partner", "web_read", [first["id"]], {}) == [{"id": first["id"]}]
    with pytest.raises(TypeError) as info:
        call(fake, "res.partner", "web_search_read", [], fields=["name"], limit=2)
    assert str(info.value) == "Base.web_search_read() got an unexpected keyword argument 'fields'"


def test_base_signatures_match_real_17(v17: FakeOdoo) -> None:
    """Every BaseModel method served at 17 has 17's parameters; those 17 lacks are refused."""
    real = json.loads(SIGNATURES_17.read_text(encoding="utf-8"))["BaseModel"]
    served = 0
    for name, spec in real.items():
        try:
            func = resolve(v17.db, "res.country", name)
        except (AttributeError, AccessError):
            continue
        assert not spec.get("absent_on_17"), name
        params = list(inspect.signature(func).parameters)[1:]
        assert params == [p["name"] for p in spec["params"]], name
        served += 1
    assert served >= 15


def test_18_still_takes_args_for_name_search() -> None:
    """Odoo 18.0 kept ``args=``: saas~18.3 renamed it (odoo/odoo#198154)."""
    v18 = FakeOdoo("18.0")
    assert call(v18, "res.partner", "name_search", "Az", args=[])
    with pytest.raises(Exception, match="unexpected keyword argument 'domain'"):
        call(v18, "res.partner", "name_search", "Az", domain=[])
