"""Checks of the SPEC-06 §6 prompts (REQ-06-17..21) that read what the seed says a prompt
includes, not how the reference server words it.

The prompt text is the last outcome (``the client gets the prompt ...`` in ``resources.py``).
What a check compares with comes from the fake Odoo's control API (``fields_get``,
``default_get``, ``ir.model``) or from the server's own tool list, so the checks hold on any
demo data. A value "shown with" a field is looked for on the same line as the field's name:
a list, a table row or a JSON object line all qualify.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from pytest_bdd import parsers

from odoo_mcp_conformance.checks import check
from odoo_mcp_conformance.world import World

#: L2/04a REQ-04a-04: the 16 operators a domain may use
OPERATORS = frozenset(
    {
        "=", "!=", ">", ">=", "<", "<=", "like", "not like", "ilike", "not ilike", "=like",
        "=ilike", "in", "not in", "child_of", "parent_of",
    }
)  # fmt: skip
LOGICAL = frozenset({"&", "|", "!"})


def _text(world: World) -> str:
    return world.last().text


def _word(name: str) -> re.Pattern[str]:
    """``name`` as a whole identifier (not inside partner_id_x or res.partner.bank)."""
    return re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w]|\.\w)")


def _lines_with(body: str, *names: str) -> list[str]:
    return [line for line in body.splitlines() if all(_word(n).search(line) for n in names)]


def _fields(world: World, model: str) -> dict[str, dict[str, Any]]:
    attributes = ["type", "string", "required", "readonly", "selection"]
    found = world.control.call(model, "fields_get", attributes=attributes)
    assert isinstance(found, dict), f"fields_get of {model} gave {found!r:.200}"
    return found


def _shown(value: Any) -> list[str]:
    """The ways a value can be written: JSON, Python, plain."""
    return list(dict.fromkeys([json.dumps(value), repr(value), str(value)]))


def _literal_at(text: str, start: int) -> Any:
    """The list literal starting at ``text[start] == '['`` (JSON or Python), else None."""
    try:
        return json.JSONDecoder().raw_decode(text, start)[0]
    except ValueError:
        pass
    depth = 0
    for end in range(start, len(text)):
        depth += {"[": 1, "]": -1}.get(text[end], 0)
        if depth == 0:
            try:
                return ast.literal_eval(text[start : end + 1])
            except (ValueError, SyntaxError):
                return None
    return None


def _is_domain(value: Any) -> bool:
    """L2/04a REQ-04a-01/13: a list of conditions and logical operators, one condition at
    least, each condition [field, one of the 16 operators, value]."""
    if not isinstance(value, list | tuple) or not value:
        return False
    leaves = 0
    for item in value:
        if isinstance(item, str) and item in LOGICAL:
            continue
        if not (isinstance(item, list | tuple) and len(item) == 3):
            return False
        if not (isinstance(item[0], str) and item[1] in OPERATORS):
            return False
        leaves += 1
    return leaves > 0


def _domains(body: str) -> list[list[Any]]:
    found = []
    for match in re.finditer(r"\[", body):
        value = _literal_at(body, match.start())
        if _is_domain(value):
            found.append(list(value))
    return found


@check(parsers.parse("the prompt text mentions the run's Odoo version"))
def _mentions_version(world: World) -> None:
    """SPEC-06's overview template names the version: the one this Odoo reports."""
    version = str(world.control.info()["version"])
    body = _text(world)
    assert f"Odoo {version}" in body, f"'Odoo {version}' not in the prompt:\n{body[:1500]}"


@check(parsers.parse("the prompt text mentions each of:"))
def _each(world: World, docstring: str) -> None:
    body = _text(world)
    missing = [text for text in json.loads(docstring) if text not in body]
    assert not missing, f"not in the prompt: {missing}\n{body[:1500]}"


@check(parsers.parse("the prompt text shows the x2many commands 0 to 6 as triples"))
def _commands(world: World) -> None:
    """L2/04a REQ-04a-10: each command is a triple that starts with its code."""
    body = _text(world)
    missing = [code for code in range(7) if not re.search(rf"[\[(]\s*{code}\s*,[^,\])]+,", body)]
    assert not missing, f"no triple for the command code(s) {missing} in the prompt"


@check(parsers.parse("the prompt text names the Odoo database and the uid of the login"))
def _instance(world: World) -> None:
    body = _text(world)
    database = str(world.control.info()["database"])
    uid = world.control.call("res.users", "search", [["login", "=", world.user]])
    assert _word(database).search(body), f"the database {database!r} is not in the prompt"
    assert uid and re.search(rf"\b{uid[0]}\b", body), f"the uid {uid} is not in the prompt"


