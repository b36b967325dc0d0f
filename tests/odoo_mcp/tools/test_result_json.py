"""Issue 30: a tool result becomes JSON values once; records are taken as their tool built them."""

from __future__ import annotations

import pytest
from pydantic import Field, computed_field

from odoo_mcp.tools.core_common import Records, ResultModel
from odoo_mcp.tools.core_read import ReadResult, SearchReadResult

RECORDS = [{"id": 7, "name": "Azure", "country_id": {"id": 233, "name": "United States"}}]


@pytest.mark.parametrize(
    "result",
    [
        SearchReadResult(records=RECORDS, count=1, model="res.partner", limit=1, offset=0,
                         has_more=True),
        SearchReadResult(records=RECORDS, count=1, model="res.partner", limit=1, offset=0,
                         has_more=True, warnings=["deep path"]),
        ReadResult(records=RECORDS, missing_ids=[8]),
    ],
)  # fmt: skip
def test_json_values_are_what_model_dump_gives_in_its_order(
    result: SearchReadResult | ReadResult,
) -> None:
    values = result.json_values()
    dumped = result.model_dump(mode="json", by_alias=True)
    assert values == dumped
    assert list(values) == list(dumped)  # the text block keeps the documented key order
    assert values["records"] is RECORDS  # not walked, not copied


def test_records_are_not_validated_again() -> None:
    # built by normalize_records from Odoo's JSON: pydantic does not walk them a second time
    odd = [{"id": 1, "value": {"nested": [1, 2]}}]
    assert SearchReadResult(records=odd, count=1, model="m", limit=1, offset=0,
                            has_more=False).records is odd  # fmt: skip


class _Aliased(ResultModel):
    records: Records
    total: int = Field(serialization_alias="Total")
    note: str | None = Field(default=None, exclude_if=lambda value: value is None)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def doubled(self) -> int:
        return self.total * 2


@pytest.mark.parametrize("note", [None, "n"])
def test_aliases_left_out_fields_and_computed_fields_keep_model_dumps_shape(
    note: str | None,
) -> None:
    result = _Aliased(records=RECORDS, total=3, note=note)
    dumped = result.model_dump(mode="json", by_alias=True)
    assert result.json_values() == dumped
    assert list(result.json_values()) == list(dumped)
