"""Twin fake Odoo databases that differ only in blocked data (issue 26).

Both twins start from the same demo database; then, for the configuration
``field_blocklist=["email"]``, ``model_blocklist=["crm.lead"]``:

* every ``res.partner`` and ``res.company`` ``email`` gets a twin-specific value: canaries
  (``canary012a@leak-x.invalid`` in A, ``canary488b@leak-y.invalid`` in B, so they sort in
  opposite orders and match different ilike patterns), the demo address, a duplicate (so that
  groups differ) or no address at all (so ``email = False`` counts differ);
  ``email_normalized``/``email_formatted`` and ``res.users.email`` follow;
* in B, every ``crm.lead`` row changes (names, revenues, partners, stages) and extra leads
  are added.

The values are written straight into the store (no ``write_date`` bump), so everything
that is not blocked stays identical, ids and timestamps included; the clock is frozen at
the same instant in both.  ``TwinPair.reset()`` restores both in a few milliseconds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from fake_odoo.handle import FakeOdoo
from fake_odoo.orm.database import Database

__all__ = ["CANARY", "FROZEN_NOW", "TwinPair", "canaries_in", "twin_snapshot"]

FROZEN_NOW = "2026-03-02 09:30:00"

#: every canary value the twins hold (none of them is ever legitimately shown)
CANARY = re.compile(
    r"canary\d{3}[ab]@leak-[xy]\.invalid|canary-dup\d@leak-x\.invalid"
    r"|canary-co\d+[ab]@leak-y\.invalid|CANARY-LEAD-\d+|canary-lead\d+@leak-y\.invalid"
)


def canaries_in(text: str, sent: str = "") -> list[str]:
    """The canary values in ``text`` that the client did not send itself (in ``sent``)."""
    return sorted({m for m in CANARY.findall(text) if m not in sent})


def _partner_email(twin: str, pid: int, demo: Any) -> Any:
    r = pid % 3
    odd = pid % 2
    if twin == "A":
        if r == 0:
            return demo
        if r == 1:
            return f"canary{pid:03d}a@leak-{'x' if odd else 'y'}.invalid"
        return False
    if r == 0:
        return f"canary{500 - pid:03d}b@leak-{'y' if odd else 'x'}.invalid"
    if r == 1:
        return False
    return f"canary-dup{odd}@leak-x.invalid"


def _edit(db: Database, twin: str) -> None:
    env = db.env(su=True)
    partners = sorted(db.rows("res.partner"))
    for pid in partners:
        demo = db.row("res.partner", pid)["email"]  # type: ignore[index]
        db.update("res.partner", pid, {"email": _partner_email(twin, pid, demo)})
    env["res.partner"].browse(partners).with_context(active_test=False)._recompute()
    for cid in sorted(db.rows("res.company")):
        value = f"canary-co{cid}{twin.lower()}@leak-y.invalid" if twin == "B" else False
        db.update("res.company", cid, {"email": value})
    if twin == "B" and "crm.lead" in db.registry:
        _edit_leads(db)


def _edit_leads(db: Database) -> None:
    rows = db.rows("crm.lead")
    lead_ids = sorted(rows)
    partners = sorted(db.rows("res.partner"))
    for n, lid in enumerate(lead_ids):
        db.update(
            "crm.lead",
            lid,
            {
                "name": f"CANARY-LEAD-{lid}",
                "email_from": f"canary-lead{lid}@leak-y.invalid",
                "expected_revenue": 1000.0 * (n + 7),
                "partner_id": partners[(n * 7) % len(partners)],
            },
        )
    template = dict(rows[lead_ids[0]]) if lead_ids else None
    if template is None:
        return
    for n in range(5):
        row = dict(template)
        row.pop("id", None)
        new = db.insert("crm.lead", row)
        db.update(
            "crm.lead",
            new,
            {
                "name": f"CANARY-LEAD-{new}",
                "email_from": f"canary-lead{new}@leak-y.invalid",
                "partner_id": partners[(n * 5 + 3) % len(partners)],
                "expected_revenue": 123.0 * n,
            },
        )


_SNAPSHOTS: dict[tuple[str, str], bytes] = {}


def twin_snapshot(twin: str, version: str = "19.0") -> bytes:
    """The data of twin ``twin`` ("A" or "B"), built once per process."""
    key = (twin, version)
    if key not in _SNAPSHOTS:
        fake = FakeOdoo(version)
        db = fake.db
        with db.lock, db.transaction():
            _edit(db, twin)
        _SNAPSHOTS[key] = db.snapshot()
    return _SNAPSHOTS[key]


def _factory(snapshot: bytes) -> Any:
    def build(name: str, version: str, dataset: str, scale: int, **_: Any) -> Database:
        return Database.restore(snapshot, name=name, version=version)

    return build


class TwinPair:
    """The two twins, as in-process ``FakeOdoo`` handles with frozen, equal clocks."""

    def __init__(self, version: str = "19.0") -> None:
        self.version = version
        self.a = FakeOdoo(version, factory=_factory(twin_snapshot("A", version)))
        self.b = FakeOdoo(version, factory=_factory(twin_snapshot("B", version)))
        self._freeze()

    @property
    def both(self) -> Iterable[FakeOdoo]:
        return (self.a, self.b)

    def _freeze(self) -> None:
        for fake in self.both:
            fake.set_clock(FROZEN_NOW)

    def reset(self) -> None:
        """Both twins back to their first state (after writes)."""
        for fake in self.both:
            fake.reset()
        self._freeze()
