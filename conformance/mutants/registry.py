"""Mutants: the reference server with exactly one defect against one seed sentence.

The kit's verdicts are only worth what they catch. Every requirement a seed document states
with behaviour observable on the wire gets at least one mutant here: the reference server
with one defect, made through the public seams of ``../broken_servers/_sabotage.py``, whose
docstring quotes the seed sentence it violates. ``tests/conformance/test_mutants.py`` runs the
kit's spec profile on each (scoped to the scenarios tagged with the requirements it must
fail) and asserts the kit fails exactly ``kills``: a mutant that survives, or a kit that
blames another requirement, fails CI.

A mutant is declared once, in the module of its seed document (``spec04.py``, ``spec06.py``,
``spec10.py``, ``http_guide.py``, ``lujanita.py``), and launched by ``run.py NAME``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "broken_servers"))

#: the modules declaring mutants, one per seed document
DOCUMENT_MODULES = ("spec04", "spec06", "spec10", "http_guide", "lujanita", "everywhere")


@dataclass(frozen=True)
class Mutant:
    """One defect, the seed sentence it violates, and the verdict the kit must give."""

    name: str
    #: the requirements the spec profile must fail on this mutant, and no other
    kills: tuple[str, ...]
    #: where the violated sentence is: ``"SPEC-04 §3.1: '...'"`` (document, place, quote)
    seed: str
    #: what the defect is, in a sentence (the function's docstring)
    defect: str
    apply: Callable[[], None]
    #: the scenarios the kit runs on it: a pytest -k expression (default: ``kills`` joined
    #: by ``or``: every scenario tagged with one of them)
    select: str = ""
    #: feature files to run (default: all); narrows collection only
    features: tuple[str, ...] = ()
    transport: Literal["stdio", "http"] = "stdio"
    #: extra command-line flags for ``odoo-mcp serve`` (after the transport's own)
    args: tuple[str, ...] = field(default=())

    @property
    def selection(self) -> str:
        return self.select or " or ".join(self.kills)


_REGISTRY: dict[str, Mutant] = {}


def mutant(
    *,
    kills: tuple[str, ...] | list[str],
    seed: str,
    select: str = "",
    features: tuple[str, ...] | list[str] = (),
    transport: Literal["stdio", "http"] = "stdio",
    args: tuple[str, ...] | list[str] = (),
) -> Callable[[Callable[[], None]], Callable[[], None]]:
    """Declare the decorated function (which applies one defect) as a mutant."""

    def register(apply: Callable[[], None]) -> Callable[[], None]:
        name = apply.__name__
        if name in _REGISTRY:
            raise ValueError(f"mutant {name!r} declared twice")
        if not kills:
            raise ValueError(f"mutant {name!r} kills nothing: it is not a mutant")
        if not seed.strip() or not (apply.__doc__ or "").strip():
            raise ValueError(f"mutant {name!r} needs its seed sentence and a docstring")
        _REGISTRY[name] = Mutant(
            name=name,
            kills=tuple(kills),
            seed=seed,
            defect=" ".join((apply.__doc__ or "").split()),
            apply=apply,
            select=select,
            features=tuple(features),
            transport=transport,
            args=tuple(args),
        )
        return apply

    return register


def all_mutants() -> dict[str, Mutant]:
    """Every declared mutant, by name (importing the document modules declares them)."""
    for module in DOCUMENT_MODULES:
        importlib.import_module(module)
    return dict(sorted(_REGISTRY.items()))
