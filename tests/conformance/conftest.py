"""The kit runs against the reference server and the example target, shared by the tests
that judge them (run side by side: each keeps about one core busy)."""

from __future__ import annotations

import sys
import xmlrpc.client
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

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


#: the worker processes of the reference's runs: each more one costs a start-up (a fake with
#: its demo data, the kit's and the fork server's imports: about 6 CPU-s measured), and the
#: suite's other worker keeps the second core busy anyway; test_workers.py proves the
#: verdicts do not depend on the number (the kit's default, up to 4, is ``tox -e conformance``)
FULL_RUN_WORKERS = 2


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


@pytest.fixture(scope="session")
def real_odoo() -> Iterator[ServedOdoo]:
    """The fake as a real Odoo; its users go to the kit as an implementer gives theirs
    (``users``: the environment of the kit run, set only around it: the suite's other
    servers must not inherit them)."""
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
def full_runs(tmp_path_factory: pytest.TempPathFactory, real_odoo: ServedOdoo) -> dict[str, KitRun]:
    real = tmp_path_factory.mktemp("kit-real-odoo")
    with pytest.MonkeyPatch.context() as env:  # the real-Odoo run's users, for its run only
        for name, value in real_odoo.users.items():
            env.setenv(name, value)
        return _full_runs(tmp_path_factory, real_odoo, real)


def _full_runs(
    tmp_path_factory: pytest.TempPathFactory, real_odoo: ServedOdoo, real: Path
) -> dict[str, KitRun]:
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
            "reference": (
                TARGETS / "reference.toml",
                tmp_path_factory.mktemp("kit-ref"),
                ("--workers", str(FULL_RUN_WORKERS)),
            ),
            "example-other": (
                TARGETS / "example-other.toml",
                (example := tmp_path_factory.mktemp("kit-example")) / "report",
                (
                    "--workers",
                    "1",
                    "--features",
                    str(feature_subset(example / "features", EXAMPLE_FEATURES)),
                ),
            ),
            **{
                f"reference@{version}": (
                    TARGETS / "reference.toml",
                    (base := tmp_path_factory.mktemp(f"kit-ref-{version}")) / "report",
                    (
                        "--workers",
                        str(FULL_RUN_WORKERS),
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
    import importlib

    jobs: dict[str, Job] = {}
    for name in PROOF_MODULES:
        module = sys.modules.get(name) or importlib.import_module(name)
        jobs.update(module.proof_jobs(request.session, tmp_path_factory))
    return run_kits(jobs)