@check(parsers.parse("the prompt text gives the number of tools the server lists"))
def _tool_count(world: World) -> None:
    count = len(world.server().list_tools())
    assert re.search(rf"(?<![\w.]){count}(?![\w.])", _text(world)), (
        f"the server lists {count} tools; that number is not in the prompt"
    )


@check(parsers.parse("the prompt text names every toolset odoo_core_list_toolsets gives"))
def _toolsets(world: World) -> None:
    outcome = world.server().call_tool("odoo_core_list_toolsets", {})
    data = outcome.structured
    if not isinstance(data, dict):
        data = json.loads(outcome.text)
    names = [entry["name"] for entry in data["toolsets"]]
    body = _text(world)
    missing = [name for name in names if not _word(name).search(body)]
    assert names and not missing, f"toolsets {missing} of {names} are not in the prompt"


@check(parsers.parse('the prompt text gives the description of "{model}"'))
def _description(world: World, model: str) -> None:
    rows = world.control.call("ir.model", "search_read", [["model", "=", model]], fields=["name"])
    assert rows, f"ir.model has no {model}"
    name = rows[0]["name"]
    assert name in _text(world), f"the description {name!r} of {model} is not in the prompt"


@check(parsers.parse('the prompt text shows every value of the "{field}" selection of "{model}"'))
def _selection(world: World, field: str, model: str) -> None:
    info = _fields(world, model).get(field)
    assert info and info.get("selection"), f"{model}.{field} is not a selection"
    body = _text(world)
    missing = [value for value, _ in info["selection"] if not _word(value).search(body)]
    assert not missing, f"the {field} values {missing} are not in the prompt"


@check(parsers.parse('the prompt text lists every required field of "{model}" with its type '
                     "and label"))  # fmt: skip
def _required(world: World, model: str) -> None:
    """REQ-06-20: name, type and description (fields_get's string) on one line."""
    body = _text(world)
    required = {
        name: info for name, info in _fields(world, model).items()
        if info.get("required") and not info.get("readonly")
    }  # fmt: skip
    assert required, f"{model} has no required writable field"
    missing = [
        name for name, info in required.items()
        if not any(info["type"] in line and info.get("string", "") in line
                   for line in _lines_with(body, name))
    ]  # fmt: skip
    assert not missing, f"required fields {missing} are not shown with type and label"


@check(parsers.parse('the prompt text shows a default value that default_get gives for "{model}"'))
def _default(world: World, model: str) -> None:
    """REQ-06-20: at least one default Odoo fills in, next to its field's name."""
    fields = _fields(world, model)
    defaults = world.control.call(model, "default_get", list(fields))
    # a selection's default is among the options a guide may list next to the field, and
    # True/False/empty values are everywhere: they would prove nothing
    shown = {name: value for name, value in defaults.items()
             if fields.get(name, {}).get("type") not in ("selection", "boolean")
             and isinstance(value, str | int | float) and value not in ("", 0)}  # fmt: skip
    assert shown, f"default_get of {model} gives no plain value: {defaults!r:.300}"
    body = _text(world)
    found = [
        name for name, value in shown.items()
        if any(re.search(rf"(?<![\w.]){re.escape(form)}(?![\w.])", line)
               for line in _lines_with(body, name) for form in _shown(value))
    ]  # fmt: skip
    assert found, f"none of the defaults {shown} is shown next to its field in the prompt"


@check(parsers.parse('the prompt text says to search "{relation}" to fill "{field}"'))
def _resolve(world: World, relation: str, field: str) -> None:
    """REQ-06-20: "for partner_id, first search res.partner"."""
    lines = [line for line in _lines_with(_text(world), field, relation)
             if "search" in line.lower()]  # fmt: skip
    assert lines, f"no line tells to search {relation} for {field}"


@check(parsers.parse('the prompt text contains a domain on a field of "{model}"'))
def _domain_on(world: World, model: str) -> None:
    """A domain-like list (JSON or Python literal) whose conditions use fields of ``model``."""
    fields = _fields(world, model)
    domains = [d for d in _domains(_text(world))
               if all(isinstance(i, str) or i[0].split(".")[0] in fields for i in d)]  # fmt: skip
    assert domains, f"no domain on the fields of {model} in the prompt"
    world.remembered["prompt_domains"] = domains


@check(parsers.parse('the prompt text contains a domain on a field of "{model}" mentioning '
                     '"{word}"'))  # fmt: skip
def _domain_word(world: World, model: str, word: str) -> None:
    fields = _fields(world, model)
    domains = [d for d in _domains(_text(world))
               if all(isinstance(i, str) or i[0].split(".")[0] in fields for i in d)
               and word.lower() in json.dumps(d, default=str).lower()]  # fmt: skip
    assert domains, f"no domain on the fields of {model} mentioning {word!r} in the prompt"


