"""Issue 30: the server process's garbage collector, set for answers of thousands of objects.

Made once by ``odoo-mcp serve`` before it serves (never by an import: the tests build servers
in their own process), and by the SDK passthrough of ``bench/`` alike, so that the yardstick
compares code, not collector settings:

- ``gc.freeze()``: the ~90,000 objects of the imported modules, models and schemas go to the
  permanent generation; full collections stop traversing them on every few answers.
- the youngest generation's threshold, 700 allocations by default, becomes 10,000: a 500-row
  answer allocates some 15,000 containers, and at 700 its half-built records were traversed
  by a young collection ~20 times per call and promoted to be traversed again.

Server CPU per ``odoo_core_search_read`` of res.partner (``bench/percall.py``'s fields; the
measure is the process's own CPU time over 150 calls): 500 rows 10.3 -> 7.7 ms, 80 rows
3.1 -> 2.7 ms, 5 rows 1.9 ms either way. Memory is unchanged: frozen objects are still freed
by reference counting, and the server's answers hold no cycles worth an earlier collection.
"""

from __future__ import annotations

import gc
from typing import Final

__all__ = ["YOUNG_THRESHOLD", "tune_gc"]

YOUNG_THRESHOLD: Final = 10_000


def tune_gc() -> None:
    """Freeze what is loaded and collect the youngest generation less often (see above)."""
    # no gc.collect() first: it costs 28 ms of a cold start (issue 17) to free ~20 objects
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
