"""How the README's command (``pytest -n auto``) shares the suite among xdist workers.

A file is a unit of work, except the files whose tests use the kit runs of
``tests/conformance/conftest.py`` (the reference's full runs, the proof pool): those go to one
worker together, so the runs are paid once rather than once per worker (about five CPU
minutes each), and the other workers run every other file beside them.
"""

from __future__ import annotations

__all__ = ["SESSION_FIXTURES", "SHARED_KIT_RUNS", "scope_of"]

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
