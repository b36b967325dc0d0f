"""The suite's split among xdist workers keeps every user of the shared kit runs together."""

from __future__ import annotations

import re
from collections import OrderedDict
from pathlib import Path

from suite_scopes import LONGEST_FIRST, SESSION_FIXTURES, SHARED_KIT_RUNS, longest_first, scope_of

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


def test_the_longest_units_go_out_first_and_each_exists() -> None:
    for scope in LONGEST_FIRST[1:]:
        assert (ROOT / scope).is_file(), scope
        assert scope_of(f"{scope}::t") == scope  # its own unit, not a shared kit run's
    queue = OrderedDict(
        (scope, {}) for scope in ["tests/a.py", *reversed(LONGEST_FIRST), "tests/b.py"]
    )
    longest_first(queue)
    assert list(queue) == [*LONGEST_FIRST, "tests/a.py", "tests/b.py"]
