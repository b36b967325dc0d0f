"""Baselines: the failures a target is known to have (``conformance/baselines/<target>.toml``).

A run meets its baseline when every failing requirement that counts is listed, and every
listed requirement still fails: an entry that starts passing is stale and fails the run, so
baselines only ever shrink.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Baseline", "load_baseline"]


class ExpectedFailure(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^REQ-(\d{2}[a-z]?|[A-Z]+)-\d{2}$")
    reason: str = Field(min_length=3)


class Baseline(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    expected_failure: tuple[ExpectedFailure, ...] = ()

    @property
    def ids(self) -> dict[str, str]:
        return {entry.id: entry.reason for entry in self.expected_failure}


def load_baseline(path: Path | None) -> Baseline:
    """An absent file is the empty baseline: everything that counts must pass."""
    if path is None or not path.exists():
        return Baseline()
    with path.open("rb") as handle:
        return Baseline.model_validate(tomllib.load(handle))
