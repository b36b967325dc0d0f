"""Properties of the domain evaluator: negation, union, intersection, paging."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from orm_testmodels import TEST_MODELS

from fake_odoo.orm import domain as D
from fake_odoo.orm.database import Database
from fake_odoo.orm.domain_eval import evaluate
from fake_odoo.orm.model import BaseModel
from strategies import domains, partner_values

rows_strategy = st.lists(
    st.tuples(partner_values, st.integers(min_value=0, max_value=8)), min_size=0, max_size=8
)


def single(domain: list[Any]) -> list[Any]:
    """One expression: a juxtaposition of n items needs n-1 '&' before '!' or '|' applies."""
    return D.to_list(D.parse(domain))


def _partners(rows: list[tuple[dict[str, Any], int]]) -> BaseModel:
    """A fresh database holding those partners; the int picks an earlier row as parent."""
    db = Database("prop", "19.0", models=TEST_MODELS)
    model: BaseModel = db.env(su=True)["res.partner"].with_context(active_test=False)
    created: list[int] = []
    for values, parent in rows:
        vals = dict(values)
        vals["parent_id"] = created[parent] if parent < len(created) else False
        created.append(model.create(vals).id)
    return model


@settings(max_examples=60, deadline=None)
@given(rows=rows_strategy, domain=domains)
def test_not_is_the_complement(rows: list[tuple[dict[str, Any], int]], domain: list[Any]) -> None:
    model = _partners(rows)
    everything = set(model.env.db.rows("res.partner"))
    assert evaluate(model, ["!", *single(domain)]) == everything - evaluate(model, domain)


@settings(max_examples=60, deadline=None)
@given(rows=rows_strategy, left=domains, right=domains)
def test_or_is_union_and_juxtaposition_is_intersection(
    rows: list[tuple[dict[str, Any], int]], left: list[Any], right: list[Any]
) -> None:
    model = _partners(rows)
    a, b = evaluate(model, left), evaluate(model, right)
    assert evaluate(model, ["|", *single(left), *single(right)]) == a | b
    assert evaluate(model, [*left, *right]) == a & b
    assert evaluate(model, ["&", *single(left), *single(right)]) == a & b


@settings(max_examples=60, deadline=None)
@given(
    rows=rows_strategy,
    domain=st.just([]) | domains,
    order=st.sampled_from(
        [None, "name", "name desc", "color desc, name", "email, id desc", "parent_id"]
    ),
    offset=st.integers(min_value=0, max_value=10),
    limit=st.none() | st.integers(min_value=0, max_value=10),
)
def test_paging_is_slicing_the_ordered_result(
    rows: list[tuple[dict[str, Any], int]],
    domain: list[Any],
    order: str | None,
    offset: int,
    limit: int | None,
) -> None:
    model = _partners(rows)
    full = model.search(domain, order=order).ids
    assert len(full) == len(set(full)) == len(evaluate(model, domain))
    page = model.search(domain, offset=offset, limit=limit, order=order).ids
    assert page == full[offset : None if limit is None else offset + limit]
    assert model.search_count(domain, limit=limit) == len(full[: None if limit is None else limit])


@settings(max_examples=60, deadline=None)
@given(rows=rows_strategy, domain=domains)
def test_normalised_form_is_equivalent(
    rows: list[tuple[dict[str, Any], int]], domain: list[Any]
) -> None:
    model = _partners(rows)
    assert evaluate(model, single(domain)) == evaluate(model, domain)
    assert D.parse(single(domain)) == D.parse(domain)
