"""A reset restores the demo data from a snapshot: the same data as a rebuild, never shared."""

from __future__ import annotations

import pytest

from fake_odoo.demo import build_database
from fake_odoo.handle import FakeOdoo
from fake_odoo.orm.database import Database


def _data(database: Database) -> tuple[object, ...]:
    return (database.store, database.sequences, database.xmlids, database.passwords)


@pytest.mark.parametrize("without", [(), ("stock",)])
def test_a_restored_database_holds_what_a_rebuild_holds(without: tuple[str, ...]) -> None:
    built = build_database(without=without)
    restored = Database.restore(built.snapshot(), name="demo", version="19.0", without=without)
    assert _data(restored) == _data(build_database(without=without))
    assert restored.registry.keys() == built.registry.keys()


def test_a_reset_after_writes_gives_back_the_pristine_demo_data() -> None:
    fake = FakeOdoo()
    pristine = build_database()
    partner = fake.create("res.partner", {"name": "Written before the reset"})
    fake.edit("res.partner", 1, {"name": "Renamed"})
    assert _data(fake.db) != _data(pristine)
    fake.reset()
    assert _data(fake.db) == _data(pristine)
    assert fake.read("res.partner", [partner], ["name"]) == []
    # the copy is the database's own: writing to it leaves the next reset pristine
    fake.edit("res.partner", 1, {"name": "Renamed again"})
    fake.reset()
    assert _data(fake.db) == _data(pristine)


def test_a_restore_refuses_a_snapshot_of_other_models() -> None:
    snapshot = build_database(without=("stock",)).snapshot()
    with pytest.raises(ValueError, match="other models"):
        Database.restore(snapshot, name="demo", version="19.0")


def test_a_restore_does_not_bootstrap_what_the_snapshot_replaces() -> None:
    """The bootstrap's ir.model rows were three quarters of a reset's CPU, thrown away."""
    from dataclasses import replace

    from fake_odoo.orm.framework import installed

    built = build_database()
    bootstraps: list[object] = []
    counting = replace(
        installed(), bootstrap=lambda env: bootstraps.append(installed().bootstrap(env))
    )
    Database(name="demo", version="19.0", framework=counting)
    assert len(bootstraps) == 1  # a new database is bootstrapped
    restored = Database.restore(built.snapshot(), name="demo", version="19.0", framework=counting)
    assert len(bootstraps) == 1  # a restored one is not, and holds the snapshot's rows
    assert _data(restored) == _data(built)
    assert restored.framework is counting
