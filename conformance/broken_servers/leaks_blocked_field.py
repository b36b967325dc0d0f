"""Defect: blocked fields are not stripped from read results (SPEC-11 field blocklist)."""

from _sabotage import serve

from odoo_mcp.safety.policy import SafetyPolicy


def _keep_everything(self: SafetyPolicy, model: str, record: dict) -> dict:  # type: ignore[type-arg]
    return dict(record)


SafetyPolicy.strip_record = _keep_everything  # type: ignore[method-assign]
serve()
