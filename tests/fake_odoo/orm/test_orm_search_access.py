"""search ordering/paging, ACLs, record rules and the RPC dispatch errors."""

from __future__ import annotations

from typing import Any

import pytest
from orm_testdb import ADMIN, DEMO, Call

from fake_odoo.orm.database import Database, Environment
from fake_odoo.orm.exceptions import AccessError, UserError
from fake_odoo.orm.service import is_model_method


def test_default_order_and_explicit_orders(call: Call, partners: dict[str, Any]) -> None:
    p = partners
    assert call(ADMIN, "res.partner", "search", []) == [
        p[k].id for k in ("azure", "brandon", "colleen", "gemini")
    ]
    by_name_desc = call(ADMIN, "res.partner", "search", [], order="name desc")
    assert by_name_desc == [p[k].id for k in ("gemini", "colleen", "brandon", "azure")]
    # many2one sorts by the comodel's _order (country name): Belgium before United States
    by_country = call(
        ADMIN, "res.partner", "search", [("country_id", "!=", False)], order="country_id, name desc"
    )
    assert by_country == [p["gemini"].id, p["brandon"].id, p["azure"].id]
    # empty values last in ASC, first in DESC (PostgreSQL)
    assert call(ADMIN, "res.partner", "search", [], order="email")[-2:] == [
        p["colleen"].id,
        p["gemini"].id,
    ]
    by_email_desc = call(ADMIN, "res.partner", "search", [], order="email desc")
    assert by_email_desc == [p[k].id for k in ("colleen", "gemini", "azure", "brandon")]


def test_positional_search_and_paging(call: Call, partners: dict[str, Any]) -> None:
    ordered = call(ADMIN, "res.partner", "search", [], order="name")
    assert call(ADMIN, "res.partner", "search", [], 1, 2, "name") == ordered[1:3]
    assert call(ADMIN, "res.partner", "search", [], offset=10000, limit=5) == []
    rows = call(
        ADMIN, "res.partner", "search_read", [], fields=["name"], offset=1, limit=1, order="name"
    )
    assert rows == [{"id": ordered[1], "name": "Brandon Freeman"}]


def test_order_errors(call: Call) -> None:
    with pytest.raises(ValueError) as info:
        call(ADMIN, "res.partner", "search", [], order="no_such_field desc")
    assert str(info.value) == "Invalid field 'no_such_field' on model 'res.partner'"
    with pytest.raises(UserError) as err:
        call(ADMIN, "res.partner", "search", [], order="name; drop table x")
    assert err.value.message == (
        'Invalid "order" specified (name; drop table x). A valid "order" specification is a '
        "comma-separated list of valid field names (optionally followed by asc/desc for the "
        "direction)"
    )


def test_search_read_errors(call: Call) -> None:
    with pytest.raises(ValueError, match=r"^Invalid field 'no_such_field' on 'res.partner'$"):
        call(ADMIN, "res.partner", "search_read", [], fields=["no_such_field"], limit=1)
    with pytest.raises(TypeError) as info:
        call(ADMIN, "res.partner", "search_read", [], bogus_kwarg=1)
    assert (
        str(info.value)
        == "BaseModel._read_format() got an unexpected keyword argument 'bogus_kwarg'"
    )
    with pytest.raises(TypeError) as info:
        call(ADMIN, "res.partner", "name_search", "Az", args=[])
    assert str(info.value) == "BaseModel.name_search() got an unexpected keyword argument 'args'"
    assert call(ADMIN, "res.partner", "search_read", [("id", "=", 999999)], fields=["name"]) == []


def test_dispatch_errors(call: Call) -> None:
    with pytest.raises(UserError) as info:
        call(ADMIN, "no.such.model", "fields_get")
    assert (
        type(info.value) is UserError and info.value.message == "Object no.such.model doesn't exist"
    )
    with pytest.raises(AccessError) as denied:
        call(ADMIN, "res.partner", "_compute_display_name", [1])
    assert denied.value.message == (
        "Private methods (such as 'res.partner._compute_display_name') cannot be called remotely."
    )
    with pytest.raises(AccessError, match=r"'res\.partner\.check_access'"):
        call(ADMIN, "res.partner", "check_access", [], "read")
    with pytest.raises(AccessError, match=r"'res\.partner\.sudo'"):
        call(ADMIN, "res.partner", "sudo", [])
    with pytest.raises(AttributeError) as missing:
        call(ADMIN, "res.partner", "no_such_method", [1])
    assert str(missing.value) == "The method 'res.partner.no_such_method' does not exist"
    with pytest.raises(AttributeError):
        call(ADMIN, "res.partner", "ids", [1])


