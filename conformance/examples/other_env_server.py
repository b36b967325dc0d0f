"""An "implementation we have never seen", for the kit's example target.

It stands for a third-party Odoo MCP server with its own configuration names
(``OTHER_ODOO_HOST``, ``OTHER_READ_ONLY=1``, ``OTHER_DENY_MODELS`` as a JSON list, ...).
Underneath it is the reference server, so the kit's verdicts on it must equal the reference
verdicts wherever ``targets/example-other.toml`` maps the setting: that is what proves the kit
is configured by the target file alone.
"""

from __future__ import annotations

import json
import os
import sys

MODES = {"ro": "readonly", "limited": "restricted", "rw": "full"}


def translate(environ: dict[str, str]) -> dict[str, str]:
    """The other implementation's variables -> the reference server's.

    Its connection comes only from its own names (the spec's are dropped, so the target's
    mapping is what connects it); like a conformant server it also honours the spec's
    REQ-11-25 names for everything else.
    """
    connection = {"ODOO_URL", "ODOO_DB", "ODOO_USERNAME", "ODOO_PASSWORD", "ODOO_API_KEY"}
    out = {k: v for k, v in environ.items() if k not in connection and not k.startswith("OTHER_")}
    simple = {
        "OTHER_ODOO_HOST": "ODOO_URL",
        "OTHER_ODOO_DATABASE": "ODOO_DB",
        "OTHER_ODOO_LOGIN": "ODOO_USERNAME",
        "OTHER_ODOO_TOKEN": "ODOO_API_KEY",
        "OTHER_WIRE": "ODOO_PROTOCOL",
    }
    for theirs, ours in simple.items():
        if theirs in environ:
            out[ours] = environ[theirs]
    if "OTHER_ACCESS" in environ:
        out["ODOO_MCP_MODE"] = MODES[environ["OTHER_ACCESS"]]
    for theirs, ours in {
        "OTHER_DENY_MODELS": "ODOO_MCP_MODEL_BLOCKLIST",
        "OTHER_ONLY_MODELS": "ODOO_MCP_MODEL_ALLOWLIST",
        "OTHER_HIDDEN_FIELDS": "ODOO_MCP_FIELD_BLOCKLIST",
    }.items():
        if theirs in environ:
            out[ours] = ",".join(json.loads(environ[theirs]))
    out.setdefault("ODOO_MCP_LOG_LEVEL", "warning")
    return out


def main() -> None:
    translated = translate(dict(os.environ))
    os.environ.clear()
    os.environ.update(translated)
    from odoo_mcp.cli import main as serve

    sys.exit(serve(["serve"]))


if __name__ == "__main__":
    main()
