"""The kit runs against the reference server and the example target, and the proof runs
(mutants, broken and conformant servers), shared by the tests that judge them.

They start in the background as soon as the session knows its tests (``pytest_collection_
finish``), so that the rest of the suite runs while they do: they are separate processes
waiting on one another as much as computing, and the unit tests, run after them one by one,
left a core idle for minutes (issue 39: the suite within 10 minutes on 2 cores). A test that
needs them waits for them then. The session's end or an interrupt stops them
(``kit_runs.stop_all``); a run that never started reports so and its tests fail.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import xmlrpc.client
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import kit_runs
import pytest
from kit_runs import ROOT, Job, KitRun, feature_subset, run_kits

from fake_odoo.handle import FakeOdoo
from fake_odoo.server import BackgroundServer
from odoo_mcp_conformance.real_odoo import ENVIRONMENT

TARGETS = ROOT / "conformance" / "targets"
#: where the example target's other names and value forms matter: its mode values, its JSON
#: lists, its limit settings, and the contracts it does not claim (not applicable)
EXAMPLE_FEATURES = (
    "safety_modes.feature", "safety_lists.feature", "safety_limits_audit.feature",
    "contracts.feature",
)  # fmt: skip
#: where Odoo versions differ (protocols, error texts, method signatures): the reference is
#: also judged against a fake Odoo 17.0 there (issue 28)
VERSION_FEATURES = (
    "connection.feature", "errors.feature", "error_patterns.feature",
    "tools_execute.feature", "tools_meta.feature",
)  # fmt: skip
OTHER_ODOO_VERSIONS = ("17.0",)
#: issue 38: the kit with ``--odoo-url`` against a fake without its control API, as it meets
#: an implementer's real Odoo: creating, writing and removing its own records, reading as the
#: admin and as an ordinary user (``tox -e kit-real-odoo`` runs every feature so)
REAL_ODOO_FEATURES = ("tools_read.feature", "tools_write.feature")
#: the models those features create records in (or beside: a company's partner)
REAL_ODOO_MODELS = ("res.partner", "res.company", "crm.lead", "sale.order", "product.product")


@dataclass(frozen=True)
class ServedOdoo:
    """A fake Odoo served without ``/__fake__/``: the kit can only use Odoo's own API."""

    url: str
    db: str
    #: what the kit's runs must leave as they found it
    snapshot: dict[str, list[tuple[int, str]]]
    #: the kit's variables naming its admin and ordinary user (real_odoo.ENVIRONMENT)
    users: dict[str, str]

    def records(self, model: str) -> list[tuple[int, str]]:
        """Every record of ``model`` (archived too) as (id, write_date), over XML-RPC."""
        admin = ENVIRONMENT["admin"]
        with xmlrpc.client.ServerProxy(f"{self.url}/xmlrpc/2/object") as proxy:
            rows = proxy.execute_kw(
                self.db, 2, self.users[admin["api_key"]], model, "search_read", [[]],
                {"fields": ["write_date"], "context": {"active_test": False}},
            )  # fmt: skip
        assert isinstance(rows, list)
        return sorted((int(row["id"]), str(row["write_date"])) for row in rows)


class _Background:
    """The session's shared kit runs, started once, and what they need kept until its end."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(2, thread_name_prefix="kit-runs")
        self.futures: dict[str, Future[dict[str, KitRun]]] = {}
        self.stack = contextlib.ExitStack()
        self.real_odoo: ServedOdoo | None = None

    def start(self, name: str, runs: Callable[[], dict[str, KitRun]]) -> None:
        if name not in self.futures:
            self.futures[name] = self.pool.submit(runs)

    def result(self, name: str, runs: Callable[[], dict[str, KitRun]]) -> dict[str, KitRun]:
        self.start(name, runs)  # not started early (another plugin's collection): now
        return self.futures[name].result()

    def served_odoo(self) -> ServedOdoo:
        if self.real_odoo is None:
            self.real_odoo = self.stack.enter_context(_serve_real_odoo())
        return self.real_odoo

    def close(self) -> None:
        kit_runs.stop_all()
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.stack.close()


_BACKGROUND = _Background()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the shared runs the selected tests need, before the first test runs."""
    if session.config.option.collectonly:
        return
    needed = {name for item in session.items for name in getattr(item, "fixturenames", ())}
    factory = _tmp_path_factory(session.config)
    factory.getbasetemp()  # made (and old ones cleared) here, not by two threads at once
    if "full_runs" in needed:
        _BACKGROUND.start("full", lambda: _full_runs(factory, _BACKGROUND.served_odoo()))
    if "proof_runs" in needed:
        jobs = _proof_jobs(session, factory)  # here: it reads the session's items
        _BACKGROUND.start("proof", lambda: run_kits(jobs))


