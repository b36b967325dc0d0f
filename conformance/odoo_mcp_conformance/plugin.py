"""The kit's pytest plugin: options, REQ markers, session fixtures and result collection.

Loaded by ``odoo-mcp-conformance run`` (``-p odoo_mcp_conformance.plugin``). It registers
every catalogue id as a marker (the run uses ``--strict-markers``, so a feature tagged with
an unknown REQ fails collection), serves a fake Odoo unless given one, and writes one raw
result per scenario for the report.
"""

from __future__ import annotations

import atexit
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd.parser import Scenario
from pytest_bdd.scenario import scenario_wrapper_template_registry

from odoo_mcp_conformance.capabilities import CAPABILITIES, NOT_IMPLEMENTED
from odoo_mcp_conformance.catalogue import REQ_ID, load_catalogue
from odoo_mcp_conformance.checks import CheckRecorder, in_words, unreadable
from odoo_mcp_conformance.claims import Claims, run_claimed
from odoo_mcp_conformance.control import FakeOdooControl
from odoo_mcp_conformance.driver import ServerPool, inherited_env
from odoo_mcp_conformance.forkserver import Forkserver, forkserver_supported
from odoo_mcp_conformance.inconclusive import cause_of, judge_exits
from odoo_mcp_conformance.invariants import Context, FieldTypes, Scope, judge_answers
from odoo_mcp_conformance.progress import EventFile, FeatureProgress, Finished, ProgressSink
from odoo_mcp_conformance.real_odoo import NeedsFake, OdooBackend, RealOdoo
from odoo_mcp_conformance.report import judge
from odoo_mcp_conformance.sources import PROFILES, Check, Profile, scenario_source
from odoo_mcp_conformance.step_lookup import install as remember_step_lookups
from odoo_mcp_conformance.target import Target, load_target
from odoo_mcp_conformance.world import NOT_APPLICABLE, World

