"""create / read / write / unlink / copy / default_get through call_kw, with Odoo 19's texts."""

from __future__ import annotations

from typing import Any

import pytest
from orm_testdb import ADMIN, DEMO, Call

from fake_odoo.orm.database import Database, Environment
from fake_odoo.orm.exceptions import (
    ForeignKeyViolation,
    MissingError,
    UniqueViolation,
    ValidationError,
)


def test_create_dict_returns_int_and_list_returns_list(call: Call) -> None:
    new_id = call(ADMIN, "res.partner", "create", {"name": "A"})
    assert isinstance(new_id, int)
    ids = call(ADMIN, "res.partner", "create", [{"name": "B"}, {"name": "C"}])
    assert ids == [new_id + 1, new_id + 2]


def test_create_applies_defaults_and_magic_fields(call: Call) -> None:
    pid = call(ADMIN, "res.partner", "create", {"name": "A"})
    [row] = call(
        ADMIN,
        "res.partner",
        "read",
        [pid],
        ["active", "type", "create_uid", "create_date", "write_date"],
    )
    assert row == {
        "id": pid,
        "active": True,
        "type": "contact",
        "create_uid": [ADMIN, "Mitchell Admin"],
        "create_date": "2026-11-22 08:41:17",
        "write_date": "2026-11-22 08:41:17",
    }


def test_context_default_key_is_used(call: Call, partners: dict[str, Any]) -> None:
    oid = call(
        ADMIN, "test.order", "create", {}, context={"default_partner_id": partners["azure"].id}
    )
    [row] = call(ADMIN, "test.order", "read", [oid], ["partner_id", "name", "state", "user_id"])
    assert row["partner_id"] == [partners["azure"].id, "Azure Interior"]
    assert (row["name"], row["state"], row["user_id"]) == (
        "New",
        "draft",
        [ADMIN, "Mitchell Admin"],
    )


def test_missing_required_field_message(call: Call) -> None:
    with pytest.raises(ValidationError) as info:
        call(ADMIN, "test.order", "create", {"name": "X"})
    assert info.value.message == (
        "The operation cannot be completed: Missing required value for the field 'Customer' "
        "(partner_id).\nModel: 'Sales Order' (test.order)\n- create/update: a mandatory field is "
        "not set\n- delete: another model requires the record being deleted, you can archive it "
        "instead\n"
    )


def test_failed_create_is_rolled_back(db: Database, call: Call) -> None:
    before = dict(db.sequences)
    with pytest.raises(ValidationError):
        call(ADMIN, "test.order", "create", [{"partner_id": False}])
    assert db.rows("test.order") == {}
    assert db.sequences == before


def test_unknown_field_in_vals_is_a_key_error(call: Call, partners: dict[str, Any]) -> None:
    with pytest.raises(KeyError) as info:
        call(ADMIN, "res.partner", "write", [partners["azure"].id], {"no_such_field": 1})
    assert info.value.args == ("no_such_field",)
    with pytest.raises(KeyError):
        call(ADMIN, "res.partner", "create", {"name": "x", "no_such_field": 1})


def test_selection_and_integer_conversion_errors(call: Call, partners: dict[str, Any]) -> None:
    pid = partners["azure"].id
    with pytest.raises(ValueError, match=r"^Wrong value for res.partner.type: 'bogus'$"):
        call(ADMIN, "res.partner", "write", [pid], {"type": "bogus"})
    with pytest.raises(ValueError, match=r"^invalid literal for int\(\) with base 10: 'abc'$"):
        call(ADMIN, "res.partner", "write", [pid], {"color": "abc"})


def test_string_written_to_many2one_silently_sets_false(
    call: Call, partners: dict[str, Any]
) -> None:
    pid = partners["brandon"].id
    assert call(ADMIN, "res.partner", "write", [pid], {"country_id": "United States"}) is True
    assert call(ADMIN, "res.partner", "read", [pid], ["country_id"]) == [
        {"id": pid, "country_id": False}
    ]


def test_read_drops_missing_ids_and_formats_values(call: Call, partners: dict[str, Any]) -> None:
    azure, brandon = partners["azure"].id, partners["brandon"].id
    rows = call(
        ADMIN,
        "res.partner",
        "read",
        [azure, 999999, brandon],
        ["parent_id", "child_ids", "category_id", "email", "since"],
    )
    assert [r["id"] for r in rows] == [azure, brandon]
    assert rows[0]["parent_id"] is False
    assert rows[0]["child_ids"] == [partners["brandon"].id, partners["colleen"].id]
    assert rows[0]["category_id"] == [partners["vip"].id]
    assert rows[1]["parent_id"] == [azure, "Azure Interior"]
    assert rows[1]["since"] is False
    assert call(ADMIN, "res.partner", "read", [999999]) == []


def test_read_without_fields_returns_every_field(
    call: Call, env: Environment, partners: dict[str, Any]
) -> None:
    [row] = call(ADMIN, "res.partner", "read", [partners["azure"].id])
    assert set(row) == set(env["res.partner"]._fields)
    assert row["display_name"] == "Azure Interior"
    assert "image" in row


