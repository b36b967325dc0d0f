"""SPEC-07 static registry file: loading (REQ-07-08), the merge with live Odoo (REQ-07-14/15),
and the model resources it backs (REQ-07-20); decision 8's purchase.order table."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from mcp import Client

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server
from odoo_mcp.cli import EXIT_CONFIG, main
from odoo_mcp.config import ConfigError
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.registry import FieldInfo, ModelRegistry
from odoo_mcp.registry.static import load_static_registry
from odoo_mcp.registry.workflows import workflow_for

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "registry" / "static_registry.json"


# -- REQ-07-08: the file ------------------------------------------------------------------------


@pytest.mark.req("REQ-07-08")
def test_the_example_file_loads() -> None:
    static = load_static_registry(FIXTURE)
    assert static is not None
    assert (static.version, static.generator_version, static.source) == (
        "19.0",
        "1.0.0",
        "ast_parse",
    )
    order = static.models["sale.order"]
    assert order.has_chatter and order.parent_models[0] == "mail.thread"
    assert order.fields["partner_id"].relation == "res.partner"
    assert order.methods["action_confirm"].accepts_kwargs is False
    assert order.states is not None and ("done", "Locked") in order.states
    assert load_static_registry(None) is None and load_static_registry("") is None


@pytest.mark.req("REQ-07-08")
@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "cannot be read"),
        ("{not json", "not JSON"),
        (json.dumps({"version": "19.0", "generated_at": "x", "generator_version": "1"}),
         "models: Field required"),
        (json.dumps({"version": "19.0", "generated_at": "x", "generator_version": "1",
                     "models": {"sale.order": {"fields": {"name": {"label": "Name"}}}}}),
         "models.sale.order.fields.name.type: Field required"),
    ],
)  # fmt: skip
def test_a_bad_file_is_a_start_up_error_naming_path_and_problem(
    tmp_path: Path, content: str | None, problem: str
) -> None:
    path = tmp_path / "registry.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ConfigError) as raised:
        load_static_registry(path)
    (message,) = raised.value.problems
    assert message.startswith(f"static_registry_path {path}: ") and problem in message


@pytest.mark.req("REQ-07-08")
def test_the_server_does_not_build_with_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.json"
    with pytest.raises(ConfigError, match="static_registry_path"):
        fake_server(FakeOdoo("19.0"), static_registry_path=str(path))


# -- REQ-07-14/15: the merge --------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.req("REQ-07-14", "REQ-07-15", "REQ-07-01")
async def test_live_wins_on_fields_and_the_file_fills_what_odoo_does_not_say(
    manager: ConnectionManager, caplog: pytest.LogCaptureFixture
) -> None:
    registry = ModelRegistry(manager, static=load_static_registry(FIXTURE))
    with caplog.at_level(logging.DEBUG, logger="odoo_mcp.registry"):
        fields = await registry.get_fields("sale.order")
    partner = fields["partner_id"]
    assert partner.label == "Customer"  # live label, not the file's "Client"
    assert partner.groups == "base.group_user"  # only the file knows groups
    assert fields["name"].default == "New"
    total = fields["amount_total"]
    assert total.compute is True and "order_line.price_subtotal" in total.depends  # live's
    assert "x_legacy_ref" not in fields  # in the file, not in Odoo: left out
    assert "state" in fields  # live adds what the file lacks
    logged = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert any("sale.order.partner_id string: live 'Customer' wins" in m for m in logged)
    assert any("sale.order.x_legacy_ref is in the static file" in m for m in logged)


@pytest.mark.req("REQ-07-01")
def test_field_info_reads_depends_and_marks_computed_fields() -> None:
    total = FieldInfo.from_odoo("amount_total", {"type": "monetary", "depends": ["a.b", "c"]})
    plain = FieldInfo.from_odoo("name", {"type": "char", "depends": []})
    assert (total.depends, total.compute) == (("a.b", "c"), True)
    assert (plain.depends, plain.compute, plain.default, plain.groups) == ((), None, None, None)


@pytest.mark.anyio
@pytest.mark.req("REQ-07-14", "REQ-07-15", "REQ-07-20")
async def test_model_resources_merge_the_file() -> None:
    fake = FakeOdoo("19.0")
    server = fake_server(fake, static_registry_path=str(FIXTURE))
    async with Client(server, mode="legacy") as client:
        methods = await client.read_resource("odoo://model/sale.order/methods")
        states = await client.read_resource("odoo://model/sale.order/states")
    listed = {
        m["name"]: m
        for m in json.loads(methods.contents[0].text)["methods"]  # type: ignore[union-attr]
    }
    # the file wins for descriptions, the table's other methods stay, the file's extra is added
    assert listed["action_confirm"]["description"].startswith("Confirm the quotation; stock")
    assert listed["action_cancel"]["description"] == "Cancel the quotation or sales order"
    assert "action_preview_sale_order" in listed
    values = [s["value"] for s in json.loads(states.contents[0].text)["states"]]  # type: ignore[union-attr]
    assert values == ["draft", "sent", "sale", "cancel"]  # live Odoo 19, not the file's "done"


# -- decision 8: purchase.order -----------------------------------------------------------------


@pytest.mark.req("REQ-06-07", "REQ-06-08")
def test_purchase_order_has_methods_and_transitions() -> None:
    modern = workflow_for("purchase.order", 19)
    old = workflow_for("purchase.order", 16)
    assert modern is not None and old is not None
    names = {m.name for m in modern.methods}
    assert {"button_confirm", "button_approve", "button_cancel", "button_draft"} <= names
    moves = {(t.from_state, t.to_state): t.method for t in modern.transitions}
    assert moves[("draft", "purchase")] == "button_confirm"
    assert moves[("to approve", "purchase")] == "button_approve"
    assert moves[("cancel", "draft")] == "button_draft"
    # up to 17 locking is state done; from 18 it is a flag, as sale orders from 17
    assert ("purchase", "done") in {(t.from_state, t.to_state) for t in old.transitions}
    assert "done" not in {t.to_state for t in modern.transitions}
    assert "button_lock" in names and "button_done" not in names
    assert not any(m.accepts_kwargs for m in modern.methods)


@pytest.mark.req("REQ-07-08")
def test_serve_reports_a_bad_file_as_a_configuration_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "registry.json"
    bad.write_text("[]")
    environ = {
        "ODOO_URL": "http://127.0.0.1:9", "ODOO_DB": "demo", "ODOO_USERNAME": "admin",
        "ODOO_API_KEY": "k", "ODOO_MCP_STATIC_REGISTRY": str(bad),
    }  # fmt: skip
    assert main(["serve"], environ=environ) == EXIT_CONFIG
    err = capsys.readouterr().err
    assert f"  - static_registry_path {bad}: " in err
