"""``read_group`` against real Odoo 17 and 19, group by group (flow_read_group.json).

The replay (tests/fake_odoo/replay.py) compares results by shape only: neither the order
of the groups nor the order of a group's keys. Here each captured ``read_group`` step is
called on the fake of its version and compared with the capture on what does not depend on
the data: the order of the groups both servers have, each group's keys in Odoo's order
(``<field>_count`` when lazy, ``__count`` when not, ``__fold``, ``__domain``, ``__range``,
``__context``), and ``__domain`` / ``__range`` / ``__context`` value for value.
"""

from __future__ import annotations

import json
import xmlrpc.client
from pathlib import Path
from typing import Any

import pytest

from fake_odoo import FakeOdoo

ADMIN = 2
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
COMPARED_VALUES = ("__domain", "__range", "__context")


def _captured_steps(batch: str) -> list[dict[str, Any]]:
    """The successful ``read_group`` steps of the batch's flow_read_group capture."""
    flow = json.loads((FIXTURES / batch / "flow_read_group.json").read_text(encoding="utf-8"))
    steps = []
    for step in flow["steps"]:
        if step["params"][4] != "read_group" or "fault" in step:
            continue
        if "result" not in step:
            (step["result"],), _method = xmlrpc.client.loads(step["raw_body"])
        steps.append(step)
    return steps


def _group_key(row: dict[str, Any], groupby: list[str]) -> tuple[Any, ...]:
    """The groupby values of a group (a many2one ``[id, name]`` as a tuple)."""
    return tuple(
        tuple(row[name]) if isinstance(row[name], list) else row[name]
        for name in groupby
        if name in row
    )


CASES = [
    pytest.param(version, batch, step, id=f"{batch}-step{step['step']}")
    for version, batch in (("19.0", "odoo19"), ("17.0", "odoo17"))
    for step in _captured_steps(batch)
]


@pytest.fixture(scope="module")
def fakes() -> dict[str, FakeOdoo]:
    return {"19.0": FakeOdoo("19.0"), "17.0": FakeOdoo("17.0")}


@pytest.mark.parametrize(("version", "batch", "step"), CASES)
def test_read_group_groups_as_captured(
    fakes: dict[str, FakeOdoo], version: str, batch: str, step: dict[str, Any]
) -> None:
    model, _method, args = step["params"][3:6]
    kwargs = step["params"][6] if len(step["params"]) > 6 else {}
    got = json.loads(json.dumps(fakes[version].call_kw(ADMIN, model, "read_group", args, kwargs)))
    groupby = list(args[2])
    real = {_group_key(row, groupby): row for row in step["result"]}
    fake = {_group_key(row, groupby): row for row in got}
    common = [key for key in real if key in fake]
    assert common, f"no group in common: real {list(real)}, fake {list(fake)}"
    # the groups both servers have come in the same order
    assert [key for key in fake if key in real] == common
    for key in common:
        assert list(fake[key]) == list(real[key]), key
        for name in COMPARED_VALUES:
            assert fake[key].get(name) == real[key].get(name), (key, name)
