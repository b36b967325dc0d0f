"""Access control: ACLs per group (``ir.model.access``) and record rules (``ir.rule``).

A model's ``_access`` maps group xml ids to letters of "rwcu"; a user gets the
union over their groups, implied groups included.  Superuser (uid 1) and
``sudo()`` environments bypass both ACLs and rules, as in Odoo.  Messages are
Odoo 19's, e.g. "You are not allowed to delete 'User' (res.users) records.
...  - Access Rights ..." and the "top-secret records" record-rule refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fake_odoo.orm import domain as D
from fake_odoo.orm.exceptions import AccessError

if TYPE_CHECKING:
    from fake_odoo.orm.database import Environment
    from fake_odoo.orm.model import BaseModel

LETTER = {"read": "r", "write": "w", "create": "c", "unlink": "u"}
VERB = {"read": "access", "write": "modify", "create": "create", "unlink": "delete"}


def implied_closure(env: Environment, group_ids: set[int]) -> set[int]:
    """The groups plus every group they imply, transitively."""
    db = env.db
    todo = list(group_ids)
    seen: set[int] = set()
    while todo:
        gid = todo.pop()
        if gid in seen:
            continue
        seen.add(gid)
        row = db.row("res.groups", gid)
        if row is not None:
            todo.extend(row.get("implied_ids") or [])
    return seen


def user_group_ids(env: Environment, uid: int | None = None) -> set[int]:
    """The ids of the groups of a user, implied groups included."""
    db = env.db
    uid = env.uid if uid is None else uid
    user = db.row("res.users", uid) if "res.users" in db.store else None
    if user is None:
        return set()
    return implied_closure(env, set(user.get("group_ids") or user.get("groups_id") or []))


def user_groups(env: Environment, uid: int | None = None) -> set[str]:
    """The xml ids of the groups of a user, implied groups included."""
    xmlid_of = {rid: x for x, (m, rid) in env.db.xmlids.items() if m == "res.groups"}
    return {xmlid_of[g] for g in user_group_ids(env, uid) if g in xmlid_of}


def has_group(env: Environment, xmlid: str) -> bool:
    return xmlid in user_groups(env)


def check_acl(model: BaseModel, operation: str, raise_exception: bool = True) -> bool:
    """Whether the ACLs let the user do ``operation`` on the model; else AccessError."""
    env = model.env
    table = model._access
    if env.su or table is None:
        return True
    letter = LETTER[operation]
    groups = user_groups(env)
    for group, letters in table.items():
        if letter in letters and (group in ("", "*") or group in groups):
            return True
    if raise_exception:
        raise acl_error(model, operation)
    return False


def group_full_name(env: Environment, xmlid: str) -> str:
    group = env.ref(xmlid, raise_if_not_found=False)
    if not group:
        return xmlid
    # the groups model words it (17: "Administration/Access Rights", 19: its full name)
    named = getattr(group.sudo(), "_acl_name", None)
    return str(named() if named is not None else group.sudo().full_name or group.sudo().name)


def acl_error(model: BaseModel, operation: str) -> AccessError:
    letter = LETTER[operation]
    table = model._access or {}
    names = sorted(
        group_full_name(model.env, group)
        for group, letters in table.items()
        if letter in letters and group not in ("", "*")
    )
    message = (
        f"You are not allowed to {VERB[operation]} '{model.model_label()}' ({model._name}) "
        "records.\n\n"
    )
    if names:
        listing = "\n".join(f"\t- {name}" for name in names)
        message += f"This operation is allowed for the following groups:\n{listing}"
    else:
        message += "No group currently allows this operation."
    message += "\n\nContact your administrator to request access if necessary."
    return AccessError(message)


def rule_node(model: BaseModel, operation: str) -> D.Node | None:
    """The record-rule restriction of the user for ``operation`` (None = unrestricted)."""
    env = model.env
    if env.su or not model._rules:
        return None
    letter = LETTER[operation]
    groups = user_groups(env)
    global_nodes: list[D.Node] = []
    group_nodes: list[D.Node] = []
    for rule in model._rules:
        if letter not in rule.perms:
            continue
        if rule.groups and not set(rule.groups) & groups:
            continue
        raw: Any = rule.domain(env) if callable(rule.domain) else rule.domain
        node = D.TRUE if raw is None else D.parse(list(raw))
        (group_nodes if rule.groups else global_nodes).append(node)
    if group_nodes:
        global_nodes.append(D.or_(group_nodes))
    if not global_nodes:
        return None
    return D.and_(global_nodes)


def check_rules(records: BaseModel, operation: str) -> None:
    """Raise the 'top-secret records' AccessError if a record escapes the user's rules."""
    from fake_odoo.orm.domain_eval import evaluate

    node = rule_node(records, operation)
    if node is None or not records:
        return
    ids = set(records._ids)
    if evaluate(records, node, ids) != ids:
        raise rule_error(records, operation)


def rule_error(records: BaseModel, operation: str) -> AccessError:
    env = records.env
    user = records.sudo().env["res.users"].browse(env.uid)  # its name is its partner's
    return AccessError(
        "Uh-oh! Looks like you have stumbled upon some top-secret records.\n\n"
        f"Sorry, {user.name or user.login} (id={env.uid}) doesn't have "
        f"'{operation}' access to:\n- {records.model_label()} ({records._name})\n\n"
        "If you really, really need access, perhaps you can win over your friendly "
        "administrator with a batch of freshly baked cookies."
    )
