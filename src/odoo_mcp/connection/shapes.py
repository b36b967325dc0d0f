"""SPEC-02: shapes shared by the connection layer: call outcome, states, info, retry tables."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, TypeAlias

from pydantic import BaseModel, ConfigDict

from odoo_mcp.connection.version import ProtocolName

__all__ = [
    "BACKOFF",
    "READ_METHODS",
    "CallOutcome",
    "ConnectionInfo",
    "ConnectionState",
    "OdooValue",
    "merge_context",
]

OdooValue: TypeAlias = Any
"""A raw value as Odoo sent it (JSON-like): the one place where ``Any`` is allowed."""


@dataclass(frozen=True, slots=True)
class CallOutcome:
    """REQ-02b-10: the result of one call and how it came back.

    ``null_from_marshal_fault`` is True when XML-RPC answered fault 1 "cannot marshal None":
    the method ran and its change is committed, the result is ``None`` (decision 15). It is a
    success; the flag lets a tool say so instead of showing a bare null.
    """

    result: OdooValue
    protocol: ProtocolName
    null_from_marshal_fault: bool = False


def merge_context(
    base: Mapping[str, object], *layers: Mapping[str, object] | None
) -> dict[str, object]:
    """REQ-02-28: a fresh dict: base context, then each layer over it; nothing is mutated."""
    merged = dict(base)
    for layer in layers:
        if layer:
            merged.update(layer)
    return merged


# Methods that change nothing, so repeating one after a lost answer is harmless (decision 1's
# read list plus the metadata calls the server itself makes).
READ_METHODS: Final = frozenset(
    {
        "read",
        "search",
        "search_read",
        "search_count",
        "search_fetch",
        "fields_get",
        "default_get",
        "name_get",
        "name_search",
        "read_group",
        "formatted_read_group",
        "check_access_rights",
        "check_access_rule",
        "has_access",
        "exists",
        "context_get",
    }
)
BACKOFF: Final = (1.0, 2.0, 4.0)


class ConnectionState(StrEnum):
    """REQ-02-18: where the connection is in its lifecycle."""

    DISCONNECTED = "disconnected"
    CONNECTING = "connecting"
    AUTHENTICATED = "authenticated"
    READY = "ready"
    ERROR = "error"
    RECONNECTING = "reconnecting"


class ConnectionInfo(BaseModel):
    """REQ-02-33: what ``odoo://system/info`` shows about the connection."""

    model_config = ConfigDict(frozen=True, defer_build=True)  # built on first use (issue 41)

    url: str
    database: str
    uid: int | None
    username: str | None
    odoo_version: str | None
    protocol: ProtocolName | None
    edition: str
    state: ConnectionState
    installed_modules: list[str]
