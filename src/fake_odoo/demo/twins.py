"""The ``twin-a`` and ``twin-b`` datasets: two demo databases that differ only in data a
server configured with ``field_blocklist=email`` and ``model_blocklist=crm.lead`` blocks.

Built for non-interference checks (issue 26): a server must answer alike on both.

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
that is not blocked stays identical, ids and timestamps included. Whoever serves them freezes
both clocks at ``FROZEN_NOW`` (a write then gets the same ``write_date`` on both).
"""

from __future__ import annotations

import re
from typing import Any

from fake_odoo.orm.database import Database

__all__ = ["CANARY", "FROZEN_NOW", "TWINS", "apply_twin", "canaries_in", "partner_email"]

#: the dataset names
TWINS = ("twin-a", "twin-b")

FROZEN_NOW = "2026-03-02 09:30:00"

#: every canary value the twins hold (none of them is ever legitimately shown)
CANARY = re.compile(
    r"canary\d{3}[ab]@leak-[xy]\.invalid|canary-dup\d@leak-x\.invalid"
    r"|canary-co\d+[ab]@leak-y\.invalid|CANARY-LEAD-\d+|canary-lead\d+@leak-y\.invalid"
)


def canaries_in(text: str, sent: str = "") -> list[str]:
    """The canary values in ``text`` that the client did not send itself (in ``sent``)."""
    return sorted({m for m in CANARY.findall(text) if m not in sent})


def partner_email(twin: str, pid: int, demo: Any) -> Any:
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
        db.update("res.partner", pid, {"email": partner_email(twin, pid, demo)})
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


def apply_twin(db: Database, twin: str) -> None:
    """Turn a fresh demo database into twin ``twin`` ("a" or "b")."""
    with db.lock, db.transaction():
        _edit(db, twin.upper())
