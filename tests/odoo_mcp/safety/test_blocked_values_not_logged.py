"""Issue 37 (item 6), REQ-11-14/24, REQ-10-19: a blocked field's value is written nowhere.

With ``email`` blocked and the audit log on, every call that carries an e-mail address under a
blocked name (refused values, domains, context keys, execute args and kwargs, a name search
that would match the blocked field) leaves the address in no audit line, no log record of any
``odoo_mcp`` logger at any level (message nor args), and no part of what the client receives
(the SPEC-10 error object, structured content, MCP log messages). One in-process server.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.types import LoggingMessageNotificationParams
from pydantic import BaseModel

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_config, fake_connection, fake_server
from odoo_mcp.adapter.server import build_server
from odoo_mcp.context import ServerContext
from odoo_mcp.errors import ErrorCategory, ErrorResponse, log_error, sanitize_args
from odoo_mcp.errors.log import redact_response
from odoo_mcp.safety import AuditLogger, AuditSettings, Operation
from odoo_mcp.safety.annotations import CHANGES
from odoo_mcp.safety.scrub import BLOCKED_VALUE, Redaction
from odoo_mcp.tools.spec import ToolSpec
from odoo_mcp.toolsets import AnySpec, BaseToolset, ToolsetMetadata

pytestmark = pytest.mark.anyio

MARKER = "leak-1a2b@example.com"
LEAF = ["email", "=", MARKER]
PARTNER = "res.partner"

#: (tool, arguments): each one carries MARKER as a blocked value, in another form
CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "create values": ("odoo_core_create", {"model": PARTNER, "values": {"email": MARKER}}),
    "write values": (
        "odoo_core_write",
        {"model": PARTNER, "ids": [7], "values": {"email": MARKER}},
    ),
    "write x2many command": (
        "odoo_core_write",
        {"model": PARTNER, "ids": [7], "values": {"child_ids": [[0, 0, {"email": MARKER}]]}},
    ),
    "search_read domain": ("odoo_core_search_read", {"model": PARTNER, "domain": [LEAF]}),
    "search_read dotted path": (
        "odoo_core_search_read",
        {"model": "sale.order", "domain": [["partner_id.email", "=", MARKER]]},
    ),
    "search_read JSON-text domain": (
        "odoo_core_search_read",
        {"model": PARTNER, "domain": json.dumps([LEAF])},
    ),
    "search_read display_name": (
        "odoo_core_search_read",
        {"model": PARTNER, "domain": [["display_name", "ilike", MARKER]]},
    ),
    "search_read name search through a relation": (
        "odoo_core_search_read",
        {"model": "sale.order", "domain": [["partner_id", "ilike", MARKER]]},
    ),
    "search_read display_name through a relation": (
        "odoo_core_search_read",
        {"model": "sale.order", "domain": [["partner_id.display_name", "ilike", MARKER]]},
    ),
    "search_read default_ context": (
        "odoo_core_search_read",
        {"model": PARTNER, "domain": [], "context": {"default_email": MARKER}},
    ),
    "count domain": ("odoo_core_count", {"model": PARTNER, "domain": [LEAF]}),
    "execute search args": (
        "odoo_core_execute",
        {"model": PARTNER, "method": "search", "args": [[LEAF]]},
    ),
    "execute search_count kwargs": (
        "odoo_core_execute",
        {"model": PARTNER, "method": "search_count", "kwargs": {"domain": [LEAF]}},
    ),
    "execute read_group": (
        "odoo_core_execute",
        {"model": PARTNER, "method": "read_group", "args": [[LEAF], ["name"], ["name"]]},
    ),
    "execute name_search domain": (
        "odoo_core_execute",
        {
            "model": "sale.order",
            "method": "name_search",
            "kwargs": {"domain": [["partner_id.email", "=", MARKER]]},
        },
    ),
    "execute name_search text": (
        "odoo_core_execute",
        {"model": PARTNER, "method": "name_search", "kwargs": {"name": MARKER}},
    ),
    "execute name_search positional": (
        "odoo_core_execute",
        {"model": PARTNER, "method": "name_search", "args": [MARKER]},
    ),
    "execute create vals_list": (
        "odoo_core_execute",
        {"model": PARTNER, "method": "create", "kwargs": {"vals_list": [{"email": MARKER}]}},
    ),
    "execute write args": (
        "odoo_core_execute",
        {"model": PARTNER, "method": "write", "args": [[7], {"email": MARKER}]},
    ),
    "execute default_ context": (
        "odoo_core_execute",
        {
            "model": PARTNER,
            "method": "create",
            "args": [{"name": "X"}],
            "context": {"default_email": MARKER},
        },
    ),
}


#: refused by the tool's input model, before the dispatcher runs (and audits) the tool
NOT_RUN = frozenset({"search_read JSON-text domain"})


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # module scope: one server and client for every call below


@pytest.fixture(scope="module")
def audit_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("audit") / "audit.jsonl"


@pytest.fixture(scope="module")
async def session(audit_file: Path) -> AsyncIterator[tuple[Client, list[Any]]]:
    received: list[Any] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        received.append(params.model_dump(mode="json"))

    server = fake_server(
        FakeOdoo("19.0"),
        field_blocklist="email",
        mode="full",
        audit_enabled=True,
        audit_log_reads=True,
        audit_log_file=str(audit_file),
    )
    async with Client(server, mode="legacy", logging_callback=on_log) as client:
        with pytest.warns(MCPDeprecationWarning):
            await client.set_logging_level("debug")
        yield client, received


@pytest.mark.parametrize("name", list(CALLS))
async def test_a_blocked_value_reaches_no_log_audit_line_or_answer(
    name: str,
    session: tuple[Client, list[Any]],
    audit_file: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    client, client_logs = session
    tool, arguments = CALLS[name]
    caplog.set_level(logging.DEBUG, logger="odoo_mcp")
    audit_before = audit_file.stat().st_size if audit_file.exists() else 0
    del client_logs[:]
    try:
        result = await client.call_tool(tool, arguments)
        answer = result.model_dump_json()
        refused = result.is_error
    except MCPError as exc:  # a JSON-RPC error: its message and SPEC-10 data
        answer, refused = json.dumps([str(exc), exc.error.model_dump(mode="json")]), True
    assert refused, f"{name}: the premise is a refused call, got {answer}"
    assert MARKER not in answer
    assert MARKER not in json.dumps(client_logs)
    records = [r for r in caplog.records if r.name.startswith("odoo_mcp")]
    assert records, "the refusal is logged (REQ-10-19): the check below is not vacuous"
    for record in records:
        assert MARKER not in record.getMessage(), record.getMessage()
        assert MARKER not in repr(record.args) and MARKER not in repr(record.__dict__)
    with audit_file.open("rb") as audit:
        audit.seek(audit_before)
        lines = audit.read().decode()
    # one audit line per call (so the check is not vacuous), but for arguments the input
    # model refuses: the tool never runs (REQ-04a-13)
    assert lines.count("\n") == (name not in NOT_RUN), lines
    assert MARKER not in lines


# -- the one redaction, and the texts Odoo may echo a value in --------------------------------

BLOCKED = frozenset({"email"})


def test_the_redaction_finds_every_form_by_field_name() -> None:
    arguments = {
        "values": {"email": MARKER, "name": "Kept"},
        "vals_list": [{"email": MARKER + "2"}],
        "domain": ["|", ("partner_id.email", "ilike", "x" + MARKER),
                   ["partner_id", "any", [["email", "=", MARKER + "3"]]]],
        "context": {"default_email": "d-" + MARKER, "search_default_email": "s-" + MARKER},
        "args": [json.dumps([["email", "=", "j-" + MARKER]])],
    }  # fmt: skip
    redaction = Redaction.of_call(arguments, BLOCKED)
    cleaned = redaction.arguments(arguments)
    assert MARKER not in json.dumps(cleaned)
    assert cleaned["values"] == {"email": BLOCKED_VALUE, "name": "Kept"}
    assert cleaned["domain"][1] == ["partner_id.email", "ilike", BLOCKED_VALUE]
    assert len(redaction.values) == 7
    # nothing blocked: the arguments are as they were
    assert Redaction.of_call({"domain": [["name", "=", MARKER]]}, BLOCKED).values == ()


def test_a_value_odoo_echoes_is_removed_from_the_answer_and_the_logs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    kwargs = {"model": PARTNER, "values": {"email": MARKER}}
    redaction = Redaction.of_call(kwargs, BLOCKED)
    response = ErrorResponse(
        category=ErrorCategory.VALIDATION,
        code="X",
        message=f"Invalid address '{MARKER}'",
        suggestion=f"Fix {MARKER}",
        details={"value": MARKER, "nested": [{"quoted": f'"{MARKER}"'}]},
        original_error=f"ValidationError: {MARKER}",
        traceback=f"Traceback ...\nValidationError: {MARKER}",
    )
    redacted = redact_response(response, redaction)
    assert MARKER not in redacted.model_dump_json() + str(redacted.traceback)
    assert redacted.message == f"Invalid address '{BLOCKED_VALUE}'"
    caplog.set_level(logging.DEBUG, logger="odoo_mcp")
    log_error(response, model=PARTNER, method="create", kwargs=kwargs, redaction=redaction)
    assert len(caplog.records) == 2 and MARKER not in caplog.text
    assert MARKER not in repr([r.__dict__ for r in caplog.records])


def test_without_the_servers_list_the_built_in_blocklist_is_redacted() -> None:
    """Fails closed: a caller that passes no redaction still hides the built-in fields."""
    audit_lines: list[str] = []
    audit = AuditLogger(AuditSettings(enabled=True))
    audit._write = audit_lines.append  # type: ignore[method-assign,assignment]
    audit.record(
        session_id="s", tool="odoo_core_write", model=PARTNER, operation=Operation.WRITE,
        values={"values": {"totp_enabled": MARKER}}, success=False, duration_ms=1, odoo_uid=2,
    )  # fmt: skip
    assert MARKER not in "".join(audit_lines)
    redaction = Redaction.of_call({"email": MARKER}, BLOCKED)
    assert sanitize_args({"email": MARKER}, redaction=redaction) == {"email": BLOCKED_VALUE}


# -- a server bug whose exception quotes the arguments -----------------------------------------


class _BuggyInput(BaseModel):
    model: str
    values: dict[str, Any]


async def _buggy(ctx: ServerContext, params: _BuggyInput) -> _BuggyInput:
    raise RuntimeError(f"cannot handle {params.values}")


class _Buggy(BaseToolset):
    name = "core"

    def metadata(self) -> ToolsetMetadata:
        return ToolsetMetadata(name="core", description="a tool with a bug (test)")

    def tools(self) -> tuple[AnySpec, ...]:
        return (
            ToolSpec(
                name="odoo_core_create", title="Bug", description="stub", input_model=_BuggyInput,
                result_model=_BuggyInput, handler=_buggy, hints=CHANGES, operation=Operation.CREATE,
            ),
        )  # fmt: skip


async def test_a_server_bug_quoting_a_blocked_value_logs_it_redacted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """REQ-10-16: -32603 with the traceback in the log, but not the value it quotes."""
    config = fake_config(field_blocklist="email", mode="full")
    server = build_server(config, fake_connection(config, FakeOdoo("19.0")), toolsets=[_Buggy()])
    caplog.set_level(logging.DEBUG, logger="odoo_mcp")
    async with Client(server, mode="legacy") as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool(
                "odoo_core_create", {"model": PARTNER, "values": {"email": MARKER}}
            )
    assert MARKER not in json.dumps([str(caught.value), caught.value.error.model_dump(mode="json")])
    assert "cannot handle {'email': '[blocked]'}" in caplog.text  # the traceback is logged
    assert MARKER not in caplog.text