@check(parsers.parse('the prompt text recommends fields of "{model}" to read'))
def _recommended(world: World, model: str) -> None:
    """REQ-06-21: field names besides those the suggested domain filters on."""
    body = _text(world)
    in_domains = {i[0].split(".")[0] for d in _domains(body) for i in d if not isinstance(i, str)}
    named = [name for name in _fields(world, model)
             if name not in in_domains and _word(name).search(body)]  # fmt: skip
    assert len(named) >= 2, f"the prompt names {named} as fields of {model} to read"


@check(parsers.parse("the prompt text names the Odoo URL the server was given"))
def _url(world: World) -> None:
    """REQ-06-17: "instance at {url}": the URL the server was started with (the forwarder's
    when one stands in between), with or without its trailing slash."""
    given = (world.proxy.url if world.proxy is not None else world.control.url).rstrip("/")
    assert re.search(rf"{re.escape(given)}(?!\d)", _text(world)), (
        f"the Odoo URL {given} is not in the prompt"
    )


@check(parsers.parse("the prompt text names the Odoo edition"))
def _edition(world: World) -> None:
    """REQ-06-17: "an Odoo {version} ({edition}) instance": community, or enterprise where
    Odoo has the web_enterprise module installed (what Odoo itself goes by)."""
    domain = [["name", "=", "web_enterprise"], ["state", "=", "installed"]]
    enterprise = world.control.call("ir.module.module", "search_count", domain)
    edition = "enterprise" if enterprise else "community"
    assert re.search(rf"(?i)\b{edition}\b", _text(world)), (
        f"the edition ({edition}) is not in the prompt"
    )


@check(parsers.parse("the prompt text names the user by login or name"))
def _username(world: World) -> None:
    """REQ-06-17: "User: {username} (uid: {uid})": the login the server was given, or that
    user's name in Odoo; either stands for the username."""
    rows = world.control.call(
        "res.users", "search_read", [["login", "=", world.user]], fields=["name"]
    )
    names = [world.user, *(str(row["name"]) for row in rows if row.get("name"))]
    body = _text(world)
    assert any(_word(name).search(body) for name in names), (
        f"neither the login nor the name of the user ({names}) is in the prompt"
    )


#: REQ-06-20: what an example value of each field type looks like, after the field's name
_EXAMPLES = {
    "many2one": r"\d+", "integer": r"-?\d+", "float": r"-?\d+(?:\.\d+)?",
    "monetary": r"-?\d+(?:\.\d+)?", "boolean": r"(?i:true|false)",
    "date": r"\d{4}-\d{2}-\d{2}", "datetime": r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}",
    "many2many": r"\[", "one2many": r"\[",
}  # fmt: skip


def _example_after(line: str, name: str, info: dict[str, Any]) -> bool:
    """A value of the field's type written after its name on the line (a JSON object of
    values, ``name: value``, ``name = value`` or a table row all qualify)."""
    kind = info.get("type")
    if kind == "selection":
        keys = [re.escape(str(key)) for key, _ in info.get("selection") or []]
        value = rf"""["']?(?:{"|".join(keys)})["']?""" if keys else r"\S+"
    elif kind in ("char", "text", "html"):
        value = r"""["'][^"'\n]+["']"""
    else:
        value = _EXAMPLES.get(str(kind), r"\S+")
    for match in _word(name).finditer(line):
        rest = line[match.end() :]
        if re.search(rf"""^["']?\s*(?:\([^)]*\)\s*)?[:=|]\s*(?:e\.g\.\s*)?{value}""", rest):
            return True
    return False


@check(parsers.parse('the prompt text gives an example value for every required field of '
                     '"{model}"'))  # fmt: skip
def _examples(world: World, model: str) -> None:
    """REQ-06-20 "Example values for common fields": the required fields are the common ones
    the caller cannot leave out; each one Odoo gives no default for has an example value of
    its type written after its name (a selection's example is one of its values)."""
    fields = _fields(world, model)
    required = {name: info for name, info in fields.items()
                if info.get("required") and not info.get("readonly")}  # fmt: skip
    defaults = world.control.call(model, "default_get", list(required))
    wanted = {name: info for name, info in required.items() if name not in (defaults or {})}
    assert wanted, f"every required field of {model} has a default"
    lines = _text(world).splitlines()
    missing = [name for name, info in wanted.items()
               if not any(_example_after(line, name, info) for line in lines)]  # fmt: skip
    assert not missing, f"no example value of the required field(s) {missing} in the prompt"
