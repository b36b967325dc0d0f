"""Every legal choice of this directory at once: the kit's spec profile must pass them together.

Each variant module applies its patches when imported and then calls ``serve``; here ``serve``
is held back until every variant is applied, so one server makes all the choices.
"""

import importlib
import sys
from pathlib import Path

import _variant

HERE = Path(__file__).resolve().parent
VARIANTS = sorted(
    path.stem
    for path in HERE.glob("*.py")
    if not path.stem.startswith("_") and path.stem != "all_choices"
)

real_serve = _variant.serve
_variant.serve = lambda: None  # the variants import it from _variant: a no-op until the end
for name in VARIANTS:
    importlib.import_module(name)
_variant.serve = real_serve
print(f"all_choices: {', '.join(VARIANTS)}", file=sys.stderr)
real_serve()
