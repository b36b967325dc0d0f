"""Domain parsing, imitating ``odoo.orm.domains.Domain`` (Odoo 17-19).

A domain is a prefix-notation list of conditions ``(field_path, operator,
value)`` and the logical operators ``'&'``, ``'|'`` and ``'!'``; juxtaposed
items are AND-ed.  ``parse`` turns it into a small tree and raises the
``ValueError`` texts real Odoo raises for a malformed one.  Evaluation against
records is in ``domain_eval``.  These are pure functions: no model needed.

Tree nodes (plain tuples, easy to build in tests)::

    ("leaf", field_expr, operator, value)   ("and", [nodes])   ("or", [nodes])
    ("not", node)    ("true",)    ("false",)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Node = tuple[Any, ...]

TRUE: Node = ("true",)
FALSE: Node = ("false",)

#: operators of every supported version; ``any``/``not any`` only from Odoo 17 (see ``operators``)
BASE_OPERATORS = frozenset(
    {
        "=",
        "!=",
        "<",
        ">",
        "<=",
        ">=",
        "=?",
        "like",
        "not like",
        "ilike",
        "not ilike",
        "=like",
        "=ilike",
        "in",
        "not in",
        "child_of",
        "parent_of",
    }
)
HIERARCHY_OPERATORS = frozenset({"any", "not any"})
NEGATIVE_OPERATORS = {
    "!=": "=",
    "not like": "like",
    "not ilike": "ilike",
    "not in": "in",
    "not any": "any",
}
#: deprecated spellings Odoo still accepts
ALIASES = {"<>": "!=", "==": "="}


def operators(major: int) -> frozenset[str]:
    """The condition operators an Odoo of this major version accepts."""
    return BASE_OPERATORS | HIERARCHY_OPERATORS if major >= 17 else BASE_OPERATORS


#: Odoo 17's ``expression.TERM_OPERATORS`` (+ ``'<>'``): the exact, case-sensitive spellings
#: its ``is_leaf`` accepts (so ``'LIKE'`` or ``'=='`` are an "Invalid leaf" there)
LEGACY_TERM_OPERATORS = BASE_OPERATORS | HIERARCHY_OPERATORS | {"<>"}


def legacy_expression(major: int) -> bool:
    """Whether domains go through Odoo 17's ``odoo.osv.expression`` rather than 19's
    ``Domain``: its checks and texts ("Invalid field ... in leaf (...)", "Domain [...] is
    syntactically not correct.") are in ``check_legacy`` (err_xmlrpc_invalid_domain_field,
    flow_domain_operators of the 17 batch).  16's expression.py checks in another order
    (no ``_anyfy_leaves``) and is not captured: it keeps the fake's generic texts."""
    return major == 17


def check_syntax(domain: Sequence[Any]) -> None:
    """Odoo 17's ``normalize_domain``: count the operands each operator expects.

    Raises its ``ValueError`` with the domain as given; ``any`` sub-domains are checked too.
    """
    expected = 1
    for token in domain:
        if expected == 0:
            expected = 1  # juxtaposed items: an implicit '&'
        if isinstance(token, (list, tuple)):
            expected -= 1
            value = token[2] if len(token) == 3 and token[1] in HIERARCHY_OPERATORS else None
            if isinstance(value, (list, tuple)):
                check_syntax(value)
        else:
            expected += {"!": 1, "&": 2, "|": 2}.get(token, 0) - 1
    if domain and expected:
        raise ValueError(f"Domain {domain} is syntactically not correct.")


_CONSTANT_LEAVES = ((1, "=", 1), (0, "=", 1))


def is_legacy_leaf(item: Any) -> bool:
    """Odoo 17's ``is_leaf``: a 3-item list or tuple, a known operator, a field name (or a
    constant leaf)."""
    return (
        isinstance(item, (list, tuple))
        and len(item) == 3
        and item[1] in LEGACY_TERM_OPERATORS
        and ((isinstance(item[0], str) and bool(item[0])) or tuple(item) in _CONSTANT_LEAVES)
    )


