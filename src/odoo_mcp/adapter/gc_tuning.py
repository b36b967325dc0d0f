"""Issue 30: the server process's garbage collector, set for answers of thousands of objects.

Made once by ``odoo-mcp serve`` before it serves (never by an import: the tests build servers
in their own process), and by the SDK passthrough of ``bench/`` alike, so that the yardstick
compares code, not collector settings:

- ``gc.freeze()``: the ~91,500 objects of the imported modules, models and schemas go to
  the permanent generation, so full collections stop traversing them. Measured over 130
  calls of ``bench/percall.py`` (500 rows): 274 collections took 89 ms before, 23 ms after.
- the youngest generation's threshold, 700 allocations by default, becomes 10,000: a
  500-row answer allocates thousands of containers, and each young collection traverses
  (and promotes) the records still being built.

Server CPU per ``odoo_core_search_read`` of res.partner (``bench/percall.py``'s fields; the
process's own CPU time over 150 calls, three runs): 500 rows 10.3 -> 7.7-8.1 ms, 80 rows
3.1 -> 2.7 ms; at 5 rows the difference is within the runs' noise (1.9-2.2 ms). Memory is
unchanged: frozen objects are still freed by reference counting, and the server's answers
hold no cycles worth an earlier collection.

Issue 41: the console script loads the CLI with the collector paused (``collector_paused``,
called by ``odoo_mcp.launch``). Importing the SDK and our modules defines ~600 pydantic models
and allocates ~150,000 containers that live as long as the process; the young collections
run meanwhile (~210 of them) free almost none of it and cost ~70 ms of CPU of a 620 ms start
(the import and the core tools' schemas, interleaved runs on 2 idle cores: 614-653 ms with
the collector, 543-553 without). What they would have freed is ~2,250 objects more left
frozen, ~1 MB of peak memory.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

__all__ = ["YOUNG_THRESHOLD", "collector_paused", "tune_gc"]

YOUNG_THRESHOLD: Final = 10_000


def tune_gc() -> None:
    """Freeze what is loaded and collect the youngest generation less often (see above)."""
    # no gc.collect() first: it costs 28 ms of a cold start (issue 17) to free ~20 objects
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection while the block runs (the process's modules loading), then what it
    loaded frozen, so that the first collection after it does not traverse all of it (see
    above). Only for a process of our own, like ``tune_gc``."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
