"""SPEC-11 §8: the JSONL audit log of tool invocations (REQ-11-22..24).

One JSON object per line, appended with a single ``write`` on an ``O_APPEND`` descriptor under a
lock, so concurrent calls (threads, tasks, even processes) never interleave lines. The file is
opened per line, so an external ``logrotate`` (move + create) needs no signal; the spec defines
no rotation of its own. Without a log file the lines go to stderr (stdout is the MCP stream).
A line never holds a blocked field's value (issue 37): the values go through the call's
:class:`~odoo_mcp.safety.scrub.Redaction` before the secrets and binaries are replaced.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from pydantic import BaseModel, ConfigDict

from odoo_mcp.safety.modes import Operation
from odoo_mcp.safety.scrub import DEFAULT_REDACTION, Redaction

__all__ = ["REDACTED", "AuditLogger", "AuditRecord", "AuditSettings", "sanitize"]

logger = logging.getLogger(__name__)

REDACTED: Final = "[redacted]"
BINARY: Final = "[binary omitted]"
_SECRET_KEY = re.compile(
    r"pass(wd|word)?|pwd|secret|token|api[-_]?key|apikey|private[-_]?key|credential|authoriz"
    r"|cookie|totp|otp$|^key$|_key$|signature|bearer",
    re.IGNORECASE,
)
_BINARY_KEY = re.compile(r"^(db_)?datas$|^image(_\d+)?$|_image(_\d+)?$|^avatar(_\d+)?$|_binary$")
_BASE64 = re.compile(r"^[A-Za-z0-9+/\s]+={0,2}$")
_LONG_BASE64 = 256
#: REQ-11-24: of a read, only what selects the records is logged, never the payload.
_READ_ARGUMENTS: Final = frozenset(
    {"domain", "ids", "fields", "limit", "offset", "order", "method", "filter"}
)


@dataclass(frozen=True, slots=True)
class AuditSettings:
    """REQ-11-22: enabled, log_file, and which kinds of calls are logged."""

    enabled: bool = False
    log_file: Path | None = None
    log_reads: bool = False
    log_writes: bool = True
    log_deletes: bool = True

    def file_problem(self) -> str | None:
        """REQ-11-22, REQ-11-29: why the log file cannot take records, or None.

        Checked at start-up by opening it as every record does (append, created if missing,
        owner-only): a file the server cannot write would otherwise lose every record, each
        with a log line nobody reads, while the tool calls go on."""
        if not self.enabled or self.log_file is None:
            return None
        try:
            os.close(os.open(self.log_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600))
        except OSError as exc:
            return f"cannot open {self.log_file} for appending ({exc.strerror or exc})"
        return None


class AuditRecord(BaseModel):
    """REQ-11-23: the fields of one audit line."""

    model_config = ConfigDict(frozen=True, defer_build=True)  # built on first use (issue 41)

    timestamp: str
    session_id: str | None
    tool: str
    model: str | None
    operation: str
    values: object
    result_id: int | list[int] | None
    success: bool
    duration_ms: int
    odoo_uid: int | None


def sanitize(
    value: object,
    secret_keys: Iterable[str] = (),
    binary_keys: Iterable[str] = (),
    redaction: Redaction | None = None,
) -> object:
    """REQ-11-24: secrets redacted, binary contents replaced by a marker, keys kept;
    REQ-11-14 (issue 37): with a ``redaction``, blocked fields' values replaced first."""
    if redaction is not None:
        value = redaction.arguments(value)
    secrets = frozenset(secret_keys)
    binaries = frozenset(binary_keys)

    def walk(item: object) -> object:
        if isinstance(item, bytes | bytearray | memoryview):
            return BINARY
        if isinstance(item, str):
            if len(item) >= _LONG_BASE64 and _BASE64.match(item):
                return BINARY
            return item
        if isinstance(item, Mapping):
            return {str(k): member(str(k), v) for k, v in item.items()}
        if isinstance(item, list | tuple):
            # a domain leaf on a secret-looking field: [field, operator, value]
            if len(item) == 3 and isinstance(item[0], str) and _is_secret(item[0], secrets):
                return [item[0], walk(item[1]), REDACTED]
            return [walk(v) for v in item]
        if item is None or isinstance(item, bool | int | float):
            return item
        return repr(type(item).__name__)

    def member(key: str, item: object) -> object:
        if _is_secret(key, secrets):
            return REDACTED
        if key in binaries or _BINARY_KEY.search(key):
            return BINARY if item not in (None, False, "") else item
        return walk(item)

    return walk(value)


def _is_secret(key: str, secrets: frozenset[str]) -> bool:
    return key in secrets or key.split(".")[-1] in secrets or bool(_SECRET_KEY.search(key))


class AuditLogger:
    """REQ-11-22: when enabled, every tool invocation of a logged kind becomes one line."""

    def __init__(
        self,
        settings: AuditSettings,
        *,
        secret_keys: Iterable[str] = (),
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.settings = settings
        self._secret_keys = frozenset(secret_keys)
        self._clock = clock
        self._lock = threading.Lock()

    def should_log(self, operation: Operation) -> bool:
        """REQ-11-22: log_reads, log_writes and log_deletes choose what is logged."""
        if not self.settings.enabled:
            return False
        if operation in (Operation.READ, Operation.SEARCH):
            return self.settings.log_reads
        if operation is Operation.UNLINK:
            return self.settings.log_deletes
        return self.settings.log_writes

    def record(
        self,
        *,
        session_id: str | None,
        tool: str,
        model: str | None,
        operation: Operation,
        values: Mapping[str, object],
        success: bool,
        duration_ms: float,
        odoo_uid: int | None,
        result_id: int | list[int] | None = None,
        binary_fields: Iterable[str] = (),
        redaction: Redaction | None = None,
    ) -> AuditRecord | None:
        """REQ-11-23: write one JSONL line with the spec's fields; returns what was written.

        REQ-11-24 (issue 37): the values of blocked fields are replaced through the call's
        ``redaction`` (the built-in field blocklist without one), a refused call's too."""
        if not self.should_log(operation):
            return None
        if operation in (Operation.READ, Operation.SEARCH):
            values = {k: v for k, v in values.items() if k in _READ_ARGUMENTS}
        entry = AuditRecord(
            timestamp=self._clock().astimezone(UTC).isoformat(timespec="milliseconds")[:-6] + "Z",
            session_id=session_id,
            tool=tool,
            model=model,
            operation=operation.value,
            values=sanitize(
                values, self._secret_keys, binary_fields, redaction or DEFAULT_REDACTION
            ),
            result_id=result_id if operation is Operation.CREATE else None,
            success=success,
            duration_ms=max(0, round(duration_ms)),
            odoo_uid=odoo_uid,
        )
        self._write(json.dumps(entry.model_dump(), ensure_ascii=False, default=str) + "\n")
        return entry

    def _write(self, line: str) -> None:
        data = line.encode("utf-8")
        with self._lock:
            path = self.settings.log_file
            if path is None:
                sys.stderr.write(line)
                sys.stderr.flush()
                return
            try:
                fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                try:
                    os.write(fd, data)
                finally:
                    os.close(fd)
            except OSError as exc:
                # The tool call already happened; losing the line is reported, not raised.
                logger.error("audit log %s not written: %s", path, exc)
