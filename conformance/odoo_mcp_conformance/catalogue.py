"""The requirement catalogue: ``spec/*.toml``, one file per specification document.

Each row is a requirement in our own words with its keyword (MUST/SHOULD/MAY), section, and
whether the kit can test it through MCP (``testable``) or not (``excluded`` with a reason).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from odoo_mcp_conformance.paths import spec_dir

__all__ = ["REQ_ID", "Catalogue", "Document", "Keyword", "Requirement", "load_catalogue"]

#: The tag format shared by the catalogue, docstrings and feature files.
REQ_ID = re.compile(r"REQ-(\d{2}[a-z]?|[A-Z]+)-\d{2}")

Keyword = Literal["MUST", "SHOULD", "MAY"]


class Requirement(BaseModel):
    """One catalogue row."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=rf"^{REQ_ID.pattern}$")
    keyword: Keyword
    section: str
    summary: str = Field(min_length=10)
    status: Literal["testable", "excluded"]
    reason: str = ""
    decisions: tuple[int, ...] = ()
    area: str
    note: str = ""
    #: a seed requirement no mutant can violate on the wire says why here (issue 27: every
    #: other one has a mutant in conformance/mutants/ that the kit must kill)
    unobservable: str = ""
    #: a row of a seed document whose content the seed does not hold (where it comes from):
    #: no mutant is required, and the trace never calls it unproven
    not_in_seed: str = ""

    @model_validator(mode="after")
    def _excluded_needs_reason(self) -> Requirement:
        if self.status == "excluded" and not self.reason.strip():
            raise ValueError(f"{self.id} is excluded without a reason")
        return self

    @property
    def testable(self) -> bool:
        return self.status == "testable"


class DocumentInfo(BaseModel):
    """A document's ``[document]`` table; ``must_prove`` says whether ``trace --check`` (and
    CI, and tox) requires every testable requirement of it to be proven. A new document is
    required unless it says why not."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    title: str
    source: str
    must_prove: bool = True
    why: str = ""

    @model_validator(mode="after")
    def _not_required_needs_why(self) -> DocumentInfo:
        if not self.must_prove and not self.why.strip():
            raise ValueError(f"{self.id}: must_prove = false needs a why")
        return self


class Document(BaseModel):
    """One ``spec/<doc>.toml`` file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    document: DocumentInfo
    requirement: tuple[Requirement, ...]


def sort_key(req_id: str) -> tuple[str, int]:
    """Numeric order inside a document: REQ-04-9 before REQ-04-10."""
    prefix, _, number = req_id.rpartition("-")
    return prefix, int(number)


class Catalogue(Mapping[str, Requirement]):
    """All requirements by id, with the document each comes from."""

    def __init__(self, documents: list[Document]) -> None:
        self.documents = documents
        self._rows: dict[str, Requirement] = {}
        self.document_of: dict[str, str] = {}
        for doc in documents:
            for row in doc.requirement:
                if row.id in self._rows:
                    raise ValueError(f"{row.id} appears twice in the catalogue")
                self._rows[row.id] = row
                self.document_of[row.id] = doc.document.id

    @property
    def must_prove(self) -> tuple[str, ...]:
        """The documents whose every testable requirement must be proven (``must_prove``)."""
        return tuple(doc.document.id for doc in self.documents if doc.document.must_prove)

    @property
    def seed_documents(self) -> tuple[str, ...]:
        """The documents taken from a seed (``source = "seeds/..."``): the ones whose every
        observable requirement needs a mutant the kit kills (issue 27)."""
        return tuple(
            doc.document.id for doc in self.documents if doc.document.source.startswith("seeds/")
        )

    def __getitem__(self, key: str) -> Requirement:
        return self._rows[key]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._rows, key=sort_key))

    def __len__(self) -> int:
        return len(self._rows)


def load_catalogue(directory: Path | None = None) -> Catalogue:
    """Read and validate every ``*.toml`` of the catalogue directory (once per process while
    its files stay as they are: a kit batch runs two hundred sessions, each reading it twice,
    0.17 s a session; the catalogue is read, never changed, by its users)."""
    root = directory or spec_dir()
    paths = sorted(root.glob("*.toml"))
    key = (root.resolve(), tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in paths))
    cached = _CATALOGUES.get(key)
    if cached is None:
        cached = _CATALOGUES[key] = _read_catalogue(paths)
    return cached


_CATALOGUES: dict[tuple[Path, tuple[tuple[str, int, int], ...]], Catalogue] = {}


def _read_catalogue(paths: list[Path]) -> Catalogue:
    documents = []
    for path in paths:
        with path.open("rb") as handle:
            try:
                documents.append(Document.model_validate(tomllib.load(handle)))
            except ValueError as exc:
                raise ValueError(f"{path}: {exc}") from exc
    return Catalogue(documents)