#: the step definitions, registered as plugins right after this one (``pytest_addhooks``)
STEP_MODULES = (
    "odoo_mcp_conformance.steps.common",
    "odoo_mcp_conformance.steps.read",
    "odoo_mcp_conformance.steps.write",
    "odoo_mcp_conformance.steps.domains",
    "odoo_mcp_conformance.steps.errors",
    "odoo_mcp_conformance.steps.safety",
    "odoo_mcp_conformance.steps.resources",
    "odoo_mcp_conformance.steps.prompts",
    "odoo_mcp_conformance.steps.http",
    "odoo_mcp_conformance.steps.contracts",
    "odoo_mcp_conformance.steps.connection",
    "odoo_mcp_conformance.steps.toolsets",
    "odoo_mcp_conformance.steps.sweeps",
)


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Register the step modules when this plugin is registered, where ``pytest_plugins``
    would (same order, assertion rewriting marked before the import), without the entry-point
    look-up pytest makes for each ``pytest_plugins`` name: 13 scans of every installed
    distribution, about 60 ms of each kit session (a scoped batch run costs about 0.5 s)."""
    for name in STEP_MODULES:
        pluginmanager.import_plugin(name)


_RESULTS = pytest.StashKey[list[dict[str, Any]]]()
_WORLD = pytest.StashKey[World]()
_PROFILE = pytest.StashKey[Profile]()
_TRANSPORT = pytest.StashKey[str]()
_PROGRESS = pytest.StashKey[ProgressSink]()
#: the runner's own progress for an in-process session (it outlives the session: a run's
#: retry session adds to the same lines and summary); set before this plugin's configure
PROGRESS_KEY = _PROGRESS
#: the session made its sink itself (``--kit-progress -``) and closes it
_OWN_PROGRESS = pytest.StashKey[bool]()
#: the seconds of a scenario's set-up, added to its call's in the progress lines
_SETUP_SECONDS = pytest.StashKey[float]()
#: decision numbers a scenario may cite as ``@decision-N`` (spec/decisions.md)
_DECISION_TAGS = range(1, 100)
DOCUMENT_TAGS = (
    "SPEC-02", "SPEC-03-07", "SPEC-04", "SPEC-06", "SPEC-10", "SPEC-11", "L2-04a", "L2-10a",
    "HTTP", "LUJ",
)  # fmt: skip


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("odoo-mcp-conformance")
    group.addoption("--kit-target", required=True, help="target TOML file")
    group.addoption("--kit-fake-url", default="", help="a running fake Odoo (default: serve one)")
    group.addoption("--kit-odoo-version", default="19.0", help="fake Odoo version to serve")
    group.addoption(
        "--kit-odoo-url",
        default="",
        help="a real Odoo instead of the fake (its users from the variables of "
        "real_odoo.ENVIRONMENT): scenarios that need the fake's control are not applicable",
    )
    group.addoption("--kit-odoo-db", default="", help="with --kit-odoo-url: the database")
    group.addoption("--kit-results", default="", help="write raw scenario results (JSON) here")
    group.addoption("--kit-log-dir", default="", help="server stderr logs go here")
    group.addoption(
        "--kit-shard", default="", help="I/N: this process is the I-th of N sharing a run"
    )
    group.addoption(
        "--kit-claims",
        default="",
        help="with --kit-shard: a directory the shards share; each runs the configurations it "
        "claims there, costliest first",
    )
    group.addoption(
        "--kit-progress",
        default="",
        help="'-': a line per scenario as it ends, on this terminal (pytest's own "
        "line per test is left out); a path: write the progress events there (a shard's)",
    )
    group.addoption(
        "--kit-progress-verbose",
        action="store_true",
        help="a line for every scenario (else the failed and inconclusive ones only)",
    )
    group.addoption("--kit-bar", action="store_true", help="draw a progress bar (a terminal)")
    group.addoption(
        "--kit-no-preload",
        action="store_true",
        help="start every server as a new interpreter, even when the target names preload "
        "modules (the fork server is only a speed-up: verdicts do not depend on it)",
    )
    group.addoption(
        "--kit-retry",
        action="store_true",
        help="this session runs again the scenarios a run found inconclusive: a server that "
        "exits while starting is now judged, and each result says it was retried",
    )
    group.addoption(
        "--kit-profile",
        default="",
        choices=("", *PROFILES),
        help="spec: only seed expectations decide; reference: every expectation (default: "
        "the target's profile)",
    )


def pytest_configure(config: pytest.Config) -> None:
    remember_step_lookups()
    for req_id, row in load_catalogue().items():
        config.addinivalue_line("markers", f"{req_id}: {row.keyword} {row.summary[:70]}")
    for doc in DOCUMENT_TAGS:
        config.addinivalue_line("markers", f"{doc}: scenarios of {doc}")
    for name, text in CAPABILITIES.items():
        config.addinivalue_line("markers", f"needs_{name}: needs a target that {text}")
    config.addinivalue_line("markers", "fresh_server: the scenario gets its own server process")
    config.addinivalue_line("markers", "reference: expectations of the reference server only")
    for number in _DECISION_TAGS:
        config.addinivalue_line("markers", f"decision-{number}: rests on decision {number}")
    config.addinivalue_line("markers", "odoo_version(v): the scenario needs a fake Odoo version")
    config.stash[_RESULTS] = []
    judge_exits(config.getoption("--kit-retry"))
    progress = config.getoption("--kit-progress")
    if _PROGRESS in config.stash:
        pass  # the runner's (runner._ProgressTo)
    elif progress == "-":
        config.stash[_OWN_PROGRESS] = True
        config.stash[_PROGRESS] = FeatureProgress(
            _terminal_writer(config),
            verbose=config.getoption("--kit-progress-verbose"),
            bar=config.getoption("--kit-bar"),
        )
    elif progress:
        config.stash[_PROGRESS] = EventFile(Path(progress))


def _terminal_writer(config: pytest.Config) -> Any:
    """Write through pytest's terminal reporter (outside its capture), else to stdout."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")

    def write(text: str) -> None:
        if reporter is not None:
            reporter.write(text, flush=True)
        else:
            sys.stdout.write(text)
            sys.stdout.flush()

    return write


