"""Unit-test results for the trace: which tests prove which requirement, and their verdict.

Written by the pytest plugin ``odoo_mcp_conformance.unit_results`` (``--req-results``) from the
tests marked ``@pytest.mark.req(...)``; read by ``trace --unit-results``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from odoo_mcp_conformance.catalogue import REQ_ID

__all__ = ["UnitOutcome", "UnitResult", "UnitResults", "bad_ids", "read_unit_results"]

UnitOutcome = Literal["passed", "failed", "skipped", "xfailed"]


class UnitResult(BaseModel):
    """One marked test: its pytest node id, the requirements it proves, its outcome."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    nodeid: str
    requirements: tuple[str, ...] = Field(min_length=1)
    outcome: UnitOutcome


class UnitResults(BaseModel):
    """The file: every marked test that ran, sorted by node id (deterministic)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    results: tuple[UnitResult, ...]

    @classmethod
    def of(cls, results: Iterable[UnitResult]) -> UnitResults:
        return cls(results=tuple(sorted(results, key=lambda r: r.nodeid)))

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.model_dump(mode="json"), indent=1) + "\n")


def read_unit_results(paths: Iterable[Path]) -> list[UnitResult]:
    """Every result of one or more files (a test run twice is listed twice: a failure in
    either run counts)."""
    found: list[UnitResult] = []
    for path in paths:
        found += UnitResults.model_validate_json(path.read_text()).results
    return found


def bad_ids(ids: Iterable[str]) -> list[str]:
    """The marker arguments that are not REQ ids at all (unknown but well-formed ids are
    the trace's business: it reports them as untracked)."""
    return [i for i in ids if not REQ_ID.fullmatch(i)]