def test_read_unknown_field(call: Call, partners: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"^Invalid field 'no_such_field' on 'res.partner'$"):
        call(ADMIN, "res.partner", "read", [partners["azure"].id], ["no_such_field"])


def test_version_filtered_field(partners: dict[str, Any]) -> None:
    from orm_testdb import make_db

    old = make_db("16.0")
    assert "since" not in old.env(ADMIN)["res.partner"]._fields
    assert "groups_id" in old.env(ADMIN)["res.users"]._fields
    assert "group_ids" not in old.env(ADMIN)["res.users"]._fields


def test_write_and_unlink_missing_ids(call: Call) -> None:
    message = "Record does not exist or has been deleted.\n(Record: res.partner(999999,), User: 2)"
    with pytest.raises(MissingError) as info:
        call(ADMIN, "res.partner", "write", [999999], {"name": "x"})
    assert info.value.message == message
    with pytest.raises(MissingError) as info:
        call(ADMIN, "res.partner", "unlink", [999999])
    assert info.value.message == message
    with pytest.raises(MissingError):
        call(ADMIN, "res.partner", "copy", [999999])


def test_custom_method_on_missing_record(call: Call) -> None:
    with pytest.raises(MissingError, match=r"test\.order"):
        call(ADMIN, "test.order", "action_confirm", [424242])


def test_x2many_commands(su: Environment, partners: dict[str, Any]) -> None:
    p = partners["gemini"]
    vip, prospect = partners["vip"], partners["prospect"]
    p.write({"category_id": [(4, vip.id), (4, prospect.id)]})
    assert p.category_id.ids == [vip.id, prospect.id]
    p.write({"category_id": [(3, vip.id)]})
    assert p.category_id.ids == [prospect.id]
    p.write({"category_id": [(6, 0, [vip.id])]})
    assert p.category_id.ids == [vip.id]
    p.write({"category_id": [(5,)]})
    assert p.category_id.ids == []
    p.write({"category_id": [(0, 0, {"name": "New tag"})]})
    assert p.category_id.name == "New tag"
    tag = p.category_id
    p.write({"category_id": [(1, tag.id, {"name": "Renamed"})]})
    assert tag.name == "Renamed"
    p.write({"category_id": [(2, tag.id)]})
    assert not tag.exists()
    p.write({"category_id": [vip.id, prospect.id]})
    assert p.category_id.ids == [vip.id, prospect.id]


def test_one2many_commands_and_stored_compute(su: Environment, partners: dict[str, Any]) -> None:
    order = su["test.order"].create(
        {
            "partner_id": partners["azure"].id,
            "order_line": [
                (0, 0, {"name": "Desk", "quantity": 2, "price_unit": 100.0}),
                (0, 0, {"name": "Chair", "quantity": 1, "price_unit": 50.5}),
            ],
        }
    )
    assert order.amount_total == 250.5
    desk, chair = order.order_line
    order.write({"order_line": [(1, desk.id, {"quantity": 3}), (2, chair.id)]})
    assert order.amount_total == 300.0
    assert not chair.exists()
    order.write({"order_line": [(5,)]})
    assert not order.order_line and not desk.exists()  # required inverse: lines are deleted


def test_unique_constraint_raises_psycopg2_text(su: Environment) -> None:
    su["test.tag"].create({"name": "Dup"})
    with pytest.raises(UniqueViolation) as info:
        su["test.tag"].create({"name": "Dup"})
    assert str(info.value) == (
        'duplicate key value violates unique constraint "test_tag_name_uniq"\n'
        "DETAIL:  Key (name)=(Dup) already exists.\n"
    )


def test_unique_violation_over_rpc_is_odoo_validation_error(call: Call) -> None:
    call(ADMIN, "test.tag", "create", {"name": "Dup"})
    with pytest.raises(ValidationError) as info:
        call(ADMIN, "test.tag", "create", {"name": "Dup"})
    assert info.value.message == "The operation cannot be completed: Tag name already exists !"


def test_parent_recursion(call: Call, partners: dict[str, Any]) -> None:
    azure = partners["azure"].id
    with pytest.raises(ValidationError) as info:
        call(ADMIN, "res.partner", "write", [azure], {"parent_id": azure})
    assert info.value.message == "You cannot create recursive Partner hierarchies."
    with pytest.raises(ValidationError):
        call(ADMIN, "res.partner", "write", [azure], {"parent_id": partners["brandon"].id})


def test_python_constraint(call: Call) -> None:
    with pytest.raises(ValidationError, match="Invalid email"):
        call(ADMIN, "res.partner", "create", {"name": "x", "email": "nope"})


