"""Issue 41: the field checks of a wide call look a model's metadata up once, not once per field.

A search_read of all 107 res.partner fields checked each name against the blocklist three
times (requested fields, references, the answer's strip), and each check looked the model's
cached metadata up again (and ``check_references`` awaited ``get_fields`` per name): 321
lookups per call. The answers stay those of ``is_field_blocked`` name by name; the counts are
of the metadata source's calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from odoo_mcp.field_refs import field_list_refs
from odoo_mcp.registry import FieldInfo
from odoo_mcp.safety import SafetyError, SafetyPolicy

pytestmark = pytest.mark.anyio

MODEL = "res.partner"


def _fields() -> dict[str, FieldInfo]:
    specs: dict[str, dict[str, Any]] = {f"x_{i}": {"type": "char"} for i in range(100)}
    specs["name"] = {"type": "char"}
    # derived from a blocked field: blocked once the metadata is known (REQ-11-14)
    specs["x_from_password"] = {"type": "char", "depends": ["password"]}
    specs["parent_id"] = {"type": "many2one", "relation": MODEL}
    return {name: FieldInfo.from_odoo(name, spec) for name, spec in specs.items()}


class CountingSource:
    """The registry with the model cached, counting its calls."""

    def __init__(self, fields: Mapping[str, FieldInfo]) -> None:
        self.fields = fields
        self.get_fields_calls = 0
        self.cached_calls = 0

    async def get_fields(self, model: str) -> Mapping[str, FieldInfo]:
        self.get_fields_calls += 1
        return self.fields

    def cached(self, model: str) -> Mapping[str, FieldInfo] | None:
        self.cached_calls += 1
        return self.fields


def _policy() -> tuple[SafetyPolicy, CountingSource]:
    source = CountingSource(_fields())
    policy = SafetyPolicy()
    policy.use_metadata(source)
    return policy, source


def test_the_checks_of_many_names_agree_with_one_name_at_a_time() -> None:
    policy, _source = _policy()
    names = [*_fields(), "password", "parent_id.password", "parent_id.name", "a.b", "", "vat"]
    expected = [name for name in names if policy.is_field_blocked(MODEL, name)]
    assert policy.fields.blocked_among(MODEL, names) == expected
    assert "x_from_password" in expected and "parent_id.name" not in expected
    rows = [{name: 1 for name in _fields()} | {"password": "x"}]
    stripped = policy.strip_records(MODEL, rows)
    assert set(stripped[0]) == set(_fields()) - {"x_from_password"}


def test_a_wide_field_list_looks_the_metadata_up_once_per_check() -> None:
    policy, source = _policy()
    names = [name for name in _fields() if name != "x_from_password"]
    policy.check_read_fields(MODEL, names)
    policy.strip_records(MODEL, [{name: 1 for name in names}])
    # derived() once per check (each looks the cached metadata up once), not once per name
    assert source.cached_calls == 2


async def test_check_references_awaits_the_model_fields_once_for_a_field_list() -> None:
    policy, source = _policy()
    names = [name for name in _fields() if name != "x_from_password"]
    await policy.check_references(MODEL, field_list_refs(names, "fields"), source)
    assert source.get_fields_calls == 1  # was one per name (103)
    assert source.cached_calls <= 3  # was two per name


async def test_check_references_still_refuses_the_first_blocked_name() -> None:
    policy, source = _policy()
    names = ["name", "x_1", "x_from_password", "x_2", "parent_id.name"]
    with pytest.raises(SafetyError) as caught:
        await policy.check_references(MODEL, field_list_refs(names, "fields"), source)
    assert caught.value.details == {"model": MODEL, "fields": ["x_from_password"]}
    # a path after the list is walked as before: the relation's fields are asked again
    source.get_fields_calls = 0
    await policy.check_references(MODEL, field_list_refs(["name", "parent_id.name"], "f"), source)
    assert source.get_fields_calls == 3
