"""The suite's split among xdist workers keeps every user of the shared kit runs together."""

from __future__ import annotations

import re
from pathlib import Path

from suite_scopes import SESSION_FIXTURES, SHARED_KIT_RUNS, scope_of

ROOT = Path(__file__).resolve().parent.parent


def test_every_file_using_the_shared_kit_runs_shares_one_worker() -> None:
    uses = re.compile(r"\b(" + "|".join(SESSION_FIXTURES) + r")\b")
    # the fixtures' own module defines them, and kit_runs.py only helps
    users = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("test_*.py")
        if path.name != "test_suite_scopes.py" and uses.search(path.read_text())
    )
    assert users == sorted(SHARED_KIT_RUNS)
    assert {scope_of(f"{path}::test_x") for path in users} == {"shared kit runs"}


def test_any_other_file_is_its_own_unit() -> None:
    assert scope_of("tests/odoo_mcp/test_cli.py::test_a[1]") == "tests/odoo_mcp/test_cli.py"
    assert scope_of("tests/conformance/test_trace.py::t") == "tests/conformance/test_trace.py"
