"""The store's value indexes (one2many inverses, ``=``/``in`` lookups, UNIQUE checks) stay
equal to a scan of the rows through inserts, updates, deletes and rolled-back transactions."""

from __future__ import annotations

from typing import Any

import pytest

from fake_odoo.orm.database import Database, Environment
from fake_odoo.orm.domain_eval import evaluate
from fake_odoo.orm.exceptions import UniqueViolation


def _scan(db: Database, model: str, field: str) -> dict[Any, set[int]]:
    """What the index must hold, recomputed from the rows."""
    expected: dict[Any, set[int]] = {}
    for rid, row in db.rows(model).items():
        value = row.get(field)
        for key in value if isinstance(value, list) else [value]:
            if key:
                expected.setdefault(key, set()).add(rid)
    return expected


def _index(db: Database, model: str, field: str) -> dict[Any, set[int]]:
    return {key: set(ids) for key, ids in db.value_index(model, field).items()}


def _check(db: Database) -> None:
    for model, field in (("res.partner", "parent_id"), ("res.partner", "category_id")):
        assert _index(db, model, field) == _scan(db, model, field)


def test_one2many_follows_create_write_unlink(su: Environment, partners: dict[str, Any]) -> None:
    azure, brandon, colleen = partners["azure"], partners["brandon"], partners["colleen"]
    assert set(azure.child_ids.ids) == {brandon.id, colleen.id}
    brandon.write({"parent_id": partners["gemini"].id})
    assert azure.child_ids.ids == [colleen.id]
    assert partners["gemini"].child_ids.ids == [brandon.id]
    colleen.unlink()
    assert azure.child_ids.ids == []
    _check(su.db)


def test_rollback_restores_the_indexes(su: Environment, partners: dict[str, Any]) -> None:
    db, azure = su.db, partners["azure"]
    _check(db)  # builds the indexes before the failing transaction
    before = sorted(azure.child_ids.ids)
    with pytest.raises(RuntimeError), db.transaction():
        su["res.partner"].create({"name": "Temp", "parent_id": azure.id})
        partners["brandon"].write({"parent_id": False, "category_id": [(6, 0, [])]})
        partners["colleen"].unlink()
        _check(db)
        raise RuntimeError("undo")
    assert sorted(azure.child_ids.ids) == before
    _check(db)


def test_lookup_matches_the_scan(su: Environment, partners: dict[str, Any]) -> None:
    model = su["res.partner"].with_context(active_test=False)
    azure, vip, prospect = partners["azure"].id, partners["vip"].id, partners["prospect"].id
    rows = su.db.rows("res.partner")

    def where(test: Any) -> set[int]:
        return {rid for rid, row in rows.items() if test(row["parent_id"], row["category_id"])}

    cases: list[tuple[str, str, Any, set[int]]] = [
        ("parent_id", "=", azure, where(lambda p, c: p == azure)),
        ("parent_id", "in", [azure, 999], where(lambda p, c: p == azure)),
        ("parent_id", "=", False, where(lambda p, c: not p)),
        ("parent_id", "in", [False, azure], where(lambda p, c: p in (False, azure))),
        ("parent_id", "!=", azure, where(lambda p, c: p != azure)),
        ("category_id", "in", [vip], where(lambda p, c: vip in c)),
        ("category_id", "=", prospect, where(lambda p, c: prospect in c)),
        ("category_id", "in", [vip, prospect], where(lambda p, c: bool(c))),
    ]
    for fname, operator, value, expected in cases:
        assert evaluate(model, [(fname, operator, value)]) == expected, (fname, operator, value)
    # restricted to given candidates
    some = {partners["brandon"].id, partners["gemini"].id}
    assert evaluate(model, [("parent_id", "=", azure)], some) == {partners["brandon"].id}


def test_unique_check_uses_the_index(su: Environment, partners: dict[str, Any]) -> None:
    tags, db = su["test.tag"], su.db
    # a failed call is undone by its transaction (as ``service`` runs each call)
    duplicate = r"Key \(name\)=\(Vip\) already exists"
    with pytest.raises(UniqueViolation, match=duplicate), db.transaction():
        tags.create({"name": "Vip"})
    partners["vip"].write({"name": "Gold"})
    assert tags.create({"name": "Vip"}).name == "Vip"
    with pytest.raises(UniqueViolation), db.transaction():
        partners["prospect"].write({"name": "Gold"})
    assert partners["prospect"].name == "Prospect"
