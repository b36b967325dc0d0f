"""ir.model, ir.model.fields and ir.model.access are Odoo's "Access Rights" models.

base/security/ir.model.access.csv (16.0 to 19.0): ``base.group_erp_manager`` may do
everything on them; ``base.group_user`` has a line granting nothing on ir.model and
ir.model.fields and none on ir.model.access. An ordinary user (demo) is refused all three
and learns its models from web's ``ir.model.get_available_models`` / ``display_name_for``.
"""

from __future__ import annotations

import pytest
from model_fixtures import make_call

from fake_odoo.demo import build_database, demo_uid
from fake_odoo.orm.exceptions import AccessError

ADMIN = 2
VERSIONS = ["16.0", "17.0", "19.0"]
LABELS = {"ir.model": "Models", "ir.model.fields": "Fields", "ir.model.access": "Model Access"}


def _refusal(label: str, model: str, major: int) -> str:
    # the wording of every ACL refusal of the fake (orm/access.py), Odoo's own; 17 names the
    # group "category/name" (err_xmlrpc_demo_unlink_user of batch 4)
    group = "Administration/Access Rights" if major <= 17 else "Access Rights"
    return (
        f"You are not allowed to access '{label}' ({model}) records.\n\n"
        f"This operation is allowed for the following groups:\n\t- {group}\n\n"
        "Contact your administrator to request access if necessary."
    )


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("model", sorted(LABELS))
def test_demo_user_may_not_read_the_access_rights_models(version: str, model: str) -> None:
    call = make_call(build_database(version=version))
    demo = demo_uid(int(version.split(".")[0]))
    with pytest.raises(AccessError) as refused:
        call(demo, model, "search_read", [], ["id"], limit=1)
    assert str(refused.value) == _refusal(LABELS[model], model, int(version.split(".")[0]))
    assert call(demo, model, "check_access_rights", "read", raise_exception=False) is False
    assert call(ADMIN, model, "search_read", [], ["id"], limit=1)


@pytest.mark.parametrize("version", VERSIONS)
def test_acl_lines_are_base_csv_ones(version: str) -> None:
    call = make_call(build_database(version=version))
    groups = {
        row["id"]: row["full_name"]
        for row in call(ADMIN, "res.groups", "search_read", [], ["full_name"])
    }
    perms = ["perm_read", "perm_write", "perm_create", "perm_unlink"]
    old = int(version.split(".")[0]) <= 17  # 17's group names (batch 4)
    manager = "Administration / Access Rights" if old else "Access Rights"
    user = "User types / Internal User" if old else "Role / User"
    for model, expected in (
        ("ir.model", {manager: [True] * 4, user: [False] * 4}),
        ("ir.model.fields", {manager: [True] * 4, user: [False] * 4}),
        ("ir.model.access", {manager: [True] * 4}),
    ):
        lines = call(
            ADMIN, "ir.model.access", "search_read", [["model_id.model", "=", model]],
            ["group_id", *perms],
        )  # fmt: skip
        found = {groups[line["group_id"][0]]: [line[p] for p in perms] for line in lines}
        assert found == expected, model


@pytest.mark.parametrize("version", VERSIONS)
def test_get_available_models_lists_what_the_user_may_read(version: str) -> None:
    major = int(version.split(".")[0])
    call = make_call(build_database(version=version))
    demo = demo_uid(major)
    available = call(demo, "ir.model", "get_available_models")
    assert all(set(entry) == {"display_name", "model"} for entry in available)
    names = [entry["model"] for entry in available]
    assert names == sorted(names)
    assert {"res.partner", "sale.order", "account.move"} <= set(names)
    assert not {"ir.config_parameter", "ir.model"} & set(names)
    # 17's demo user is also Invoicing / Billing (flow_demo_user_permissions of batch 4)
    assert ("account.payment" in names) == (major == 17)
    assert {"display_name": "Contact", "model": "res.partner"} in available
    everything = call(ADMIN, "ir.model", "search_read", [], ["model", "transient"])
    transient = {row["model"] for row in everything if row["transient"]}
    for model in {row["model"] for row in everything}:
        readable = call(demo, model, "check_access_rights", "read", raise_exception=False)
        # 17.0's _check_model_access keeps the wizards; 18.0's model selector leaves them out
        expected = readable and (major < 18 or model not in transient)
        assert (model in names) == expected, model


def test_get_available_models_gives_nothing_to_a_portal_user() -> None:
    call = make_call(build_database(version="19.0"))
    portal = call(ADMIN, "res.users", "search", [["login", "=", "portal"]])[0]
    assert call(portal, "ir.model", "get_available_models") == []


@pytest.mark.parametrize("version", VERSIONS)
def test_display_name_for_hides_what_the_user_may_not_read(version: str) -> None:
    call = make_call(build_database(version=version))
    demo = demo_uid(int(version.split(".")[0]))
    asked = ["sale.order", "ir.config_parameter", "no.such.model", "res.partner"]
    assert call(demo, "ir.model", "display_name_for", asked) == [
        {"display_name": "Contact", "model": "res.partner"},
        {"display_name": "Sales Order", "model": "sale.order"},
        {"display_name": "ir.config_parameter", "model": "ir.config_parameter"},
        {"display_name": "no.such.model", "model": "no.such.model"},
    ]
    admin = call(ADMIN, "ir.model", "display_name_for", ["ir.config_parameter"])
    assert admin == [{"display_name": "System Parameter", "model": "ir.config_parameter"}]
