"""How the README's command (``pytest -n auto``) shares the suite among xdist workers.

A file is a unit of work, except the files whose tests use the kit runs of
``tests/conformance/conftest.py`` (the reference's full runs, the proof pool): those go to one
worker together, so the runs are paid once rather than once per worker (about five CPU
minutes each), and the other workers run every other file beside them.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

__all__ = ["LONGEST_FIRST", "SESSION_FIXTURES", "SHARED_KIT_RUNS", "longest_first", "scope_of"]

#: the session fixtures of tests/conformance/conftest.py that run the kit
SESSION_FIXTURES = (
    "full_runs", "reference_run", "other_version_runs", "real_odoo_run", "example_run",
    "proof_runs", "real_odoo",
)  # fmt: skip
#: the test files using them (tests/test_suite_scopes.py checks the list is whole)
SHARED_KIT_RUNS = tuple(
    f"tests/conformance/{name}.py"
    for name in (
        "test_broken_servers", "test_conformant_servers", "test_example_target",
        "test_kit_http", "test_kit_real_odoo", "test_kit_reference", "test_kit_versions",
        "test_mutants", "test_real_odoo",
    )
)  # fmt: skip


def scope_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its file, or the shared kit runs'."""
    path = nodeid.split("::", 1)[0]
    return "shared kit runs" if path in SHARED_KIT_RUNS else path


#: the units that take longest (wall, 2 idle cores), longest first: xdist hands out units
#: by their number of tests, and a one-test file that waits on timeouts or load for half a
#: minute came last and kept one worker busy while the other had finished
LONGEST_FIRST = (
    "shared kit runs",
    "tests/conformance/test_forkserver.py",
    "tests/conformance/test_noninterference_kit.py",
    "tests/conformance/test_kit_under_load.py",
    "tests/conformance/test_inconclusive.py",
    "tests/conformance/test_capabilities.py",
    "tests/conformance/test_workers.py",
    "tests/test_architecture.py",
    "tests/conformance/test_trace.py",
    "tests/noninterference/test_noninterference.py",
    "tests/odoo_mcp/safety/test_safety_audit.py",
    "tests/docs/test_docs_site.py",
)


def longest_first(workqueue: OrderedDict[str, Any]) -> None:
    """Move the units of :data:`LONGEST_FIRST` to the front of ``workqueue``, in that order
    (the others keep theirs: most tests first)."""
    for scope in reversed(LONGEST_FIRST):
        if scope in workqueue:
            workqueue.move_to_end(scope, last=False)
