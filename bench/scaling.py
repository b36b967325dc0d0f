"""Benchmark (issue 17): the server's per-record cost and memory as answers grow.

Takes real ``res.partner`` rows (many2one, datetime and html fields among them, as the fake
Odoo 19.0 answers ``search_read``) and their ``fields_get`` metadata, repeats them to 10, 100,
1,000 and 10,000 records (each with its own id), and times what the server does with an answer
once Odoo has sent it: normalization (``normalize_records``, REQ-04-35..37), the result model
and its JSON values (``structuredContent``), and the answer scrub with the JSON text block
(``scrub_to_json``, the default field blocklist), as the dispatcher does since issue 30.
Prints microseconds per record for each size (linear: the same for every size) and the peak
memory ``tracemalloc`` sees while a 500-row answer is built.

Issue 41 adds a field-count axis: 10 records of 7 to all 107 non-binary ``res.partner``
fields, timed with the per-field work a call does besides (the requested fields checked
against the blocklist, their references resolved against the cached metadata, the blocked
fields stripped from the rows: ``SafetyPolicy.check_read_fields``, ``check_references``,
``strip_records``), in microseconds per value (records x fields): flat when a value costs the
same however wide its record. Run by hand::

    python bench/scaling.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import quiet_deprecation_log
from odoo_mcp.field_refs import field_list_refs
from odoo_mcp.formatting import normalize_records
from odoo_mcp.registry.fields import FieldInfo
from odoo_mcp.safety import SafetyPolicy
from odoo_mcp.safety.blocklists import DEFAULT_FIELD_BLOCKLIST
from odoo_mcp.safety.scrub import scrub_to_json
from odoo_mcp.tools.core_read import SearchReadResult

FIELDS = ["id", "name", "email", "parent_id", "country_id", "write_date", "comment", "active"]
SIZES = (10, 100, 1_000, 10_000)
MEMORY_SIZE = 500
#: issue 41: the field-count axis (7 of them: ``FIELDS`` without ``active``), at WIDE_RECORDS
FIELD_COUNTS = (7, 27, 57, 107)
WIDE_RECORDS = 10


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


def wide_rows(count: int) -> tuple[list[dict[str, Any]], dict[str, FieldInfo], list[str]]:
    """``count`` rows of every non-binary res.partner field (``FIELDS`` first), the metadata
    of every field, and the field names in that order."""
    fake = FakeOdoo("19.0")
    raw = fake.call("res.partner", "fields_get", attributes=["type", "string", "relation"])
    fields = {name: FieldInfo.from_odoo(name, spec) for name, spec in raw.items()}
    names = [name for name in FIELDS if name != "active"]
    names += [name for name, info in fields.items() if info.type != "binary" and name not in names]
    sample: list[dict[str, Any]] = fake.call("res.partner", "search_read", [], fields=names)
    rows = [dict(sample[i % len(sample)], id=i + 1) for i in range(count)]
    return rows, fields, names


class CachedFields:
    """The registry with res.partner's metadata cached (``get_fields`` never waits)."""

    def __init__(self, fields: Mapping[str, FieldInfo]) -> None:
        self.fields = fields

    async def get_fields(self, model: str) -> Mapping[str, FieldInfo]:
        return self.fields

    def cached(self, model: str) -> Mapping[str, FieldInfo] | None:
        return self.fields


def run_now(step: Coroutine[Any, Any, None]) -> None:
    """Run a coroutine that never waits (the metadata is cached) without an event loop."""
    try:
        step.send(None)
    except StopIteration:
        return
    step.close()
    raise RuntimeError("the checks waited: the metadata was not cached")


def wide_answer(
    rows: list[dict[str, Any]], fields: dict[str, FieldInfo], names: list[str],
    policy: SafetyPolicy, source: CachedFields,
) -> None:  # fmt: skip
    """search_read's per-field work beside the answer: the checks of the requested fields,
    the blocked ones stripped, then the answer as ``answer`` builds it."""
    policy.check_read_fields("res.partner", names)
    run_now(policy.check_references("res.partner", field_list_refs(names, "fields"), source))
    records = normalize_records(policy.strip_records("res.partner", rows), fields, requested=names)
    result = SearchReadResult(
        records=records, count=len(records), model="res.partner", limit=len(records),
        offset=0, has_more=False,
    )  # fmt: skip
    scrub_to_json(result.json_values(), policy.blocked_names(), "bench")


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
    print(f"\nphase: {WIDE_RECORDS} records of 7 to 107 fields, with the per-field checks")
    wide, metadata, names = wide_rows(WIDE_RECORDS)
    source = CachedFields(metadata)
    policy = SafetyPolicy()
    policy.use_metadata(source)
    print("| fields | values | whole call's answer us | us/value |")
    print("|---|---|---|---|")
    for count in FIELD_COUNTS:
        chosen = names[:count]
        part = [{name: row[name] for name in chosen} for row in wide]
        spent = timed(
            lambda p=part, c=chosen: wide_answer(p, metadata, c, policy, source),
            max(args.repeat, 50),
        )
        values = WIDE_RECORDS * count
        print(f"| {count} | {values:,} | {spent * 1e6:.0f} | {spent / values * 1e6:.2f} |")
    part = rows[:MEMORY_SIZE]
    tracemalloc.start()
    text, _structured = answer(part, fields)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"\n{MEMORY_SIZE}-row answer: peak {peak / 1024:.0f} KiB allocated while it is built "
          f"(its JSON text alone is {len(text) / 1024:.0f} KiB)")  # fmt: skip


if __name__ == "__main__":
    main()
