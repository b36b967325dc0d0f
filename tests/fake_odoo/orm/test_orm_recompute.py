"""Stored computed fields are recomputed in dependency order, each seeing the values of
the ones computed before it (as Odoo's recompute does)."""

from __future__ import annotations

from typing import Any

from orm_testmodels import TEST_MODELS

from fake_odoo.orm import fields
from fake_odoo.orm.database import Database
from fake_odoo.orm.model import Model
from fake_odoo.orm.recompute import stored_computes


class Quote(Model):
    """A chain of stored computes declared in the reverse of their dependency order."""

    _name = "test.chain.quote"
    _register = False

    # total reads tax and untaxed, tax reads untaxed: only ``depends`` tells the order.
    total = fields.Float(compute="_compute_total", store=True, depends=["untaxed", "tax"])
    tax = fields.Float(compute="_compute_tax", store=True, depends=["untaxed", "rate"])
    untaxed = fields.Float(
        compute="_compute_untaxed", store=True, depends=["price", "qty", "line_ids.amount"]
    )
    price = fields.Float()
    qty = fields.Float()
    rate = fields.Float()

    def _compute_untaxed(self) -> Any:
        return self.price * self.qty

    def _compute_tax(self) -> Any:
        return self.untaxed * self.rate

    def _compute_total(self) -> Any:
        return self.untaxed + self.tax


class Plain(Model):
    """Chained stored computes without ``depends``: declaration order."""

    _name = "test.chain.plain"
    _register = False

    price = fields.Float()
    double = fields.Float(compute="_compute_double", store=True)
    quadruple = fields.Float(compute="_compute_quadruple", store=True)

    def _compute_double(self) -> Any:
        return self.price * 2

    def _compute_quadruple(self) -> Any:
        return self.double * 2


class Loop(Model):
    """A dependency cycle: declaration order, and no hang."""

    _name = "test.chain.loop"
    _register = False

    a = fields.Integer(compute="_compute_a", store=True, depends=["b"])
    b = fields.Integer(compute="_compute_b", store=True, depends=["a"])

    def _compute_a(self) -> Any:
        return 1

    def _compute_b(self) -> Any:
        return self.a + 1


def _env() -> Any:
    return Database("chain", "19.0", models=[*TEST_MODELS, Quote, Plain, Loop]).env(su=True)


def test_chained_computes_follow_depends_on_create_and_write() -> None:
    env = _env()
    quote = env["test.chain.quote"].create({"price": 10.0, "qty": 3.0, "rate": 0.5})
    assert (quote.untaxed, quote.tax, quote.total) == (30.0, 15.0, 45.0)
    quote.write({"qty": 4.0})
    assert (quote.untaxed, quote.tax, quote.total) == (40.0, 20.0, 60.0)
    quote.write({"rate": 0.25})
    assert (quote.untaxed, quote.tax, quote.total) == (40.0, 10.0, 50.0)


def test_computes_without_depends_run_in_declaration_order() -> None:
    env = _env()
    plain = env["test.chain.plain"].create({"price": 5.0})
    assert (plain.double, plain.quadruple) == (10.0, 20.0)
    plain.write({"price": 1.5})
    assert (plain.double, plain.quadruple) == (3.0, 6.0)


def test_recompute_order() -> None:
    env = _env()
    assert [n for n, _ in stored_computes(env["test.chain.quote"])] == ["untaxed", "tax", "total"]
    assert [n for n, _ in stored_computes(env["test.chain.plain"])] == ["double", "quadruple"]
    assert [n for n, _ in stored_computes(env["test.chain.loop"])] == ["a", "b"]
    loop = env["test.chain.loop"].create({})
    assert (loop.a, loop.b) == (1, 2)


def test_unchanged_value_keeps_its_stored_type() -> None:
    # An unchanged value is not rewritten, but a value of another type is (0 vs 0.0).
    env = _env()
    plain = env["test.chain.plain"].create({})
    env.db.update("test.chain.plain", plain.id, {"double": 0})
    plain._recompute()
    assert type(env.db.row("test.chain.plain", plain.id)["double"]) is float