@pytest.hookimpl(tryfirst=True)
def pytest_report_teststatus(
    report: pytest.TestReport, config: pytest.Config
) -> tuple[str, str, str] | None:
    """With the kit's progress on, pytest's letter or line per test is left out (the
    categories stay, so its summary line still counts)."""
    if _PROGRESS not in config.stash:
        return None
    if report.when == "call":
        return report.outcome, "", ""
    if report.failed:
        return "error", "", ""
    return ("skipped", "", "") if report.skipped else ("", "", "")


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """A feature that does not collect (an unknown tag, a step no module defines): its
    reason on stderr, since the kit's sessions print no pytest traceback (``--tb=no``)."""
    if report.failed:
        reason = report.longreprtext.strip().splitlines()
        sys.stderr.write(f"cannot collect {report.nodeid}: {reason[-1] if reason else '?'}\n")


def pytest_collection_finish(session: pytest.Session) -> None:
    """The progress's totals: the scenarios of each feature file this process runs."""
    sink = session.config.stash.get(_PROGRESS, None)
    if sink is not None and not session.config.getoption("--kit-retry"):  # already counted
        counts = Counter(_feature_name(item) for item in session.items)
        shard = session.config.getoption("--kit-shard")
        if shard and not shard.startswith("0/"):
            counts.clear()  # claiming shards collect every scenario: the first one counts them
        sink.collected(dict(sorted(counts.items())))


def _feature_name(item: pytest.Item) -> str:
    scenario = _scenario(item)
    return Path(scenario.feature.rel_filename).name if scenario is not None else ""


