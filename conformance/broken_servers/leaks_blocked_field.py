"""Defect: blocked fields are not stripped from read results (SPEC-11 field blocklist)."""

from _sabotage import serve

from odoo_mcp.safety.policy import SafetyPolicy


def _keep_everything(self: SafetyPolicy, model: str, record: dict) -> dict:  # type: ignore[type-arg]
    return dict(record)


def _keep_every_record(self: SafetyPolicy, model: str, records: list) -> list:  # type: ignore[type-arg]
    return list(records)


SafetyPolicy.strip_record = _keep_everything  # type: ignore[method-assign]
SafetyPolicy.strip_records = _keep_every_record  # type: ignore[method-assign]
serve()
