"""ir.model.access rows and the users' group fields, as the ACL checks see them."""

from __future__ import annotations

from typing import Any

import pytest
from model_fixtures import make_call

from fake_odoo.demo import build_database, demo_uid
from fake_odoo.orm.exceptions import AccessError

ADMIN, DEMO = 2, 5


@pytest.mark.parametrize("version", ["16.0", "17.0", "19.0"])
def test_acl_rows_agree_with_the_checks(version: str) -> None:
    call = make_call(build_database(version=version))
    demo = demo_uid(int(version.split(".")[0]))
    models = [row["model"] for row in call(ADMIN, "ir.model", "search_read", [], ["model"])]
    field = "all_group_ids" if version == "19.0" else "groups_id"
    groups = set(call(demo, "res.users", "read", [demo], [field])[0][field])
    # the ACL lines are readable by "Access Rights" only, as in Odoo: read as admin
    lines = call(ADMIN, "ir.model.access", "search_read", [], ["model_id", "group_id", "perm_read"])
    names = {
        row["id"]: row["model"] for row in call(ADMIN, "ir.model", "search_read", [], ["model"])
    }
    readable_by_rows = {
        names[line["model_id"][0]]
        for line in lines
        if line["perm_read"] and (not line["group_id"] or line["group_id"][0] in groups)
    }
    for model in models:
        allowed = call(demo, model, "check_access_rights", "read", raise_exception=False)
        assert allowed == (model in readable_by_rows), model


def _new_salesman(call: Any, field: str) -> int:
    salesman = call(ADMIN, "res.groups", "search", [["name", "ilike", "Own Documents Only"]])
    vals = {"name": "Seller", "login": "seller", "company_id": 1, field: [(6, 0, salesman)]}
    return int(call(ADMIN, "res.users", "create", vals))


def test_group_fields_per_version() -> None:
    call19 = make_call(build_database(version="19.0"))
    uid = _new_salesman(call19, "group_ids")
    row = call19(ADMIN, "res.users", "read", [uid], ["group_ids", "all_group_ids"])[0]
    assert len(row["group_ids"]) == 1 and set(row["group_ids"]) < set(row["all_group_ids"])
    call16 = make_call(build_database(version="16.0"))
    uid16 = _new_salesman(call16, "groups_id")
    stored = call16(ADMIN, "res.users", "read", [uid16], ["groups_id"])[0]["groups_id"]
    assert sorted(stored) == sorted(row["all_group_ids"])  # <= 18 stores the implied groups
    fields16 = call16(ADMIN, "res.users", "fields_get", [], attributes=["type"])
    assert "all_group_ids" not in fields16 and "group_ids" not in fields16


def test_only_system_users_change_acls() -> None:
    call = make_call()
    line = call(ADMIN, "ir.model.access", "search", [], limit=1)
    with pytest.raises(AccessError):
        call(DEMO, "ir.model.access", "write", line, {"perm_unlink": True})
    assert call(ADMIN, "ir.model.access", "write", line, {"active": True}) is True
