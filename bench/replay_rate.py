"""Print, per batch of real Odoo captures, how many files the fake replays identically, and
why not the rest.

Usage: python bench/replay_rate.py [-v] [odoo19|odoo17|odoo19@20.0 ...]
Serves a fake Odoo of each batch's version and database on a free port, replays every capture
of tests/fixtures/<batch>/ with the engine of tests/fake_odoo/replay.py and prints "N/M capture
files replay identically", then each other file with its reason from the batch's
replay_expected_differences*.toml (or "NOT LISTED" and its first differences: a bug of the fake
or a missing entry).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "fake_odoo"))

from replay import BATCHES, ODOO19_ON_20, Batch, Replayer, capture_names, expected_differences

from fake_odoo import FakeOdoo
from fake_odoo.testing import serve_fake_odoo


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    logging.disable(logging.WARNING)  # Odoo's deprecation warning on every XML-RPC call
    # odoo19@20.0: the 19 captures against the fake imitating 20.0 from its source
    batches = {**BATCHES, "odoo19@20.0": ODOO19_ON_20}
    chosen = [name for name in argv if name in batches] or list(batches)
    for name in chosen:
        replay_batch(batches[name], verbose)
    return 0


def replay_batch(batch: Batch, verbose: bool) -> None:
    listed = expected_differences(batch)
    names = capture_names(batch)
    others: list[str] = []
    differing = 0
    print(
        f"phase: replaying {len(names)} {batch.name} capture files against a fake Odoo "
        f"{batch.version}",
        flush=True,
    )
    with serve_fake_odoo(fake=FakeOdoo(batch.version, database=batch.database)) as fake:
        replayer = Replayer(fake, batch)
        for name in names:
            try:
                reports = replayer.run(name)
                diffs = [(r.step, d) for r in reports for d in r.differences]
            except Exception as exc:  # the replay itself broke: report it like a difference
                diffs = [(0, f"replay raised {exc!r}")]
                replayer.wrote = True
            if not diffs:
                continue
            differing += 1
            entry = listed.get(name)
            reason = entry.reason if entry else "NOT LISTED"
            others.append(f"  {name}: {reason}")
            if entry is None or verbose:
                others.extend(f"      step {step}: {diff}" for step, diff in diffs[:6])
    same, total = len(names) - differing, len(names)
    print(f"{batch.name} on {batch.version}: {same}/{total} capture files replay identically")
    print("\n".join(others))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
