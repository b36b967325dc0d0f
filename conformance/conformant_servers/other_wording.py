"""Legal choice: other wording of error ``message`` / ``suggestion`` texts and of the prompt
texts. Every model, field and tool name the reference mentions is still there (SPEC-10 §3 and
§5 give examples, not fixed texts; SPEC-06 §6 gives templates and what a prompt includes)."""

import re
from typing import Any

from _variant import patch_everywhere, serve

from odoo_mcp.errors import response
from odoo_mcp.prompts import builder

#: (phrase, replacement): whole phrases only, never inside an identifier (a.b_c)
ERROR_WORDS = [
    ("Leave the blocked field(s) out", "Omit the barred field(s)"),
    ("not allowed", "forbidden"),
    ("blocked", "barred"),
    ("Invalid domain", "Rejected domain"),
    ("Unknown tool", "No such tool"),
    ("has no field", "lacks a field named"),
    ("does not exist", "cannot be found"),
    ("do not exist", "cannot be found"),
    ("Did you mean", "Perhaps you meant"),
    ("Check the field names of", "Look up the fields of"),
    ("lists the usable fields", "shows which fields can be used"),
    ("this server does not", "the server will not"),
    ("retry", "try again"),
]
PROMPT_WORDS = [
    ("You are connected to an Odoo", "This session talks to an Odoo"),
    ("To get started:", "First steps:"),
    ("Required when creating:", "Mandatory on create:"),
    ("Key fields:", "Most useful fields:"),
    ("Other fields (first 25):", "More fields (up to 25):"),
    ("## Required fields", "## Fields to fill"),
    ("## Relations", "## Linked records"),
    ("## Call", "## Example call"),
    ("first search", "look up the id in"),
    ("and use its id", "and pass that id"),
    ("Available toolsets:", "Toolsets on offer:"),
    ("Total tools:", "Tool count:"),
    ("## Default values (filled in when you leave the field out)", "## What Odoo fills in"),
    ("## Example values for common fields", "## Sample values"),
    ("## Common Operations", "## Everyday operations"),
    ("Key filters:", "Handy filters:"),
    ("## Related Models", "## Linked models"),
    ("## Tips", "## Advice"),
    ("(has a default)", "(defaulted)"),
    ("Suggested domain", "A domain to start from"),
    ("Recommended fields:", "Fields worth requesting:"),
    ("Refine with", "For dates, states and relations see"),
    ("is not available", "cannot be done here"),
]


def _reword(text: str, table: list[tuple[str, str]]) -> str:
    for phrase, replacement in table:
        text = re.sub(rf"(?<!\w)(?<!\w\.){re.escape(phrase)}(?!\w|\.\w)", replacement, text)
    return text


def _hint_line(line: str) -> str:
    # "- Use odoo_core_x to do y" -> "- odoo_core_x: do y"
    found = re.fullmatch(r"- Use (\S+) to (.*)", line)
    return f"- {found[1]}: {found[2]}" if found else line


original_payload = response.to_payload
original_prompt = builder.render_prompt


def _reworded_error(error: Any) -> Any:
    payload = original_payload(error)
    if isinstance(payload.get("message"), str):
        payload["message"] = _reword(str(payload["message"]), ERROR_WORDS)
    if isinstance(payload.get("suggestion"), str):
        payload["suggestion"] = "Hint: " + _reword(str(payload["suggestion"]), ERROR_WORDS)
    return payload


async def _reworded_prompt(rc: Any, name: str, args: Any) -> str:
    text = await original_prompt(rc, name, args)
    lines = [_hint_line(line) for line in _reword(text, PROMPT_WORDS).splitlines()]
    return "\n".join(lines)


patch_everywhere(original_payload, _reworded_error)
patch_everywhere(original_prompt, _reworded_prompt)
serve()
