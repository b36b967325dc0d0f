"""L2/04a: the x2many command triples that create and write values use for one2many and
many2many fields, checked before any Odoo call.

Odoo answers a malformed command with a bare ``ValueError`` or ``TypeError`` deep in the ORM
(or, worse, does something else: ``[4, [1, 2]]`` is not a link of two records). A command
list is recognised by shape, without field metadata, so create keeps its single round trip:
a field value that is a list holding lists is a command list, and then every item must be
one of the seven commands. A plain list of ids is left to Odoo (it means "set" on 17+).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from odoo_mcp.errors import ToolError

__all__ = ["COMMANDS", "check_x2many_commands"]

#: REQ-04a-10: code -> (name, the triple it takes, what it does)
COMMANDS: Final[Mapping[int, tuple[str, str, str]]] = {
    0: ("CREATE", "[0, 0, {values}]", "create a new related record and link it"),
    1: ("UPDATE", "[1, id, {values}]", "update the linked record id"),
    2: ("DELETE", "[2, id, 0]", "unlink the record id and delete it"),
    3: ("UNLINK", "[3, id, 0]", "unlink the record id, keep it"),
    4: ("LINK", "[4, id, 0]", "link the existing record id"),
    5: ("CLEAR", "[5, 0, 0]", "unlink every record"),
    6: ("SET", "[6, 0, [ids]]", "replace the links by exactly these ids"),
}
_TABLE: Final = "; ".join(f"{form} {text}" for _, form, text in COMMANDS.values())


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _command_problem(command: object) -> str | None:
    """REQ-04a-11: what is wrong with one command, or None when it is well formed."""
    if not isinstance(command, list | tuple) or not 1 <= len(command) <= 3:
        return "a command is a list [code, id, value] of at most 3 items"
    code = command[0]
    if isinstance(code, bool) or not isinstance(code, int) or code not in COMMANDS:
        return f"unknown command code {code!r}: codes are 0 to 6"
    name, form, _ = COMMANDS[code]
    arg = command[1] if len(command) > 1 else 0
    value = command[2] if len(command) > 2 else None
    if code in (0, 1) and (len(command) != 3 or not isinstance(value, Mapping)):
        return f"{name} takes {form}: the third item is a dict of field values"
    if code in (1, 2, 3, 4) and not _is_id(arg):
        return f"{name} takes {form}: the second item is one record id"
    if code == 6 and (
        len(command) != 3 or not isinstance(value, list) or not all(_is_id(i) for i in value)
    ):
        return f"{name} takes {form}: the third item is a list of record ids"
    return None


def check_x2many_commands(model: str, values: Mapping[str, Any]) -> None:
    """REQ-04a-10/11: every x2many command in create/write values is one of the seven forms."""
    for field, value in values.items():
        if not isinstance(value, Sequence) or isinstance(value, str):
            continue
        if not any(isinstance(item, list | tuple) for item in value):
            continue  # a plain id list or a scalar list: Odoo's to judge
        for index, command in enumerate(value):
            problem = _command_problem(command)
            if problem is not None:
                raise ToolError(
                    "INVALID_X2MANY_COMMAND",
                    f"'{field}' of {model}: command #{index + 1} {command!r} is not valid: "
                    f"{problem}.",
                    suggestion=f"Write one2many/many2many values as a list of commands: {_TABLE}.",
                    details={"model": model, "field": field, "index": index},
                )