def test_is_model_method(db: Database) -> None:
    assert is_model_method(db, "res.partner", "search_read")
    assert is_model_method(db, "res.users", "context_get")
    assert not is_model_method(db, "res.partner", "write")
    assert not is_model_method(db, "test.order", "action_confirm")
    assert not is_model_method(db, "no.such", "search")


def test_none_result_stays_none(call: Call, partners: dict[str, Any]) -> None:
    oid = call(ADMIN, "test.order", "create", {"partner_id": partners["azure"].id})
    assert call(ADMIN, "test.order", "action_lock", [oid]) is None
    assert call(ADMIN, "test.order", "action_confirm", []) is True  # empty recordset


def test_name_search(call: Call, partners: dict[str, Any]) -> None:
    azure, brandon, colleen = (partners[k].id for k in ("azure", "brandon", "colleen"))
    assert call(ADMIN, "res.partner", "name_search", "Azure Int") == [[azure, "Azure Interior"]]
    assert call(ADMIN, "res.partner", "name_search", name="azure.example", limit=1) == [
        [azure, "Azure Interior"]
    ]
    assert call(ADMIN, "res.partner", "name_search", "Brandon", operator="=") == []
    assert call(ADMIN, "res.partner", "name_search", "Brandon Freeman", operator="=") == [
        [brandon, "Azure Interior, Brandon Freeman"]
    ]
    result = call(ADMIN, "res.partner", "name_search", "", domain=[("parent_id", "!=", False)])
    assert result == [
        [brandon, "Azure Interior, Brandon Freeman"],
        [colleen, "Azure Interior, Colleen Diaz"],
    ]


def test_name_search_v16_signature(partners: dict[str, Any]) -> None:
    from orm_testdb import make_db

    from fake_odoo.orm.service import call_kw

    db = make_db("16.0")
    pid = db.env(su=True)["res.partner"].create({"name": "Old Name"}).id
    assert call_kw(db, ADMIN, "res.partner", "name_search", ["Old"], {"args": []}) == [
        [pid, "Old Name"]
    ]
    with pytest.raises(TypeError, match="unexpected keyword argument 'domain'"):
        call_kw(db, ADMIN, "res.partner", "name_search", ["Old"], {"domain": []})


# -- access ---------------------------------------------------------------------------------


def test_acl_messages(call: Call, db: Database, partners: dict[str, Any]) -> None:
    pid = partners["azure"].id
    with pytest.raises(AccessError) as info:
        call(DEMO, "res.users", "unlink", [ADMIN])
    assert info.value.message == (
        "You are not allowed to delete 'User' (res.users) records.\n\n"
        "This operation is allowed for the following groups:\n\t- Access Rights\n\n"
        "Contact your administrator to request access if necessary."
    )
    with pytest.raises(AccessError) as info:
        call(DEMO, "ir.config_parameter", "get_param", "web.base.url")
    assert info.value.message.startswith(
        "You are not allowed to access 'System Parameter' (ir.config_parameter) records.\n\n"
        "This operation is allowed for the following groups:\n\t- Role / Administrator\n\n"
    )
    with pytest.raises(AccessError, match="modify 'Companies'"):
        call(DEMO, "res.company", "write", [1], {"name": "x"})
    with pytest.raises(
        AccessError, match=r"delete 'Sales Order' \(test\.order\)[\s\S]*Sales / Administrator"
    ):
        call(
            DEMO, "test.order", "unlink", [call(DEMO, "test.order", "create", {"partner_id": pid})]
        )
    assert call(DEMO, "test.order", "unlink", []) is True  # an empty recordset checks nothing
    call(ADMIN, "ir.config_parameter", "set_param", "web.base.url", "http://localhost:8069")
    assert (
        call(ADMIN, "ir.config_parameter", "get_param", "web.base.url") == "http://localhost:8069"
    )


def test_check_access_rights_and_has_access(call: Call, partners: dict[str, Any]) -> None:
    matrix = {
        op: call(DEMO, "test.order", "check_access_rights", op, raise_exception=False)
        for op in ("read", "write", "create", "unlink")
    }
    assert matrix == {"read": True, "write": True, "create": True, "unlink": False}
    assert call(DEMO, "res.users", "check_access_rights", "write", raise_exception=False) is False
    assert (
        call(ADMIN, "ir.config_parameter", "check_access_rights", "unlink", raise_exception=False)
        is True
    )
    assert call(DEMO, "test.order", "check_access_rights", "read") is None  # Odoo 18+ returns None
    with pytest.raises(AccessError, match="modify 'System Parameter'"):
        call(DEMO, "ir.config_parameter", "check_access_rights", "write")
    assert call(DEMO, "ir.config_parameter", "has_access", [], "read") is False
    assert call(DEMO, "res.company", "has_access", [1], "write") is False
    assert call(ADMIN, "res.company", "has_access", [1], "write") is True


