"""Defect: blocked fields are not stripped from read results (SPEC-11 field blocklist), nor
by the answer scrub behind that."""

from typing import Any

from _sabotage import patch_everywhere, serve

from odoo_mcp.safety.policy import SafetyPolicy


def _keep_everything(self: SafetyPolicy, model: str, record: dict) -> dict:  # type: ignore[type-arg]
    return dict(record)


def _keep_every_record(self: SafetyPolicy, model: str, records: list) -> list:  # type: ignore[type-arg]
    return list(records)


def _no_scrub(value: Any, blocked: Any, channel: str, **kwargs: Any) -> Any:
    return value


import odoo_mcp.safety.scrub  # noqa: E402

patch_everywhere(odoo_mcp.safety.scrub.scrub, _no_scrub)
SafetyPolicy.strip_record = _keep_everything  # type: ignore[method-assign]
SafetyPolicy.strip_records = _keep_every_record  # type: ignore[method-assign]
serve()
