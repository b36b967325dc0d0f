"""Small helpers of the demo builder: fixed-id creation and the build clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

#: The moment the demo data is dated from (the captured server's clock read this day).
DEMO_EPOCH = datetime(2026, 11, 22, 7, 52, 0)


def create_at(env: Any, model: str, record_id: int, vals: dict[str, Any]) -> Any:
    """Create a record under a chosen id (Odoo's demo ids), by moving the id sequence."""
    db = env.db
    current = db.sequences.get(model, 0)
    if record_id <= current and record_id in db.rows(model):
        raise ValueError(f"{model} id {record_id} is taken")
    db.sequences[model] = record_id - 1
    record = env[model].create(vals)
    db.sequences[model] = max(current, record_id)
    return record


def stamp(days: int = 0, hours: int = 0) -> str:
    """A datetime string ``days`` before the epoch (negative: after)."""
    moment = DEMO_EPOCH - timedelta(days=days, hours=hours)
    return moment.strftime("%Y-%m-%d %H:%M:%S")
