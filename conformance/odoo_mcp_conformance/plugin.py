"""The kit's pytest plugin: options, REQ markers, session fixtures and result collection.

Loaded by ``odoo-mcp-conformance run`` (``-p odoo_mcp_conformance.plugin``). It registers
every catalogue id as a marker (the run uses ``--strict-markers``, so a feature tagged with
an unknown REQ fails collection), serves a fake Odoo unless given one, and writes one raw
result per scenario for the report.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd.parser import Scenario
from pytest_bdd.scenario import scenario_wrapper_template_registry

from odoo_mcp_conformance.catalogue import REQ_ID, load_catalogue
from odoo_mcp_conformance.control import FakeOdooControl
from odoo_mcp_conformance.driver import ServerPool
from odoo_mcp_conformance.target import Target, load_target
from odoo_mcp_conformance.world import NOT_APPLICABLE, World

pytest_plugins = [
    "odoo_mcp_conformance.steps.common",
    "odoo_mcp_conformance.steps.read",
    "odoo_mcp_conformance.steps.write",
    "odoo_mcp_conformance.steps.domains",
    "odoo_mcp_conformance.steps.errors",
    "odoo_mcp_conformance.steps.safety",
    "odoo_mcp_conformance.steps.resources",
    "odoo_mcp_conformance.steps.http",
]

#: Optional behaviours a target may claim; scenarios needing one are tagged ``@needs_<name>``.
CAPABILITIES = {
    "audit_log": "writes the JSONL audit log to a file the kit can read",
    "rate_limit": "limits tool calls per session",
    "error_logs": "logs classified errors on stderr (level name, model, method, code)",
    "resources": "SPEC-06 resources",
    "prompts": "SPEC-06 prompts",
    "subscriptions": "SPEC-06 resource subscriptions",
    "contracts": "the storefront contract tools",
    "http": "serves streamable HTTP (the target's transport is http)",
    "http_auth": "authenticates HTTP callers with their Odoo API key as a Bearer token",
    "http_stateless": "has a stateless HTTP mode (setting stateless_http)",
}
_RESULTS = pytest.StashKey[list[dict[str, Any]]]()
DOCUMENT_TAGS = ("SPEC-04", "SPEC-06", "SPEC-10", "SPEC-11", "L2-04a", "L2-10a", "HTTP", "LUJ")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("odoo-mcp-conformance")
    group.addoption("--kit-target", required=True, help="target TOML file")
    group.addoption("--kit-fake-url", default="", help="a running fake Odoo (default: serve one)")
    group.addoption("--kit-odoo-version", default="19.0", help="fake Odoo version to serve")
    group.addoption("--kit-results", default="", help="write raw scenario results (JSON) here")
    group.addoption("--kit-log-dir", default="", help="server stderr logs go here")


def pytest_configure(config: pytest.Config) -> None:
    for req_id, row in load_catalogue().items():
        config.addinivalue_line("markers", f"{req_id}: {row.keyword} {row.summary[:70]}")
    for doc in DOCUMENT_TAGS:
        config.addinivalue_line("markers", f"{doc}: scenarios of {doc}")
    for name, text in CAPABILITIES.items():
        config.addinivalue_line("markers", f"needs_{name}: needs a target that {text}")
    config.addinivalue_line("markers", "fresh_server: the scenario gets its own server process")
    config.addinivalue_line("markers", "odoo_version(v): the scenario needs a fake Odoo version")
    config.stash[_RESULTS] = []


#: Given steps that decide which server process a scenario needs
_CONFIGURING = ("the server runs in", "the server setting", "the server connects to Odoo as",
                "the server talks to Odoo over", "the server configuration file",
                "the audit log is enabled", "a fresh server")  # fmt: skip


def _scenario(item: pytest.Item) -> Scenario | None:
    """The scenario an item runs, its outline rendered with the item's example row."""
    obj = getattr(item, "obj", None)
    template = scenario_wrapper_template_registry.get(obj) if callable(obj) else None
    if template is None:
        return None
    callspec = getattr(item, "callspec", None)
    example = callspec.params.get("_pytest_bdd_example", {}) if callspec is not None else {}
    return template.render(example)


