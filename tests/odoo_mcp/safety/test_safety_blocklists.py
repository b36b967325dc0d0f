"""SPEC-11 §2-5: model, field and method lists, and the policy that applies them."""

from __future__ import annotations

import pytest

from odoo_mcp.safety import (
    DEFAULT_FIELD_BLOCKLIST,
    DEFAULT_METHOD_BLOCKLIST,
    DEFAULT_MODEL_BLOCKLIST,
    Mode,
    Operation,
    SafetyError,
    SafetyPolicy,
)
from odoo_mcp.safety.annotations import CHANGES, DELETES
from odoo_mcp.safety.blocklists import FieldFilter, ModelFilter

SPEC_MODELS = {
    "ir.config_parameter", "ir.cron", "base.automation", "ir.rule", "ir.model.access",
    "res.users", "ir.mail_server", "fetchmail.server", "payment.provider",
    "ir.access",  # Odoo 20's access model (replaces ir.model.access and ir.rule)
}  # fmt: skip


def test_default_lists_hold_the_spec_names() -> None:
    assert DEFAULT_MODEL_BLOCKLIST == SPEC_MODELS
    assert len(DEFAULT_FIELD_BLOCKLIST) == 9
    assert {"password", "api_key", "totp_secret", "signature"} <= DEFAULT_FIELD_BLOCKLIST
    assert len(DEFAULT_METHOD_BLOCKLIST) == 9
    assert {"sudo", "with_context", "module_uninstall"} <= DEFAULT_METHOD_BLOCKLIST


@pytest.mark.parametrize("model", sorted(SPEC_MODELS - {"res.users"} | {"res.users.apikeys"}))
def test_default_blocked_models_are_unreachable(model: str) -> None:
    with pytest.raises(SafetyError) as caught:
        SafetyPolicy(mode=Mode.FULL).check_operation(Operation.READ, model)
    assert caught.value.code == "MODEL_BLOCKED"


def test_the_defaults_apply_on_top_of_an_allowlist() -> None:
    models = ModelFilter(allowlist=["res.partner", "ir.cron"])
    assert models.is_readable("res.partner")
    assert not models.is_readable("ir.cron")
    assert not models.is_readable("sale.order")


def test_a_user_blocklist_adds_to_the_defaults() -> None:
    models = ModelFilter(blocklist=["hr.employee"])
    assert not models.is_readable("hr.employee")
    assert not models.is_readable("ir.cron")
    assert models.is_readable("res.partner")


def test_allowlist_refusal_suggests_the_allowed_models() -> None:
    with pytest.raises(SafetyError) as caught:
        ModelFilter(allowlist=["res.partner", "sale.order"]).check_read("crm.lead")
    assert caught.value.suggestion == "Allowed models: res.partner, sale.order"


@pytest.mark.parametrize("mode", list(Mode))
def test_res_users_is_readable_but_never_written(mode: Mode) -> None:
    policy = SafetyPolicy(mode=mode, write_allowlist=["res.users"])
    policy.check_operation(Operation.READ, "res.users")
    policy.check_execute("res.users", "search_read")
    for operation in (Operation.CREATE, Operation.WRITE, Operation.UNLINK):
        with pytest.raises(SafetyError):
            policy.check_operation(operation, "res.users")
    with pytest.raises(SafetyError):
        policy.check_execute("res.users", "action_reset_password")


def test_res_users_reads_stop_when_the_user_blocks_it() -> None:
    with pytest.raises(SafetyError):
        SafetyPolicy(model_blocklist=["res.users"]).check_operation(Operation.READ, "res.users")


def test_mode_is_checked_before_the_model() -> None:
    with pytest.raises(SafetyError) as caught:
        SafetyPolicy().check_operation(Operation.WRITE, "ir.cron")
    assert caught.value.code == "MODE_VIOLATION"


@pytest.mark.parametrize("method", ["_compute_name", "__init__", "sudo", "with_user", "wipe"])
def test_private_and_blocked_methods_are_refused(method: str) -> None:
    policy = SafetyPolicy(mode=Mode.FULL, method_blocklist=["wipe"])
    with pytest.raises(SafetyError) as caught:
        policy.check_execute("res.partner", method)
    assert caught.value.code == "METHOD_BLOCKED"


def test_readonly_execute_accepts_only_read_methods() -> None:
    policy = SafetyPolicy()
    policy.check_execute("res.partner", "name_search")
    policy.check_execute("sale.order", "read_group")
    with pytest.raises(SafetyError, match="readonly"):
        policy.check_execute("sale.order", "action_confirm")