#: Given steps that decide which server process a scenario needs
_CONFIGURING = ("the server runs in", "the server setting", "the server connects to Odoo as",
                "the server environment variable", "the server's command line",
                "the server talks to Odoo over", "the server configuration file",
                "the audit log is enabled", "a fresh server",
                "the server reaches Odoo through", "Odoo has no")  # fmt: skip


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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run scenarios grouped by server configuration: each configuration starts one server
    process (about a second of start-up), so grouping cuts a run's wall time by a third.
    The order inside a group stays the feature files' order; verdicts do not depend on it
    (every scenario starts from freshly reset demo data). A shard runs whole groups, those it
    claims as it goes (``--kit-claims``, claims.py)."""
    if config.getoption("--kit-shard") and not config.getoption("--kit-claims"):
        raise pytest.UsageError("--kit-shard needs --kit-claims (the directory the shards share)")
    items.sort(key=_configuration_key)


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    """With ``--kit-claims``: run the groups this shard claims, costliest first."""
    directory = session.config.getoption("--kit-claims")
    if not directory or session.config.option.collectonly or session.testsfailed:
        return None  # pytest's own loop (which also handles collection errors)
    groups = _groups(session.items)
    ordered = sorted(groups.items(), key=lambda kv: (-_cost(kv[1]), kv[0]))
    run_claimed(session, ordered, Claims(Path(directory)))
    return True


#: what a scenario costs, in rough seconds: a server start, a scenario, and the waits of
#: scenarios that need their own server (subscriptions poll, limits count a window); fitted
#: on a run's durations with the reference's fork server (forkserver.py)
_START_COST, _SCENARIO_COST, _FRESH_COST = 0.3, 0.05, 2.0


def _groups(items: list[pytest.Item]) -> dict[tuple[str, ...], list[pytest.Item]]:
    """Items by server configuration, each group in collection order."""
    groups: dict[tuple[str, ...], list[pytest.Item]] = {}
    for item in items:
        groups.setdefault(_configuration_key(item), []).append(item)
    return groups


def _cost(group: list[pytest.Item]) -> float:
    fresh = sum(1 for item in group if item.get_closest_marker("fresh_server"))
    return _START_COST + _SCENARIO_COST * len(group) + _FRESH_COST * fresh


@pytest.fixture(scope="session")
def kit_target(pytestconfig: pytest.Config) -> Target:
    return load_target(Path(pytestconfig.getoption("--kit-target")))


def kit_profile(config: pytest.Config) -> Profile:
    """The run's profile: the option, else the target's own (``spec`` unless it says)."""
    if _PROFILE not in config.stash:
        given = config.getoption("--kit-profile")
        target = load_target(Path(config.getoption("--kit-target")))
        config.stash[_PROFILE] = given if given in PROFILES else target.target.profile
    return config.stash[_PROFILE]


@pytest.fixture(scope="session")
def kit_log_dir(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = pytestconfig.getoption("--kit-log-dir")
    path = Path(given) if given else tmp_path_factory.mktemp("server-logs")
    shard = pytestconfig.getoption("--kit-shard")
    if shard:  # shards number their servers alike: one directory each
        path = path / f"shard-{shard.split('/')[0]}"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def fake_odoo_url(pytestconfig: pytest.Config) -> Iterator[str]:
    given = pytestconfig.getoption("--kit-odoo-url") or pytestconfig.getoption("--kit-fake-url")
    if given:
        yield given
        return
    from fake_odoo.handle import FakeOdoo
    from fake_odoo.server import BackgroundServer

    with BackgroundServer(FakeOdoo(pytestconfig.getoption("--kit-odoo-version"))) as server:
        yield server.url


@pytest.fixture(scope="session")
def control(pytestconfig: pytest.Config, fake_odoo_url: str) -> Iterator[OdooBackend]:
    client: OdooBackend
    if pytestconfig.getoption("--kit-odoo-url"):  # issue 38: the implementer's own Odoo
        client = RealOdoo.from_environment(fake_odoo_url, pytestconfig.getoption("--kit-odoo-db"))
    else:
        client = FakeOdooControl(fake_odoo_url)
    yield client
    if isinstance(client, RealOdoo):
        client.reset()  # what the last scenario created
    client.close()


@pytest.fixture(scope="session")
def server_pool(
    pytestconfig: pytest.Config, kit_target: Target, kit_log_dir: Path
) -> Iterator[ServerPool]:
    forkserver = None
    preload = kit_target.target.preload
    if preload and not pytestconfig.getoption("--kit-no-preload") and forkserver_supported():
        log = kit_log_dir / "forkserver.stderr.log"
        forkserver = _shared_forkserver(tuple(preload), log)
    shared = forkserver is not None and forkserver in _FORKSERVERS.values()
    pool = ServerPool(kit_log_dir, forkserver=forkserver, owns_forkserver=not shared)
    yield pool
    pool.close()


#: ``ODOO_MCP_KIT_SHARE_FORKSERVER=1``: several kit sessions in one process (the kit's own
#: tests run scoped sessions by the hundred) keep one fork server per preload list, whose
#: imports (1.4 s of CPU for the reference) are then paid once; closed at exit
_FORKSERVERS: dict[tuple[str, ...], Forkserver] = {}


def _shared_forkserver(preload: tuple[str, ...], log: Path) -> Forkserver:
    if os.environ.get("ODOO_MCP_KIT_SHARE_FORKSERVER") != "1":
        return Forkserver(sys.executable, preload, inherited_env(), log)
    if preload not in _FORKSERVERS:
        _FORKSERVERS[preload] = Forkserver(sys.executable, preload, inherited_env(), log)
        atexit.register(_FORKSERVERS[preload].close)
    return _FORKSERVERS[preload]


@pytest.fixture
def world(
    request: pytest.FixtureRequest,
    kit_target: Target,
    control: OdooBackend,
    server_pool: ServerPool,
    tmp_path: Path,
) -> Iterator[World]:
    """A clean scenario: demo data as built, no faults, empty call log."""
    for marker in request.node.iter_markers():
        if marker.name.startswith("needs_"):
            feature = marker.name.removeprefix("needs_")
            if feature not in kit_target.capabilities.features:
                capability = CAPABILITIES.get(feature)
                if capability is not None and capability.required_for(kit_target.target.transport):
                    # a MUST cannot be declared away: not claiming it is not implementing it
                    pytest.fail(f"{NOT_IMPLEMENTED}{capability.why_required}", pytrace=False)
                pytest.skip(f"{NOT_APPLICABLE}the target does not claim {feature!r}")
    control.begin_scenario()
    state = World(kit_target, control, server_pool, tmp_path)
    state.fresh = request.node.get_closest_marker("fresh_server") is not None
    state.checks = CheckRecorder(scenario_source(m.name for m in request.node.iter_markers()))
    request.node.stash[_WORLD] = state
    yield state
    control.end_scenario()
    state.release()
    server_pool.release_fresh()
    if isinstance(control, RealOdoo):
        control.reset()  # the records this scenario created go now: the database as found
    if control.modules_removed:  # the next scenario meets every module installed
        control.reset()


def pytest_bdd_before_step_call(step: Any, step_func_args: dict[str, Any]) -> None:
    """Tell the scenario's recorder which step runs (with its ``[source]`` prefix)."""
    world = step_func_args.get("world")
    if isinstance(world, World):
        world.checks.begin_step(step.name)