def _configuration_key(item: pytest.Item) -> tuple[str, ...]:
    """The configuring Given steps of a scenario (background included), as a sort key."""
    scenario = _scenario(item)
    if scenario is None:
        return ()
    texts = {
        step.name
        for step in scenario.steps
        if step.type == "given" and step.name.startswith(_CONFIGURING)
    }
    return tuple(sorted(texts))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run scenarios grouped by server configuration: each configuration starts one server
    process (about a second of start-up), so grouping cuts a run's wall time by a third.
    The order inside a group stays the feature files' order; verdicts do not depend on it
    (every scenario starts from freshly reset demo data)."""
    items.sort(key=_configuration_key)


@pytest.fixture(scope="session")
def kit_target(pytestconfig: pytest.Config) -> Target:
    return load_target(Path(pytestconfig.getoption("--kit-target")))


@pytest.fixture(scope="session")
def kit_log_dir(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = pytestconfig.getoption("--kit-log-dir")
    path = Path(given) if given else tmp_path_factory.mktemp("server-logs")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def fake_odoo_url(pytestconfig: pytest.Config) -> Iterator[str]:
    given = pytestconfig.getoption("--kit-fake-url")
    if given:
        yield given
        return
    from fake_odoo.handle import FakeOdoo
    from fake_odoo.server import BackgroundServer

    with BackgroundServer(FakeOdoo(pytestconfig.getoption("--kit-odoo-version"))) as server:
        yield server.url


@pytest.fixture(scope="session")
def control(fake_odoo_url: str) -> Iterator[FakeOdooControl]:
    client = FakeOdooControl(fake_odoo_url)
    yield client
    client.close()


@pytest.fixture(scope="session")
def server_pool(kit_log_dir: Path) -> Iterator[ServerPool]:
    pool = ServerPool(kit_log_dir)
    yield pool
    pool.close()


@pytest.fixture
def world(
    request: pytest.FixtureRequest,
    kit_target: Target,
    control: FakeOdooControl,
    server_pool: ServerPool,
    tmp_path: Path,
) -> Iterator[World]:
    """A clean scenario: demo data as built, no faults, empty call log."""
    for marker in request.node.iter_markers():
        if marker.name.startswith("needs_"):
            feature = marker.name.removeprefix("needs_")
            if feature not in kit_target.capabilities.features:
                pytest.skip(f"{NOT_APPLICABLE}the target does not claim {feature!r}")
    if control.dirty:
        control.reset()
    control.clear_faults()
    control.clear_calls()
    state = World(kit_target, control, server_pool, tmp_path)
    state.fresh = request.node.get_closest_marker("fresh_server") is not None
    yield state
    control.note_writes()
    control.clear_faults()
    server_pool.release_fresh()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call" or (report.when == "setup" and not report.passed):
        _record(item, report)
    return report


def _record(item: pytest.Item, report: pytest.TestReport) -> None:
    scenario = _scenario(item)
    tags = sorted({m.name for m in item.iter_markers() if REQ_ID.fullmatch(m.name)})
    if report.passed:
        outcome, message = "passed", ""
    elif report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        if reason.startswith(NOT_APPLICABLE):
            outcome, message = "not_applicable", reason.removeprefix(NOT_APPLICABLE)
        else:  # a bare skip is a check that could not run: a failure
            outcome, message = "failed", f"scenario skipped without a verdict: {reason}"
    else:
        outcome, message = "failed", _short(report)
    feature = scenario.feature.rel_filename if scenario is not None else ""
    item.config.stash[_RESULTS].append(
        {
            "id": item.nodeid.split("::")[-1],
            "feature": Path(feature).name if feature else "",
            "scenario": scenario.name if scenario is not None else item.name,
            "requirements": tags,
            "outcome": outcome,
            "message": message,
        }
    )


def _short(report: pytest.TestReport) -> str:
    """The failure's last meaningful line: the assertion, not the traceback."""
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(report.longrepr)
    return text.strip().splitlines()[0][:500] if text.strip() else "failed"


def pytest_sessionfinish(session: pytest.Session) -> None:
    target = session.config.getoption("--kit-results", default="")
    if target:
        collected: list[dict[str, Any]] = session.config.stash[_RESULTS]
        results = sorted(collected, key=lambda r: (r["feature"], r["id"]))
        Path(target).write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
