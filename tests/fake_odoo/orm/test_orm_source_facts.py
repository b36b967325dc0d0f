"""name_create, copy_data and read_group as Odoo's own source has them, 17 and 19 (issue 40).

No capture shows name_create or copy_data, so each test names the stored odoo/odoo file and
commit its fact comes from (see ``SOURCE_FACTS`` in ``odoo_mcp.connection.versions`` and the
table in docs/connection.md). The 17.0 ``odoo/models.py`` is the 17.0 tree the index holds
(``name_get`` deprecated "Since 17.0", ``copy_data`` with ``ensure_one``); the index gave its
text but no commit for it.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from orm_testdb import ADMIN, make_db
from orm_testmodels import TEST_MODELS

from fake_odoo import FakeOdoo
from fake_odoo.orm import fields
from fake_odoo.orm.database import Database
from fake_odoo.orm.model import Model
from fake_odoo.orm.service import call_kw


class Nameless(Model):
    """A model without ``_rec_name`` (no ``name`` field)."""

    _name = "test.nameless"
    _description = "Nameless"
    _register = False
    _access = {"base.group_user": "rwcu"}

    amount = fields.Integer("Amount")


class Flagged(Model):
    """Fields whose copy default Odoo derives from their kind (computed, ``state``)."""

    _name = "test.flagged"
    _description = "Flagged"
    _register = False
    _access = {"base.group_user": "rwcu"}

    name = fields.Char("Name")
    state = fields.Selection([("a", "A"), ("b", "B")], "State", default="a")
    kept_state = fields.Selection([("a", "A"), ("b", "B")], "Kept", copy=True)
    label = fields.Char("Label", compute="_compute_label", store=True)
    editable = fields.Char("Editable", compute="_compute_label", store=True, readonly=False)
    active = fields.Boolean("Active", default=True)

    def _compute_label(self) -> str:
        return f"<{self.name}>"


def _extra_db(version: str) -> Database:
    from datetime import datetime

    db = Database("extra", version, models=(*TEST_MODELS, Nameless, Flagged))
    db.set_clock(datetime(2026, 11, 22, 8, 41, 17))
    return db


def _call(db: Database, model: str, method: str, *args: Any, **kwargs: Any) -> Any:
    return call_kw(db, ADMIN, model, method, list(args), kwargs)


@pytest.mark.parametrize("version", ["17.0", "19.0"])
def test_name_create_without_rec_name_answers_false(
    version: str, caplog: pytest.LogCaptureFixture
) -> None:
    """odoo/odoo odoo/models.py (17.0 tree) and odoo/orm/models.py @
    5f49ea73509943577bf6cdca8164fed7eacf38aa: no ``_rec_name`` -> a warning in the log and
    False, no error (the fake raised ValueError)."""
    db = _extra_db(version)
    with caplog.at_level(logging.WARNING, logger="odoo.models"):
        assert db.env(su=True)["test.nameless"].name_create("x") is False
    assert "Cannot execute name_create, no _rec_name defined on test.nameless" in caplog.text


@pytest.mark.parametrize("version", ["17.0", "19.0"])
def test_partner_name_create_parses_an_email(version: str) -> None:
    """odoo/odoo odoo/addons/base/models/res_partner.py @
    4461f0772241e40d0a5d1d7b1dd03e50e1e21614 (name_create): res.partner creates with its
    ``name`` (the fake's ``_rec_name`` complete_name failed "Contacts require a name"),
    splits "Name <email>", refuses a bare name under ``force_email``."""
    fake = FakeOdoo(version)
    pid, shown = fake.call_kw(ADMIN, "res.partner", "name_create", ["Quick Probe"], {})
    assert shown == "Quick Probe"
    new_id, _ = fake.call_kw(
        ADMIN, "res.partner", "name_create", ["Ann Smith <Ann@Example.com>"], {}
    )
    [row] = fake.call_kw(ADMIN, "res.partner", "read", [[new_id], ["name", "email"]], {})
    assert (row["name"], row["email"]) == ("Ann Smith", "ann@example.com")
    with pytest.raises(Exception, match="Couldn't create contact without email address!"):
        fake.call_kw(
            ADMIN, "res.partner", "name_create", ["No Mail"], {"context": {"force_email": True}}
        )
    assert isinstance(pid, int)


def test_copy_data_on_17_is_one_record_and_one_dict() -> None:
    """odoo/odoo odoo/models.py (17.0 tree): copy_data does ``ensure_one`` and is
    ``@api.returns(None, lambda value: value[0])``; odoo/api.py's call_kw ``downgrade``
    applies it, so over RPC 17 answers the dict itself (the fake answered a list of dicts
    and copied several records)."""
    db = make_db("17.0")
    su = db.env(su=True)
    a = su["res.partner"].create({"name": "A"}).id
    b = su["res.partner"].create({"name": "B"}).id
    answer = _call(db, "res.partner", "copy_data", [a])
    assert isinstance(answer, dict) and answer["name"] == "A (copy)"
    with pytest.raises(ValueError, match=r"^Expected singleton: res\.partner\("):
        _call(db, "res.partner", "copy_data", [a, b])


def test_copy_data_on_19_is_one_dict_per_record() -> None:
    """odoo/odoo odoo/orm/models.py @ 5f49ea73509943577bf6cdca8164fed7eacf38aa: copy_data
    loops over the records, one dict each, and is not decorated (a list on the wire)."""
    db = make_db("19.0")
    su = db.env(su=True)
    ids = [su["res.partner"].create({"name": n}).id for n in ("A", "B")]
    answer = _call(db, "res.partner", "copy_data", ids)
    assert [vals["name"] for vals in answer] == ["A (copy)", "B (copy)"]


@pytest.mark.parametrize("version", ["17.0", "19.0"])
def test_copy_data_puts_default_first_and_copies_one2many_lines_whole(version: str) -> None:
    """odoo/odoo odoo/models.py (17.0 tree) and odoo/orm/models.py @ 5f49ea73: the values
    start from ``default`` (its keys first), a many2many is ``[(6, 0, ids)]``, a one2many
    ``(0, 0, line values)`` per line in id order, each line's own copy_data: base copy_data
    adds no " (copy)" and keeps the line's inverse many2one on the original parent (the
    fake put the default last, renamed the lines and dropped the inverse)."""
    db = make_db(version)
    su = db.env(su=True)
    partner = su["res.partner"].create({"name": "Buyer"})
    order = su["test.order"].create(
        {
            "partner_id": partner.id,
            "name": "S1",
            "order_line": [
                (0, 0, {"name": "first", "price_unit": 5.0}),
                (0, 0, {"name": "second", "price_unit": 7.0}),
            ],
        }
    )
    answer = _call(db, "test.order", "copy_data", [order.id], default={"note": "x"})
    vals = answer if version == "17.0" else answer[0]  # 17: the dict itself
    assert next(iter(vals)) == "note"
    lines = vals["order_line"]
    assert [cmd[:2] for cmd in lines] == [[0, 0], [0, 0]]
    assert [cmd[2]["name"] for cmd in lines] == ["first", "second"]
    assert {cmd[2]["order_id"] for cmd in lines} == {order.id}
    clone = order.copy()
    assert clone.order_line.mapped("order_id") == clone
    assert clone.amount_total == 12.0


@pytest.mark.parametrize("version", ["17.0", "19.0"])
def test_copy_defaults_of_computed_and_state_fields(version: str) -> None:
    """odoo/odoo odoo/fields.py @ f9ebbb9bebc01fde8f0119d69d6f53b5fc1aa73a (17) and
    odoo/orm/fields.py @ f3872311b1fe2cea54474ff29bd2cb1c90961dfc (19), ``_get_attrs``: a
    field named ``state`` is not copied, nor a computed one unless stored and declared
    ``readonly=False``, unless ``copy=`` says otherwise (the fake copied them)."""
    db = _extra_db(version)
    model = db.env(su=True)["test.flagged"]
    copied = {name for name, field in model._fields.items() if field.copy}
    assert {"name", "kept_state", "editable", "active"} <= copied
    assert not {"state", "label"} & copied
    record = model.create({"name": "n", "state": "b", "kept_state": "b"})
    [vals] = record.copy_data()
    assert "state" not in vals and "label" not in vals and vals["kept_state"] == "b"


@pytest.mark.parametrize("version", ["17.0", "19.0"])
def test_read_group_puts_false_before_true_for_a_boolean(version: str) -> None:
    """odoo/odoo odoo/models.py (17.0 tree) and odoo/orm/models.py @ 5f49ea73,
    ``_read_group_groupby``: a boolean is grouped as COALESCE(field, FALSE) and ordered by
    that value, so the False group comes first, ascending (the fake put it last, as a
    null)."""
    db = make_db(version)
    su = db.env(su=True)
    for name, is_company in (("C1", True), ("P1", False), ("C2", True)):
        su["res.partner"].create({"name": name, "is_company": is_company})
    groups = _call(db, "res.partner", "read_group", [], ["name"], ["is_company"])
    assert [g["is_company"] for g in groups] == [False, True]
    desc = _call(
        db, "res.partner", "read_group", [], ["name"], ["is_company"], orderby="is_company desc"
    )
    assert [g["is_company"] for g in desc] == [True, False]
