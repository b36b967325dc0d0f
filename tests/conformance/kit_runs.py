"""Running the kit as a user does (a separate process), for the tests that judge it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from odoo_mcp_conformance.catalogue import load_catalogue
from odoo_mcp_conformance.paths import repo_root

ROOT = repo_root()
KIT = [sys.executable, "-m", "odoo_mcp_conformance.cli"]
#: what must be proven is spec/'s ``must_prove`` list (the kit's ``trace --check`` and tox read
#: it too); the stdio run alone proves all of it but the documents with HTTP-only scenarios
#: (REQ-HTTP-*, REQ-01-10), which the merged stdio + HTTP check covers
MUST_PROVE = load_catalogue().must_prove
#: a directory where the mutant and variant tests write their verdicts when set (``tox -e
#: mutation``, ``tox -e docs``): ``odoo-mcp-conformance trace --mutation-results`` reads it
MUTATION_RESULTS = os.environ.get("ODOO_MCP_MUTATION_RESULTS", "")
PROVEN_DOCUMENTS = tuple(d for d in MUST_PROVE if d not in ("HTTP", "SPEC-01"))


@dataclass(frozen=True)
class KitRun:
    returncode: int
    output: str
    report_dir: Path

    @property
    def report(self) -> dict[str, Any]:
        return dict(json.loads((self.report_dir / "report.json").read_text()))

    def statuses(self) -> dict[str, str]:
        return {row["id"]: row["status"] for row in self.report["requirements"]}

    def failing(self) -> list[str]:
        return sorted(req for req, status in self.statuses().items() if status == "failing")


def run_kit(target: Path, report_dir: Path, *extra: str) -> KitRun:
    """The kit as a user runs it: a separate process, quiet progress."""
    completed = subprocess.run(
        [*KIT, "run", "--target", str(target), "--report-dir", str(report_dir), "-q", *extra],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=ROOT,
        check=False,
    )
    return KitRun(completed.returncode, completed.stdout + completed.stderr, report_dir)


def feature_subset(directory: Path, names: Sequence[str]) -> Path:
    """A features directory holding only ``names`` (copied from the project's)."""
    directory.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(ROOT / "features" / name, directory / name)
    return directory


Job = tuple[Path, Path, Sequence[str]]


def variant_jobs(
    directory: Path,
    variants: Mapping[str, Mapping[str, Sequence[str]]],
    tmp_path_factory: Any,
    *extra: str,
) -> dict[str, Job]:
    """One kit run per variant of ``directory`` (broken or conformant servers), each on the
    feature files its ``expected.toml`` entry names, in one process (they run two at a
    time already: more processes would only add start-ups)."""
    jobs: dict[str, Job] = {}
    for name, spec in variants.items():
        base = tmp_path_factory.mktemp(f"{directory.name}-{name}")
        features = feature_subset(base / "features", spec["features"])
        # ``select``: the scenarios where the choice shows, when a feature holds many others
        select = ("-k", str(spec["select"])) if spec.get("select") else ()
        jobs[name] = (
            directory / f"{name}.toml",
            base / "report",
            ("--features", str(features), "--workers", "1", *select, *extra),
        )
    return jobs


def run_kits(
    jobs: Mapping[str, Job], workers: int = 3, *, separately: bool = False
) -> dict[str, KitRun]:
    """Several kit runs, split over ``workers`` processes that each run their share one
    after the other on one fake Odoo (kit_batch.py: the imports and the fake's start are paid
    once per process, not per run). Each is one process ping-ponging with its server and the
    fake; the longest should come first, and the shares alternate so each gets some.
    ``separately``: each run is its own ``odoo-mcp-conformance run`` process serving its own
    fake, as a user runs it (a batch's runs use the worker's fake, so ``--workers`` is 1).

    Ctrl-C: the runs under way get the terminal's SIGINT (same process group) and end; the
    runs still queued are cancelled (issue 39: a queued run started once a pool thread was
    free, after the interrupt, and kept the suite waiting two minutes)."""
    if separately:
        pool = ThreadPoolExecutor(workers)
        try:
            futures = {
                name: pool.submit(run_kit, target, report_dir, *extra)
                for name, (target, report_dir, extra) in jobs.items()
            }
            return {name: future.result() for name, future in futures.items()}
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    shares: list[list[str]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for name in sorted(jobs, key=lambda n: -_cost(jobs[n])):  # longest first, to the least loaded
        least = loads.index(min(loads))
        shares[least].append(name)
        loads[least] += _cost(jobs[name])
    pool = ThreadPoolExecutor(workers)
    try:
        done = list(pool.map(lambda share: _run_batch(share, jobs), [s for s in shares if s]))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return {name: run for batch in done for name, run in batch.items()}


def _cost(job: Job) -> float:
    """A run's rough cost: its feature files, four times more when it runs them whole (a
    ``-k`` scoped run picks a few scenarios)."""
    extra = list(job[2])
    directory = Path(extra[extra.index("--features") + 1]) if "--features" in extra else None
    files = len(list(directory.glob("*.feature"))) if directory else 22
    return files * (1 if "-k" in extra else 4)


def _run_batch(names: Sequence[str], jobs: Mapping[str, Job]) -> dict[str, KitRun]:
    first_dir = jobs[names[0]][1]
    listing = first_dir.parent / f"batch-{names[0]}.json"
    listing.parent.mkdir(parents=True, exist_ok=True)
    listing.write_text(
        json.dumps(
            [
                {
                    "target": str(jobs[n][0]),
                    "report_dir": str(jobs[n][1]),
                    "extra": list(jobs[n][2]),
                }
                for n in names
            ]
        )
    )
    completed = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("kit_batch.py")), str(listing)],
        capture_output=True,
        text=True,
        timeout=3600,
        cwd=ROOT,
        check=False,
    )
    runs: dict[str, KitRun] = {}
    for name in names:
        report_dir = jobs[name][1]
        exit_file, output_file = report_dir / "kit-exit", report_dir / "kit-output.txt"
        if not exit_file.exists():  # the worker died before this run: say so, loudly
            runs[name] = KitRun(-1, completed.stdout + completed.stderr, report_dir)
            continue
        runs[name] = KitRun(int(exit_file.read_text()), output_file.read_text(), report_dir)
    return runs