def test_unlink_restrict_cascade_and_set_null(su: Environment, partners: dict[str, Any]) -> None:
    with pytest.raises(ForeignKeyViolation) as info:
        partners["be"].unlink()
    assert str(info.value) == (
        'update or delete on table "res_country" violates foreign key constraint '
        '"res_partner_country_id_fkey" on table "res_partner"\n'
        f'DETAIL:  Key (id)=({partners["be"].id}) is still referenced from table "res_partner".\n'
    )
    order = su["test.order"].create(
        {"partner_id": partners["gemini"].id, "order_line": [(0, 0, {"name": "L"})]}
    )
    line = order.order_line
    order.unlink()
    assert not line.exists()  # cascade
    azure, brandon = partners["azure"], partners["brandon"]
    azure.unlink()
    assert brandon.parent_id.id is False  # set null
    assert partners["vip"].unlink() and partners["colleen"].category_id.ids == [
        partners["prospect"].id
    ]


def test_copy(call: Call, db: Database, partners: dict[str, Any]) -> None:
    azure = partners["azure"]
    azure.write({"ref": "AZ"})
    [new_id] = call(ADMIN, "res.partner", "copy", [azure.id])
    [row] = call(
        ADMIN, "res.partner", "read", [new_id], ["name", "email", "child_ids", "ref", "category_id"]
    )
    assert row == {
        "id": new_id,
        "name": "Azure Interior (copy)",
        "email": "info@azure.example.com",
        "child_ids": [],
        "ref": False,
        "category_id": [partners["vip"].id],
    }
    [other] = call(ADMIN, "res.partner", "copy", [azure.id], default={"name": "Azure II"})
    assert call(ADMIN, "res.partner", "read", [other], ["name"])[0]["name"] == "Azure II"
    assert len(call(ADMIN, "res.partner", "copy", [azure.id, new_id])) == 2


def test_copy_returns_int_before_18(partners: dict[str, Any]) -> None:
    from orm_testdb import make_db

    from fake_odoo.orm.service import call_kw

    db = make_db("17.0")
    pid = db.env(su=True)["res.partner"].create({"name": "Old"}).id
    new_id = call_kw(db, ADMIN, "res.partner", "copy", [[pid]], {})
    assert isinstance(new_id, int) and new_id != pid


def test_copy_duplicates_copyable_one2many(su: Environment, partners: dict[str, Any]) -> None:
    order = su["test.order"].create(
        {
            "partner_id": partners["gemini"].id,
            "name": "S1",
            "order_line": [(0, 0, {"name": "L", "price_unit": 5.0})],
        }
    )
    clone = order.copy()
    assert clone.name == "New"  # copy=False falls back to the default
    assert clone.order_line.name == "L" and clone.order_line != order.order_line
    assert clone.amount_total == 5.0


def test_default_get(call: Call) -> None:
    result = call(
        ADMIN,
        "test.order",
        "default_get",
        ["state", "no_such_field", "name", "partner_id", "date_order"],
    )
    assert result == {"state": "draft", "name": "New", "date_order": "2026-11-22 08:41:17"}
    with_ctx = call(
        ADMIN,
        "test.order",
        "default_get",
        ["partner_id", "state"],
        context={"default_partner_id": 15},
    )
    assert with_ctx == {"partner_id": 15, "state": "draft"}


def test_name_create_and_name_get(call: Call, db: Database) -> None:
    pid, name = call(ADMIN, "res.partner", "name_create", "Quick")
    assert name == "Quick"
    missing = r"^The method 'res\.partner\.name_get' does not exist$"
    with pytest.raises(AttributeError, match=missing):
        call(ADMIN, "res.partner", "name_get", [pid])
    from orm_testdb import make_db

    from fake_odoo.orm.service import call_kw

    old = make_db("16.0")
    qid = old.env(su=True)["res.partner"].create({"name": "Q"}).id
    assert call_kw(old, ADMIN, "res.partner", "name_get", [[qid]], {}) == [[qid, "Q"]]


def test_display_name_override_and_recordset_api(su: Environment, partners: dict[str, Any]) -> None:
    brandon = partners["brandon"]
    assert brandon.display_name == "Azure Interior, Brandon Freeman"
    both = brandon | partners["colleen"]
    assert len(both) == 2 and both.mapped("name") == ["Brandon Freeman", "Colleen Diaz"]
    assert both.mapped("parent_id") == partners["azure"]
    assert both.filtered(lambda p: p.email).ids == [brandon.id]
    assert both.sorted("name", reverse=True).ids == [partners["colleen"].id, brandon.id]
    with pytest.raises(ValueError, match="Expected singleton"):
        both.ensure_one()
    with pytest.raises(ValueError, match="Expected singleton"):
        _ = both.name
    assert su["res.partner"].name is False and su["res.partner"].color == 0
    brandon.email = "b@x.example"
    assert brandon.email == "b@x.example"


def test_user_rpc_write_of_context(call: Call, db: Database) -> None:
    assert call(DEMO, "res.users", "context_get") == {
        "lang": "en_US",
        "tz": "Europe/Brussels",
        "uid": DEMO,
    }