def parse(domain: Any) -> Node:
    """Parse a domain list into a tree, raising Odoo's ``Domain()`` errors.

    Mirrors Odoo 19: items are consumed from the end, operators pop their
    operands from a stack (an empty stack means a malformed domain), and what
    remains on the stack is AND-ed.
    """
    if not isinstance(domain, (list, tuple)):
        raise TypeError(f"Domain() invalid argument type for domain: {domain!r}")
    stack: list[Node] = []
    try:
        for item in reversed(domain):
            if isinstance(item, (list, tuple)) and len(item) == 3:
                stack.append(_condition(item))
            elif item == "&":
                stack.append(and_([stack.pop(), stack.pop()]))
            elif item == "|":
                stack.append(or_([stack.pop(), stack.pop()]))
            elif item == "!":
                stack.append(not_(stack.pop()))
            else:
                raise ValueError(f"Domain() invalid item in domain: {item!r}")
    except IndexError:
        raise ValueError(f"Domain() malformed domain {domain!r}") from None
    if len(stack) == 1:
        return stack[0]
    return and_(list(reversed(stack)))


def _condition(item: Sequence[Any]) -> Node:
    field, operator, value = item
    # Odoo's constant leaves TRUE_LEAF (1, '=', 1) and FALSE_LEAF (0, '=', 1)
    if operator == "=" and value == 1 and field in (0, 1) and not isinstance(field, bool):
        return TRUE if field == 1 else FALSE
    if isinstance(operator, str):
        operator = ALIASES.get(operator.lower(), operator.lower())
    if isinstance(value, tuple):
        value = list(value)
    return ("leaf", field, operator, value)


def and_(nodes: list[Node]) -> Node:
    """AND of nodes, flattened; TRUE operands dropped, a FALSE operand wins."""
    flat: list[Node] = []
    for node in nodes:
        if node == FALSE:
            return FALSE
        if node == TRUE:
            continue
        flat.extend(node[1] if node[0] == "and" else [node])
    if not flat:
        return TRUE
    return flat[0] if len(flat) == 1 else ("and", flat)


def or_(nodes: list[Node]) -> Node:
    flat: list[Node] = []
    for node in nodes:
        if node == TRUE:
            return TRUE
        if node == FALSE:
            continue
        flat.extend(node[1] if node[0] == "or" else [node])
    if not flat:
        return FALSE
    return flat[0] if len(flat) == 1 else ("or", flat)


def not_(node: Node) -> Node:
    if node == TRUE:
        return FALSE
    if node == FALSE:
        return TRUE
    if node[0] == "not":
        return node[1]  # type: ignore[no-any-return]
    return ("not", node)


def to_list(node: Node) -> list[Any]:
    """Back to Odoo's prefix list form: n-ary AND/OR as (n-1) leading operators."""
    kind = node[0]
    if kind == "true":
        return []
    if kind == "false":
        return [[0, "=", 1]]
    if kind == "leaf":
        return [[node[1], node[2], node[3]]]
    if kind == "not":
        return ["!", *to_list(node[1])]
    children = node[1]
    symbol = "&" if kind == "and" else "|"
    out: list[Any] = [symbol] * (len(children) - 1)
    for child in children:
        out.extend(to_list(child))
    return out


def and_lists(*domains: Sequence[Any]) -> list[Any]:
    """``Domain.AND`` of several domain lists, in Odoo's normalised list form."""
    return to_list(and_([parse(list(d)) for d in domains]))


def mentions_field(domain: Sequence[Any], fname: str) -> bool:
    """Whether a condition of the domain (at any depth) is on ``fname`` exactly."""
    return any(
        isinstance(item, (list, tuple)) and len(item) == 3 and item[0] == fname for item in domain
    )


def condition_repr(field: Any, operator: Any, value: Any) -> str:
    """A condition as Odoo prints it in error messages: ``('name', '=', 1)``."""
    return f"({field!r}, {operator!r}, {value!r})"
