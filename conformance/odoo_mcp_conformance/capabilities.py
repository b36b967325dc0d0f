"""What a target may claim in ``[capabilities] features``, and which claims it cannot skip.

A scenario that needs a behaviour is tagged ``@needs_<name>``. When the target does not claim
an *optional* behaviour (one the seeds leave to the implementation), the scenario is not
applicable. When the behaviour is a MUST of a seed, not claiming it is not implementing it:
the scenario fails with "not implemented", so a target cannot turn MUSTs into N/A by leaving
them out of its file.
"""

from __future__ import annotations

from typing import Final

from pydantic import BaseModel, ConfigDict

__all__ = ["CAPABILITIES", "NOT_IMPLEMENTED", "Capability"]

#: The message prefix of a scenario failed because the target does not claim a MUST.
NOT_IMPLEMENTED = "not implemented: "


class Capability(BaseModel):
    model_config = ConfigDict(frozen=True)

    text: str
    #: the seeds leave it to the implementation
    optional: bool
    #: why it cannot be declared away (the seed text that requires it), for required ones
    why_required: str = ""
    #: required only for targets served over this transport
    required_on: str = ""

    def required_for(self, transport: str) -> bool:
        return not self.optional or self.required_on == transport

    def __str__(self) -> str:
        return self.text


CAPABILITIES: Final[dict[str, Capability]] = {
    "audit_log": Capability(
        text="writes the JSONL audit log to a file the kit can read",
        optional=False,
        why_required="SPEC-11 REQ-11-22/23 require a configurable JSONL audit log "
        "(audit_enabled, audit_log_file in REQ-11-25)",
    ),
    "rate_limit": Capability(
        text="limits tool calls per session",
        optional=False,
        why_required="SPEC-11 REQ-11-19/20 require a configurable per-session rate limiter",
    ),
    "error_logs": Capability(
        text="logs classified errors on stderr (level name, model, method, code)",
        optional=False,
        why_required="SPEC-10 REQ-10-18/19 require every error to be logged with its level "
        "and context (the kit reads the server's stderr)",
    ),
    "resources": Capability(
        text="SPEC-06 resources",
        optional=False,
        why_required="SPEC-06 REQ-06-01..12 define the odoo:// resources a server serves",
    ),
    "prompts": Capability(
        text="SPEC-06 prompts",
        optional=False,
        why_required="SPEC-06 defines the prompts a server serves",
    ),
    "subscriptions": Capability(
        text="SPEC-06 resource subscriptions",
        optional=False,
        why_required="SPEC-06 REQ-06-13: the server MUST support resources/subscribe",
    ),
    "contracts": Capability(
        text="the storefront contract tools (an opt-in toolset)",
        optional=True,
    ),
    "http": Capability(
        text="serves streamable HTTP (the target's transport is http)",
        optional=True,
    ),
    "http_auth": Capability(
        text="authenticates HTTP callers with their Odoo API key as a Bearer token",
        optional=True,
        required_on="http",
        why_required="the HTTP session guide: tools/call requires Bearer authentication and "
        "tools run with the authenticated user's Odoo permissions",
    ),
    "http_stateless": Capability(
        text="has a stateless HTTP mode (setting stateless_http)",
        optional=True,
    ),
}
