"""pytest plugin: ``--req-results PATH`` writes the outcome of every ``@pytest.mark.req`` test.

Loaded by the project's ``tests/conftest.py`` (``pytest_plugins``), not as a ``pytest11`` entry
point: an entry point would load into every pytest session of any environment that installs
the kit, the kit's own pytest-bdd runs included. A malformed id in a ``req`` marker is a usage
error in every run, with or without ``--req-results``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_mcp_conformance.trace.unit import UnitOutcome, UnitResult, UnitResults, bad_ids

__all__ = ["marked_ids"]

#: what a later phase's outcome does to the one recorded so far: a failure anywhere wins
_RANK: dict[UnitOutcome, int] = {"passed": 0, "skipped": 1, "xfailed": 1, "failed": 2}


def marked_ids(item: pytest.Item) -> tuple[str, ...]:
    """The REQ ids of an item's ``req`` markers (class and module markers included)."""
    ids: list[str] = []
    for marker in item.iter_markers("req"):
        if not marker.args or marker.kwargs or bad_ids(str(a) for a in marker.args):
            raise pytest.UsageError(
                f"{item.nodeid}: @pytest.mark.req takes REQ ids only, got {marker.args!r}"
            )
        ids += [str(arg) for arg in marker.args if str(arg) not in ids]
    return tuple(ids)


def _outcome(report: pytest.TestReport) -> UnitOutcome | None:
    if report.failed:
        return "failed"
    if report.skipped:
        return "xfailed" if hasattr(report, "wasxfail") else "skipped"
    return "passed" if report.when == "call" else None


class _Recorder:
    """Registered only with ``--req-results``: collects, then writes at the session's end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.requirements: dict[str, tuple[str, ...]] = {}
        self.outcomes: dict[str, UnitOutcome] = {}

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            ids = marked_ids(item)
            if ids:
                self.requirements[item.nodeid] = ids

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        outcome = _outcome(report)
        if outcome is None or report.nodeid not in self.requirements:
            return
        previous = self.outcomes.get(report.nodeid)
        if previous is None or _RANK[outcome] > _RANK[previous]:
            self.outcomes[report.nodeid] = outcome

    def pytest_sessionfinish(self) -> None:
        UnitResults.of(
            UnitResult(nodeid=nodeid, requirements=self.requirements[nodeid], outcome=outcome)
            for nodeid, outcome in self.outcomes.items()
        ).write(self.path)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--req-results",
        metavar="PATH",
        help="write the outcome of every @pytest.mark.req test to PATH (JSON, for the trace)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "req(ids): the requirements this test proves")
    path = config.getoption("--req-results")
    if path:
        config.pluginmanager.register(_Recorder(Path(path)), "odoo-mcp-req-results")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A typo in a marker fails every run, not only the ones that write results."""
    for item in items:
        marked_ids(item)
