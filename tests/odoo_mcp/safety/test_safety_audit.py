"""SPEC-11 §8: the JSONL audit log, never with secrets, binaries or read payloads."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odoo_mcp.safety import AuditLogger, AuditSettings, Operation, sanitize
from odoo_mcp.safety.audit import BINARY, REDACTED

FIELDS = {
    "timestamp", "session_id", "tool", "model", "operation", "values", "result_id",
    "success", "duration_ms", "odoo_uid",
}  # fmt: skip
SECRET_KEYS = [
    "password", "ODOO_PASSWORD", "api_key", "apiKey", "x-api-key", "access_token",
    "client_secret", "totp_secret", "oauth_access_token", "Authorization", "private_key",
    "new_passwd", "signature", "key",
]  # fmt: skip
FIXED = datetime(2025, 2, 9, 14, 30, 0, 123000, tzinfo=UTC)


def logger(path: Path, **changes: object) -> AuditLogger:
    options: dict[str, object] = {"enabled": True, "log_file": path, **changes}
    return AuditLogger(AuditSettings(**options), clock=lambda: FIXED)  # type: ignore[arg-type]


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_create_is_one_line_with_the_spec_fields(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    logger(log).record(
        session_id="s1", tool="odoo_core_create", model="res.partner",
        operation=Operation.CREATE, values={"values": {"name": "A"}}, success=True,
        duration_ms=12.6, odoo_uid=2, result_id=42,
    )  # fmt: skip
    [entry] = lines(log)
    assert set(entry) == FIELDS
    assert entry["timestamp"] == "2025-02-09T14:30:00.123Z"
    assert (entry["result_id"], entry["duration_ms"], entry["odoo_uid"]) == (42, 13, 2)
    assert entry["values"] == {"values": {"name": "A"}}


def test_reads_are_off_by_default_and_keep_only_selectors(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    args = {"domain": [["name", "=", "A"]], "ids": [1], "records": [{"id": 1}], "fields": ["x"]}
    common: dict[str, Any] = {"session_id": "s", "tool": "odoo_core_read", "model": "res.partner"}
    assert logger(log).record(**common, operation=Operation.READ, values=args, success=True,
                              duration_ms=1, odoo_uid=2) is None  # fmt: skip
    logger(log, log_reads=True).record(
        **common, operation=Operation.READ, values=args, success=True, duration_ms=1, odoo_uid=2,
        result_id=7,
    )  # fmt: skip
    [entry] = lines(log)
    assert entry["values"] == {"domain": [["name", "=", "A"]], "ids": [1], "fields": ["x"]}
    assert entry["result_id"] is None


@pytest.mark.parametrize(
    ("operation", "flags", "logged"),
    [
        (Operation.UNLINK, {"log_deletes": False}, False),
        (Operation.UNLINK, {}, True),
        (Operation.WRITE, {"log_writes": False}, False),
        (Operation.EXECUTE, {}, True),
        (Operation.SEARCH, {"log_reads": True}, True),
        (Operation.WRITE, {"enabled": False}, False),
    ],
)
def test_the_flags_choose_what_is_logged(
    tmp_path: Path, operation: Operation, flags: dict[str, bool], logged: bool
) -> None:
    assert logger(tmp_path / "a.jsonl", **flags).should_log(operation) is logged


def test_binary_contents_become_a_marker_with_the_name_kept() -> None:
    blob = "QUJD" * 200
    values = {"datas": "aGVsbG8=", "image_1920": blob, "note": blob, "raw": b"\x00\x01",
              "attachment": "x"}  # fmt: skip
    clean = sanitize(values, binary_keys=["attachment"])
    assert clean == {"datas": BINARY, "image_1920": BINARY, "note": BINARY, "raw": BINARY,
                     "attachment": BINARY}  # fmt: skip


def test_a_domain_on_a_secret_field_hides_its_value() -> None:
    clean = sanitize({"domain": [["password", "=", "hunter2"], ["name", "=", "A"]]})
    assert clean == {"domain": [["password", "=", REDACTED], ["name", "=", "A"]]}


_secret = st.text(alphabet="abcdefXYZ0123456789", min_size=4, max_size=20).map(
    lambda s: "S3CR3T" + s
)
_plain_key = st.sampled_from(["name", "email", "partner_id", "ids", "note", "state"])
_plain = st.one_of(st.integers(), st.booleans(), st.none(), st.sampled_from(["a", "b", "draft"]))
_tree = st.recursive(
    st.dictionaries(st.sampled_from(SECRET_KEYS), _secret, min_size=1, max_size=3),
    lambda children: st.one_of(
        st.dictionaries(_plain_key, st.one_of(children, _plain), max_size=3),
        st.lists(children, max_size=3),
        st.dictionaries(st.sampled_from(SECRET_KEYS), children, max_size=2),
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(values=st.dictionaries(st.sampled_from([*SECRET_KEYS, "values", "domain"]), _tree))
def test_no_secret_value_ever_reaches_an_audit_line(values: dict[str, object]) -> None:
    written: list[str] = []
    audit = AuditLogger(AuditSettings(enabled=True), clock=lambda: FIXED)
    audit._write = written.append  # type: ignore[method-assign,assignment]
    audit.record(
        session_id="s", tool="odoo_core_write", model="res.partner", operation=Operation.WRITE,
        values=values, success=True, duration_ms=1, odoo_uid=2,
    )  # fmt: skip
    assert "S3CR3T" not in "".join(written)


def test_blocked_field_names_given_as_secrets_are_redacted() -> None:
    assert sanitize({"vat": "BE123"}, secret_keys=["vat"]) == {"vat": REDACTED}


def test_concurrent_records_never_interleave(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    audit = logger(log)

    def work(n: int) -> None:
        for i in range(50):
            audit.record(
                session_id=f"s{n}", tool="odoo_core_write", model="res.partner",
                operation=Operation.WRITE, values={"note": "x" * 2000, "i": i}, success=True,
                duration_ms=1, odoo_uid=2,
            )  # fmt: skip

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(lines(log)) == 400


def test_an_unwritable_file_is_logged_not_raised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    audit = logger(tmp_path / "missing" / "audit.jsonl")
    audit.record(session_id=None, tool="odoo_core_unlink", model="res.partner",
                 operation=Operation.UNLINK, values={"ids": [1]}, success=False, duration_ms=0,
                 odoo_uid=None)  # fmt: skip
    assert "audit log" in caplog.text


def test_without_a_file_lines_go_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    AuditLogger(AuditSettings(enabled=True)).record(
        session_id="s", tool="odoo_core_unlink", model="res.partner", operation=Operation.UNLINK,
        values={"ids": [1]}, success=True, duration_ms=0, odoo_uid=2,
    )  # fmt: skip
    captured = capsys.readouterr()
    assert captured.out == ""
    assert json.loads(captured.err)["tool"] == "odoo_core_unlink"


def test_a_log_file_that_cannot_be_opened_for_appending_is_a_start_up_problem(
    tmp_path: Path,
) -> None:
    """REQ-11-22/29: checked once at start-up, with the OS's reason; nothing to check when off."""
    missing = tmp_path / "no-such-dir" / "audit.jsonl"
    assert AuditSettings(enabled=True, log_file=missing).file_problem() == (
        f"cannot open {missing} for appending (No such file or directory)"
    )
    assert AuditSettings(enabled=True, log_file=tmp_path).file_problem() == (
        f"cannot open {tmp_path} for appending (Is a directory)"
    )
    assert AuditSettings(enabled=False, log_file=missing).file_problem() is None
    assert AuditSettings(enabled=True).file_problem() is None  # stderr


def test_a_writable_log_file_passes_the_check_and_keeps_its_records(tmp_path: Path) -> None:
    """REQ-11-22: the start-up check appends nothing and creates the file owner-only."""
    log = tmp_path / "audit.jsonl"
    assert AuditSettings(enabled=True, log_file=log).file_problem() is None
    assert log.read_bytes() == b"" and log.stat().st_mode & 0o777 == 0o600
    log.write_text('{"kept": true}\n', encoding="utf-8")
    assert AuditSettings(enabled=True, log_file=log).file_problem() is None
    assert lines(log) == [{"kept": True}]