def pytest_bdd_step_error(
    request: pytest.FixtureRequest, step: Any, exception: BaseException
) -> None:
    """A Given or When step that raised ends the scenario: one failed check says where."""
    world = request.node.stash.get(_WORLD, None)
    if world is not None:
        world.checks.begin_step(step.name)
        readable = isinstance(
            exception, (AssertionError, pytest.fail.Exception, pytest.skip.Exception)
        )
        if isinstance(exception, NeedsFake):
            return  # not a check: the scenario is not applicable (_record)
        cause = None if readable else cause_of(exception)
        if cause is not None:  # issue 38: a timeout or a lost connection is no verdict
            world.checks.inconclusive(cause)
            return
        world.checks.record(
            False, in_words(exception) if readable else unreadable(exception, world)
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "setup":
        item.stash[_SETUP_SECONDS] = report.duration
    if report.when == "call" or (report.when == "setup" and not report.passed):
        cause = None
        if call.excinfo is not None and isinstance(call.excinfo.value, NeedsFake):
            # a real Odoo cannot do what the scenario needs: not applicable, with the reason
            report.outcome, report.longrepr = (
                "skipped",
                ("", 0, NOT_APPLICABLE + str(call.excinfo.value)),
            )
        elif report.when == "setup" and call.excinfo is not None:
            cause = cause_of(call.excinfo.value)  # e.g. the fake too slow to reset its data
        _record(item, report, setup_cause=cause)
    return report


def _record(item: pytest.Item, report: pytest.TestReport, *, setup_cause: str | None) -> None:
    """One raw result per scenario: its checks and its verdict in the run's profile; a set-up
    that got no answer in time (``setup_cause``) leaves it inconclusive (issue 38)."""
    scenario = _scenario(item)
    markers = {m.name for m in item.iter_markers()}
    tags = sorted(m for m in markers if REQ_ID.fullmatch(m))
    default = scenario_source(markers)
    profile = kit_profile(item.config)
    world = item.stash.get(_WORLD, None)
    checks: list[Check] = list(world.checks.checks) if world is not None else []
    notes: tuple[str, ...] = ()
    outcome: str
    if report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        if reason.startswith(NOT_APPLICABLE):
            outcome, message = "not_applicable", reason.removeprefix(NOT_APPLICABLE)
        else:  # a bare skip is a check that could not run: a failure
            outcome, message = "failed", f"scenario skipped without a verdict: {reason}"
        checks = []
    else:
        if setup_cause is not None:
            checks.append(
                Check(step="(scenario set-up)", source=default, outcome="inconclusive",
                      message=setup_cause)
            )  # fmt: skip
        elif report.failed and not any(c.outcome != "passed" for c in checks):
            # a failure outside the steps (set-up, e.g. a MUST the target does not claim)
            step = "(scenario set-up)" if report.when == "setup" else "(scenario)"
            checks.append(
                Check(step=step, source=default, outcome="failed", message=_short(report))
            )
        if report.when == "call" and world is not None:
            checks += _invariant_checks(item, world, tags)
        outcome, message, notes = judge(checks, profile)
        if report.when == "call":  # pytest's own summary agrees with the kit's verdict
            report.outcome = "failed" if outcome in ("failed", "inconclusive") else "passed"
            report.longrepr = message if report.outcome == "failed" else None
    feature = scenario.feature.rel_filename if scenario is not None else ""
    sink = item.config.stash.get(_PROGRESS, None)
    if sink is not None:
        seconds = item.stash.get(_SETUP_SECONDS, 0.0) if report.when == "call" else 0.0
        sink.finished(
            Finished(
                feature=Path(feature).name if feature else "",
                scenario=scenario.name if scenario is not None else item.name,
                outcome=outcome,
                seconds=seconds + report.duration,
                message=message if outcome in ("failed", "inconclusive") else "",
                requirements=tuple(tags),
                retried=item.config.getoption("--kit-retry"),
            )
        )
    item.config.stash[_RESULTS].append(
        {
            "id": item.nodeid.split("::")[-1],
            "feature": Path(feature).name if feature else "",
            "scenario": scenario.name if scenario is not None else item.name,
            "requirements": tags,
            "source": default.label,
            "outcome": outcome,
            "message": message,
            "notes": notes,
            "checks": [c.model_dump(mode="json") for c in checks],
            "protocol": _protocol(item, world),
            "retried": item.config.getoption("--kit-retry"),
        }
    )


_FIELD_TYPES = pytest.StashKey[FieldTypes]()


def _invariant_checks(item: pytest.Item, world: World, tags: list[str]) -> list[Check]:
    """Issue 36: the seed rules judged on every answer the scenario received."""
    answers = [*(world.driver.scenario_answers() if world.driver else ()), *world.raw_answers]
    if not answers:
        return []
    if _FIELD_TYPES not in item.config.stash:
        item.config.stash[_FIELD_TYPES] = FieldTypes(world.control)
    types = item.config.stash[_FIELD_TYPES]
    types.new_scenario()
    scope = Scope.of(world.settings, world.raw_env, world.command_line)
    return judge_answers(answers, Context(types, scope), tags)


def _protocol(item: pytest.Item, world: World | None) -> str:
    """How the scenario reached the server, and Odoo when it chose a protocol."""
    if _TRANSPORT not in item.config.stash:
        target = load_target(Path(item.config.getoption("--kit-target")))
        item.config.stash[_TRANSPORT] = target.target.transport
    transport = item.config.stash[_TRANSPORT]
    odoo = world.settings.get("odoo_protocol") if world is not None else None
    return f"{transport}, Odoo over {odoo}" if isinstance(odoo, str) else transport


def _short(report: pytest.TestReport) -> str:
    """The failure's last meaningful line: the assertion, not the traceback."""
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(report.longrepr)
    return text.strip().splitlines()[0][:500] if text.strip() else "failed"


def pytest_sessionfinish(session: pytest.Session) -> None:
    sink = session.config.stash.get(_PROGRESS, None)
    if isinstance(sink, FeatureProgress) and session.config.stash.get(_OWN_PROGRESS, False):
        sink.close()
    target = session.config.getoption("--kit-results", default="")
    if target:
        collected: list[dict[str, Any]] = session.config.stash[_RESULTS]
        results = sorted(collected, key=lambda r: (r["feature"], r["id"]))
        Path(target).write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