def test_restricted_execute_filters_write_methods_by_the_allowlist() -> None:
    policy = SafetyPolicy(mode=Mode.RESTRICTED, write_allowlist=["sale.order"])
    policy.check_execute("sale.order", "action_confirm")
    policy.check_execute("account.move", "search_count")
    with pytest.raises(SafetyError):
        policy.check_execute("account.move", "action_post")
    with pytest.raises(SafetyError, match="Delete"):
        policy.check_execute("sale.order", "unlink")


@pytest.mark.parametrize(
    "path", ["password", "partner_id.api_key", "user_ids.totp_secret", "x.y.signature"]
)
def test_a_path_naming_a_blocked_field_is_blocked(path: str) -> None:
    policy = SafetyPolicy()
    assert policy.is_field_blocked("res.partner", path)
    assert policy.is_path_blocked("res.partner", path)


def test_a_path_through_a_blocked_model_is_blocked() -> None:
    relations = {("res.partner", "user_id"): "res.users", ("res.users", "api_key_ids"): "x"}
    relations[("res.partner", "cron_id")] = "ir.cron"
    policy = SafetyPolicy()

    def lookup(model: str, field: str) -> str | None:
        return relations.get((model, field))

    assert not policy.is_path_blocked("res.partner", "user_id.login", lookup)
    assert policy.is_path_blocked("res.partner", "cron_id.code", lookup)
    assert not policy.is_path_blocked("res.partner", "parent_id.name", lookup)


def test_user_field_blocklist_adds_to_the_defaults() -> None:
    fields = FieldFilter(["vat"])
    assert fields.is_field_blocked("res.partner", "vat")
    assert fields.is_field_blocked("res.partner", "password")
    assert not fields.is_field_blocked("res.partner", "name")


def test_blocked_fields_are_dropped_from_fields_get_and_records() -> None:
    policy = SafetyPolicy(field_blocklist=["vat"])
    described: dict[str, object] = {"name": {}, "vat": {}, "signature": {}, "email": {}}
    assert set(policy.strip_fields_get("res.partner", described)) == {"name", "email"}
    record = {"id": 1, "name": "A", "password": "x", "vat": "BE1"}
    assert policy.strip_record("res.users", record) == {"id": 1, "name": "A"}


def test_requested_blocked_fields_are_refused() -> None:
    with pytest.raises(SafetyError) as caught:
        SafetyPolicy().check_read_fields("res.users", ["name", "password", "api_key_ids"])
    assert caught.value.code == "FIELD_BLOCKED"
    assert caught.value.details["fields"] == ["password", "api_key_ids"]


def test_blocked_fields_in_values_are_refused_even_nested() -> None:
    policy = SafetyPolicy(mode=Mode.FULL)
    policy.check_values("res.partner", {"name": "A", "child_ids": [(0, 0, {"name": "B"})]})
    with pytest.raises(SafetyError, match="'signature'"):
        policy.check_values("res.partner", {"name": "A", "signature": "<p>x</p>"})
    with pytest.raises(SafetyError, match="'password'"):
        policy.check_values("res.partner", {"child_ids": [[0, 0, {"password": "x"}]]})


@pytest.mark.parametrize(
    "order", ["password", "name asc, password desc", "partner_id.api_key", '"totp_secret" DESC']
)
def test_an_order_naming_a_blocked_field_is_refused(order: str) -> None:
    with pytest.raises(SafetyError) as caught:
        SafetyPolicy().check_order("res.users", order)
    assert caught.value.code == "FIELD_BLOCKED"


def test_an_ordinary_order_passes() -> None:
    SafetyPolicy().check_order("res.partner", "name asc, id desc nulls last")
    SafetyPolicy().check_order("res.partner", None)


def test_safety_errors_carry_the_spec_10_fields() -> None:
    with pytest.raises(SafetyError) as caught:
        SafetyPolicy().check_operation(Operation.CREATE, "res.partner")
    error = caught.value
    assert (error.category, error.retry) == ("access", False)
    assert error.suggestion and error.details["model"] == "res.partner"


def test_the_description_lists_defaults_and_user_lists() -> None:
    described = SafetyPolicy(mode=Mode.RESTRICTED, write_allowlist=["sale.order"]).describe()
    assert described["mode"] == "restricted"
    assert described["default_model_blocklist"] == sorted(SPEC_MODELS)
    assert described["extra_default_model_blocklist"] == ["res.users.apikeys"]
    assert described["write_allowlist"] == ["sale.order"]
    assert described["write_protected_models"] == ["res.users"]


def test_the_policy_lists_tools_by_mode() -> None:
    assert not SafetyPolicy().is_tool_visible("odoo_core_create", CHANGES)
    assert SafetyPolicy(mode=Mode.FULL).is_tool_visible("odoo_core_unlink", DELETES)
    assert not SafetyPolicy().is_model_readable("ir.rule")