def selected_names(session: Any, test: str) -> list[str]:
    """The ``name`` parameters of the ``test`` items this session runs (``-k name`` runs
    one): the kit runs a proof module hands the shared pool (conftest.py ``proof_runs``)."""
    return sorted(
        {
            item.callspec.params["name"]
            for item in session.items
            if getattr(item, "originalname", "") == test and hasattr(item, "callspec")
        }
    )


def runs_named(runs: Mapping[str, KitRun], prefix: str) -> dict[str, KitRun]:
    """The pool's runs ``<prefix>:<name>`` of one proof module, by name."""
    return {key.split(":", 1)[1]: run for key, run in runs.items() if key.startswith(prefix + ":")}


def tagging(requirements: Sequence[str]) -> list[str]:
    """The feature files that tag any of ``requirements`` (on a scenario or the feature)."""
    pattern = re.compile("|".join(rf"@{re.escape(req)}(?![\w-])" for req in requirements))
    return sorted(
        path.name
        for path in (ROOT / "features").glob("*.feature")
        if pattern.search(path.read_text())
    )


_TAG = re.compile(r"@(REQ-[\w-]+)")
_REQ_TOKEN = re.compile(r"REQ-(?:\d{2}[a-z]?|[A-Z]+)-\d{2}")


def tagged_scenarios(
    features: Sequence[str], selection: str, directory: Path = ROOT / "features"
) -> int:
    """About how many scenarios ``-k selection`` runs in ``features``, a mutant's cost for the
    CI cover (a run costs about what its scenarios do, 1 to 75 of them: issue 39). A
    selection naming requirements only (``REQ-a or REQ-b``) runs the scenarios tagged with
    them, an outline's example rows each; any other expression was written to pick a few
    scenarios by name, and counts as the fewer of its requirements' scenarios and 5."""
    terms = selection.split(" or ")
    if not all(_REQ_TOKEN.fullmatch(term.strip()) for term in terms):
        named = _REQ_TOKEN.findall(selection)
        return min(tagged_scenarios(features, " or ".join(named), directory), 5) if named else 1
    wanted = {term.strip() for term in terms}
    count = 0
    for name in features:
        feature_tags: set[str] = set()
        pending: set[str] = set()
        tags: set[str] = set()  # the scenario's, with its feature's
        outline = rows = 0
        for line in (directory / name).read_text().splitlines():
            text = line.strip()
            if text.startswith("@"):
                pending |= set(_TAG.findall(text))
            elif text.startswith("Feature:"):
                feature_tags, pending = pending, set()
            elif text.startswith(("Scenario", "Example:")):
                count += rows if outline else 0
                tags, pending = feature_tags | pending, set()
                outline, rows = text.startswith("Scenario Outline"), 0
                count += 0 if outline else bool(tags & wanted)
            elif text.startswith("Examples"):
                examples, pending, header = tags | pending, set(), True
            elif text.startswith("|") and outline:
                if header:
                    header = False
                else:
                    rows += bool(examples & wanted)
        count += rows if outline else 0
    return count


def mutant_jobs(mutants: Mapping[str, Any], tmp_path_factory: Any) -> dict[str, Job]:
    """One spec-profile kit run per mutant (conformance/mutants/): a target file naming
    ``run.py NAME`` over the mutant's transport, its scenarios selected by ``-k``."""
    jobs: dict[str, Job] = {}
    targets = ROOT / "conformance" / "targets"
    launcher = ROOT / "conformance" / "mutants" / "run.py"
    for name, mutant in mutants.items():
        base = tmp_path_factory.mktemp(f"mutant-{name}")
        http = mutant.transport == "http"
        parent = targets / ("reference-http.toml" if http else "reference.toml")
        flags = ["--transport", "http", "--port", "{port}", "--http-auth", "on"] if http else []
        command = ["{python}", str(launcher), name, *flags, *mutant.args]
        target = base / "target.toml"
        target.write_text(
            f"extends = {json.dumps(str(parent))}\n\n[target]\n"
            f'name = "mutant-{name}"\nprofile = "spec"\n'
            f"command = {json.dumps(command)}\n"
        )
        extra: list[str] = ["--workers", "1", "--profile", "spec", "-k", mutant.selection]
        # only the feature files that tag what it must fail: collection is a run's fixed cost
        features = mutant.features or tagging(mutant.kills)
        extra += ["--features", str(feature_subset(base / "features", features))]
        jobs[name] = (target, base / "report", tuple(extra))
    return jobs
