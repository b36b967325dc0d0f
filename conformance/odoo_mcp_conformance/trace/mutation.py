"""The kit's proof by mutation, as the trace shows it (issue 27).

A seed requirement is *proven* when a mutant (the reference server with one defect against
that requirement's sentence) was run and the kit's spec profile failed exactly what the
mutant must fail; a conformant variant (another legal choice where the seeds are silent)
proves the other direction when the kit passes it. The results come from the test runs that
judge them (``tests/conformance/test_mutants.py``, ``test_broken_servers.py`` and
``test_conformant_servers.py`` with ``ODOO_MCP_MUTATION_RESULTS`` set, as ``tox -e mutation``
and ``tox -e docs`` do): one JSON file per run, read here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["MutationResults", "Proof", "read_mutation_results"]

Proof = Literal["killed", "survived", "none", "unobservable", "not_in_seed", "not_run"]


class MutantRun(BaseModel):
    """One mutant's run: what it must fail, what the kit failed."""

    model_config = ConfigDict(frozen=True)

    kills: tuple[str, ...]
    failing: tuple[str, ...]

    @property
    def killed(self) -> bool:
        return set(self.failing) == set(self.kills)


class VariantRun(BaseModel):
    """One conformant variant's run: where its choice shows, what the kit failed (nothing)."""

    model_config = ConfigDict(frozen=True)

    shows_on: tuple[str, ...] = ()
    failing: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return not self.failing


class MutationResults(BaseModel):
    """Every mutant and variant run, merged from the result files."""

    model_config = ConfigDict(frozen=True)

    mutants: dict[str, MutantRun] = {}
    variants: dict[str, VariantRun] = {}

    @property
    def ran(self) -> bool:
        return bool(self.mutants or self.variants)

    def mutants_of(self, req_id: str) -> list[tuple[str, MutantRun]]:
        return sorted((n, m) for n, m in self.mutants.items() if req_id in m.kills)

    def variants_of(self, req_id: str) -> list[tuple[str, VariantRun]]:
        return sorted((n, v) for n, v in self.variants.items() if req_id in v.shows_on)

    def proof(self, req_id: str, unobservable: bool) -> Proof:
        """killed: every mutant of the requirement was killed; survived: one was not."""
        if unobservable:
            return "unobservable"
        if not self.ran:
            return "not_run"
        runs = self.mutants_of(req_id)
        if not runs:
            return "none"
        return "killed" if all(m.killed for _, m in runs) else "survived"

    def labels(self, req_id: str) -> tuple[str, ...]:
        """``name (killed)`` per mutant, ``name (variant passes)`` per variant."""
        mutants = [
            f"{n} ({'killed' if m.killed else 'survived'})" for n, m in self.mutants_of(req_id)
        ]
        variants = [
            f"{n} (variant {'passes' if v.passed else 'FAILS'})"
            for n, v in self.variants_of(req_id)
        ]
        return tuple(mutants + variants)


def read_mutation_results(paths: Iterable[Path]) -> MutationResults:
    """Merge result files (``{"mutants": {...}, "variants": {...}}``); a directory means
    every ``*.json`` in it."""
    files: list[Path] = []
    for path in paths:
        files += sorted(path.glob("*.json")) if path.is_dir() else [path]
    mutants: dict[str, MutantRun] = {}
    variants: dict[str, VariantRun] = {}
    for file in files:
        data = json.loads(file.read_text())
        mutants.update({n: MutantRun.model_validate(m) for n, m in data.get("mutants", {}).items()})
        variants.update(
            {n: VariantRun.model_validate(v) for n, v in data.get("variants", {}).items()}
        )
    return MutationResults(mutants=mutants, variants=variants)


def write_mutation_results(
    path: Path,
    mutants: dict[str, tuple[Sequence[str], Sequence[str]]] | None = None,
    variants: dict[str, tuple[Sequence[str], Sequence[str]]] | None = None,
) -> None:
    """One run's results: per mutant (kills, failing), per variant (shows_on, failing)."""
    data = {
        "mutants": {
            n: {"kills": sorted(k), "failing": sorted(f)} for n, (k, f) in (mutants or {}).items()
        },
        "variants": {
            n: {"shows_on": sorted(s), "failing": sorted(f)}
            for n, (s, f) in (variants or {}).items()
        },
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
