"""Benchmark (issue 17): the server's per-record cost and memory as answers grow.

Takes real ``res.partner`` rows (many2one, datetime and html fields among them, as the fake
Odoo 19.0 answers ``search_read``) and their ``fields_get`` metadata, repeats them to 10, 100,
1,000 and 10,000 records (each with its own id), and times what the server does with an answer
once Odoo has sent it: normalization (``normalize_records``, REQ-04-35..37), the result model
and its JSON values (``structuredContent``), and the answer scrub with the JSON text block
(``scrub_to_json``, the default field blocklist), as the dispatcher does since issue 30.
Prints microseconds per record for each size (linear: the same for every size) and the peak
memory ``tracemalloc`` sees while a 500-row answer is built. Run by hand::

    python bench/scaling.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import quiet_deprecation_log
from odoo_mcp.formatting import normalize_records
from odoo_mcp.registry.fields import FieldInfo
from odoo_mcp.safety.blocklists import DEFAULT_FIELD_BLOCKLIST
from odoo_mcp.safety.scrub import scrub_to_json
from odoo_mcp.tools.core_read import SearchReadResult

FIELDS = ["id", "name", "email", "parent_id", "country_id", "write_date", "comment", "active"]
SIZES = (10, 100, 1_000, 10_000)
MEMORY_SIZE = 500


def odoo_rows(count: int) -> tuple[list[dict[str, Any]], dict[str, FieldInfo]]:
    """``count`` search_read rows as the fake Odoo answers them, and the fields' metadata."""
    fake = FakeOdoo("19.0")
    sample: list[dict[str, Any]] = fake.call("res.partner", "search_read", [], fields=FIELDS)
    raw = fake.call("res.partner", "fields_get", FIELDS, attributes=["type", "string", "relation"])
    fields = {name: FieldInfo.from_odoo(name, spec) for name, spec in raw.items()}
    rows = [dict(sample[i % len(sample)], id=i + 1) for i in range(count)]
    return rows, fields


BLOCKED = frozenset(DEFAULT_FIELD_BLOCKLIST)


def answer(rows: list[dict[str, Any]], fields: dict[str, FieldInfo]) -> tuple[bytes, Any]:
    """What the server does with Odoo's rows: normalize, build the result, its JSON values,
    then scrub and encode them (the tool dispatcher's steps)."""
    records = normalize_records(rows, fields, requested=FIELDS)
    result = SearchReadResult(
        records=records, count=len(records), model="res.partner", limit=len(records),
        offset=0, has_more=False,
    )  # fmt: skip
    structured, text = scrub_to_json(result.json_values(), BLOCKED, "bench")
    return text, structured


def timed(step: Callable[[], object], repeat: int) -> float:
    """Median seconds of ``repeat`` runs of ``step``."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        step()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    quiet_deprecation_log()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per size (median)")
    args = parser.parse_args()
    print(f"phase: reading {len(FIELDS)} fields of res.partner from the fake Odoo", flush=True)
    rows, fields = odoo_rows(max(SIZES))
    print("| records | normalize us/record | whole answer us/record | whole answer ms |")
    print("|---|---|---|---|")
    for size in SIZES:
        part = rows[:size]
        normalize = timed(
            lambda p=part: normalize_records(p, fields, requested=FIELDS), args.repeat
        )
        whole = timed(lambda p=part: answer(p, fields), args.repeat)
        print(f"| {size:,} | {normalize / size * 1e6:.1f} | {whole / size * 1e6:.1f} "
              f"| {whole * 1e3:.2f} |")  # fmt: skip
    part = rows[:MEMORY_SIZE]
    tracemalloc.start()
    text, _structured = answer(part, fields)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"\n{MEMORY_SIZE}-row answer: peak {peak / 1024:.0f} KiB allocated while it is built "
          f"(its JSON text alone is {len(text) / 1024:.0f} KiB)")  # fmt: skip


if __name__ == "__main__":
    main()