def pytest_sessionfinish(session: pytest.Session) -> None:
    _BACKGROUND.close()


def _tmp_path_factory(config: pytest.Config) -> pytest.TempPathFactory:
    """The session's own ``tmp_path_factory`` (what the fixture returns), outside a fixture."""
    factory: pytest.TempPathFactory = config._tmp_path_factory  # type: ignore[attr-defined]
    return factory


@contextlib.contextmanager
def _serve_real_odoo() -> Iterator[ServedOdoo]:
    fake = FakeOdoo("19.0", control=False)
    users = {}
    for user, names in ENVIRONMENT.items():
        users[names["login"]] = user
        users[names["api_key"]] = str(fake.credentials()[user]["api_key"])
    with BackgroundServer(fake) as served:
        served_odoo = ServedOdoo(served.url, fake.db.name, {}, users)
        for model in REAL_ODOO_MODELS:
            served_odoo.snapshot[model] = served_odoo.records(model)
        yield served_odoo


@pytest.fixture(scope="session")
def real_odoo() -> ServedOdoo:
    """The fake as a real Odoo; its users go to the kit as an implementer gives theirs
    (``users``: the environment of the kit run alone: the suite's other servers must not
    inherit them)."""
    return _BACKGROUND.served_odoo()


@pytest.fixture(scope="session")
def full_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, KitRun]:
    return _BACKGROUND.result(
        "full", lambda: _full_runs(tmp_path_factory, _BACKGROUND.served_odoo())
    )


def _full_runs(
    tmp_path_factory: pytest.TempPathFactory, real_odoo: ServedOdoo
) -> dict[str, KitRun]:
    real = tmp_path_factory.mktemp("kit-real-odoo")
    return run_kits(
        {
            "reference@real-odoo": (
                TARGETS / "reference.toml",
                real / "report",
                (
                    "--odoo-url",
                    real_odoo.url,
                    "--odoo-db",
                    real_odoo.db,
                    "--features",
                    str(feature_subset(real / "features", REAL_ODOO_FEATURES)),
                ),
            ),
            "reference": (TARGETS / "reference.toml", tmp_path_factory.mktemp("kit-ref"), ()),
            "example-other": (
                TARGETS / "example-other.toml",
                (example := tmp_path_factory.mktemp("kit-example")) / "report",
                ("--features", str(feature_subset(example / "features", EXAMPLE_FEATURES))),
            ),
            **{
                f"reference@{version}": (
                    TARGETS / "reference.toml",
                    (base := tmp_path_factory.mktemp(f"kit-ref-{version}")) / "report",
                    (
                        "--odoo-version",
                        version,
                        "--features",
                        str(feature_subset(base / "features", VERSION_FEATURES)),
                    ),
                )
                for version in OTHER_ODOO_VERSIONS
            },
        },
        separately=True,  # as a user runs it: its own fake, its scenarios over worker shards
        envs={"reference@real-odoo": real_odoo.users},  # the real-Odoo run's users, its own
    )


@pytest.fixture(scope="session")
def reference_run(full_runs: dict[str, KitRun]) -> KitRun:
    return full_runs["reference"]


@pytest.fixture(scope="session")
def other_version_runs(full_runs: dict[str, KitRun]) -> dict[str, KitRun]:
    """The reference judged against each other fake Odoo version, by version."""
    return {version: full_runs[f"reference@{version}"] for version in OTHER_ODOO_VERSIONS}


@pytest.fixture(scope="session")
def real_odoo_run(full_runs: dict[str, KitRun]) -> KitRun:
    return full_runs["reference@real-odoo"]


@pytest.fixture(scope="session")
def example_run(full_runs: dict[str, KitRun]) -> KitRun:
    return full_runs["example-other"]


#: the modules whose kit runs prove the kit both ways, each with ``proof_jobs(session,
#: tmp_path_factory)``: its selected runs, named ``<prefix>:<name>``
PROOF_MODULES = ("test_conformant_servers", "test_broken_servers", "test_mutants")


@pytest.fixture(scope="session")
def proof_runs(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, KitRun]:
    """Every conformant variant, broken server and mutant the session selected, in one pool
    of worker processes, the longest first (all_choices, then the variants' whole features,
    then the scoped runs): three pools one after the other each waited for their slowest
    worker, two thirds of a CI minute."""
    return _BACKGROUND.result(
        "proof", lambda: run_kits(_proof_jobs(request.session, tmp_path_factory))
    )


def _proof_jobs(
    session: pytest.Session, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Job]:
    jobs: dict[str, Job] = {}
    for name in PROOF_MODULES:
        module: Any = sys.modules.get(name) or importlib.import_module(name)
        jobs.update(module.proof_jobs(session, tmp_path_factory))
    return jobs