def test_record_rules(call: Call, partners: dict[str, Any]) -> None:
    mine = call(DEMO, "test.order", "create", {"partner_id": partners["azure"].id})
    theirs = call(ADMIN, "test.order", "create", {"partner_id": partners["azure"].id})
    shared = call(
        ADMIN, "test.order", "create", {"partner_id": partners["azure"].id, "user_id": False}
    )
    assert sorted(call(DEMO, "test.order", "search", [])) == sorted([mine, shared])
    assert call(DEMO, "test.order", "search_count", []) == 2
    assert call(ADMIN, "test.order", "search_count", []) == 3
    assert call(DEMO, "test.order", "search", [("id", "=", theirs)]) == []
    secret = (
        "Uh-oh! Looks like you have stumbled upon some top-secret records.\n\n"
        "Sorry, Marc Demo (id=3) doesn't have 'read' access to:\n- Sales Order (test.order)\n\n"
        "If you really, really need access, perhaps you can win over your friendly administrator "
        "with a batch of freshly baked cookies."
    )
    for method, args in (
        ("read", [[theirs], ["name"]]),
        ("action_confirm", [[theirs]]),
        ("write", [[theirs], {"note": "x"}]),
    ):
        with pytest.raises(AccessError) as info:
            call(DEMO, "test.order", method, *args)
        assert info.value.message == secret
    assert call(DEMO, "test.order", "action_confirm", [mine]) is True
    with pytest.raises(AccessError, match="doesn't have 'create' access"):
        call(DEMO, "test.order", "create", {"partner_id": partners["azure"].id, "user_id": ADMIN})


def test_sudo_and_superuser_bypass(db: Database, partners: dict[str, Any]) -> None:
    demo_env = db.env(DEMO)
    assert not demo_env["ir.config_parameter"].check_access_rights("read", raise_exception=False)
    assert demo_env["ir.config_parameter"].sudo().search([]) is not None
    assert db.env(1)["ir.config_parameter"].check_access_rights("unlink", raise_exception=False)


def test_user_self_write_and_password(call: Call, db: Database) -> None:
    assert call(DEMO, "res.users", "write", [DEMO], {"tz": "Europe/Paris"}) is True
    with pytest.raises(AccessError, match="modify 'User'"):
        call(DEMO, "res.users", "write", [DEMO], {"login": "demo2"})
    with pytest.raises(AccessError, match="modify 'User'"):
        call(DEMO, "res.users", "write", [ADMIN], {"name": "Hacked"})
    assert call(DEMO, "res.users", "write", [DEMO], {"password": "new"}) is True
    assert db.authenticate("demo", "new") == DEMO
    assert call(DEMO, "res.users", "read", [DEMO], ["password"]) == [{"id": DEMO, "password": ""}]


def test_authentication(db: Database, su: Environment) -> None:
    assert db.authenticate("admin", "admin") == ADMIN
    assert db.authenticate("admin", "wrong") is None
    assert db.authenticate("nobody", "admin") is None
    assert db.authenticate("__system__", "") is None
    key = su["res.users.apikeys"]._generate("rpc", "mcp", ADMIN)
    assert db.authenticate_api_key(key) == ADMIN
    assert db.authenticate("admin", key) == ADMIN  # an API key works as the password
    assert db.authenticate("demo", key) is None
    assert db.authenticate_api_key("bogus") is None
    stored = su["res.users.apikeys"].search([]).key
    assert stored != key and stored.startswith("sha256$")
    su["res.users"].browse(ADMIN).write({"active": False})
    assert db.authenticate_api_key(key) is None


def test_implied_groups(db: Database) -> None:
    from fake_odoo.orm.access import user_groups

    groups = user_groups(db.env(ADMIN))
    assert {"base.group_system", "base.group_erp_manager", "base.group_user"} <= groups
    assert "base.group_system" not in user_groups(db.env(DEMO))


def test_rollback_on_error(call: Call, db: Database, partners: dict[str, Any]) -> None:
    azure = partners["azure"].id
    with pytest.raises(ValueError):
        call(ADMIN, "res.partner", "write", [azure], {"name": "Renamed", "type": "bogus"})
    assert db.rows("res.partner")[azure]["name"] == "Azure Interior"
