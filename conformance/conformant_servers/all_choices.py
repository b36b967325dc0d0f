"""Every legal choice of this directory at once: the kit's spec profile must pass them together.

Each variant of ``expected.toml`` (not the pending ones, nor those its ``[all_choices.excluded]``
names, with the reason) applies its patches when imported and then calls ``serve``; here ``serve``
is held back until every variant is applied, so one server makes all the choices.
"""

import importlib
import sys
import tomllib
from pathlib import Path

import _variant

HERE = Path(__file__).resolve().parent
#: the variants of expected.toml's [variant] tables (its [pending] ones the kit still fails);
#: those of EXCLUDED conflict with another choice, and are left out
EXPECTED = tomllib.loads((HERE / "expected.toml").read_text())
EXCLUDED = frozenset(EXPECTED.get("all_choices", {}).get("excluded", {}))
VARIANTS = sorted(set(EXPECTED["variant"]) - EXCLUDED)

real_serve = _variant.serve
_variant.serve = lambda: None  # the variants import it from _variant: a no-op until the end
for name in VARIANTS:
    importlib.import_module(name)
_variant.serve = real_serve
print(f"all_choices: {', '.join(VARIANTS)}", file=sys.stderr)
real_serve()
