"""``odoo-mcp-conformance``: run the kit against a target, or print the traceability report."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from odoo_mcp_conformance.paths import find_target

if TYPE_CHECKING:
    from odoo_mcp_conformance.report import RunReport

__all__ = ["main"]


class _Version(argparse.Action):
    """``--version``: the installed distribution's version, read only when asked (importing
    ``importlib.metadata`` costs start-up time every other command would pay)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, argparse.SUPPRESS, nargs=0, help="print the version")

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kw: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("odoo-mcp-reference")
        except PackageNotFoundError:  # a checkout on sys.path, not installed
            number = "unknown"
        print(f"{parser.prog} {number}")
        parser.exit()


#: what ``run`` imports from the ``conformance`` extra (``trace``, ``--help`` and ``--version``
#: need none of it)
EXTRA_MODULES = ("pytest", "pytest_bdd", "jsonschema", "hypothesis")


def missing_extra() -> list[str]:
    """The modules of the ``conformance`` extra that cannot be imported here."""
    missing = []
    for name in EXTRA_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a broken or half-removed installation
            found = False
        if not found:
            missing.append(name)
    return missing


def _needs_extra(missing: Sequence[str]) -> int:
    print(
        "odoo-mcp-conformance needs the 'conformance' extra: "
        f"pip install 'odoo-mcp-reference[conformance]' (missing: {', '.join(missing)})",
        file=sys.stderr,
    )
    return 2


def _run_kit(args: argparse.Namespace) -> RunReport:
    from odoo_mcp_conformance.runner import run_kit

    return run_kit(
        find_target(args.target),
        Path(args.report_dir),
        baseline_path=Path(args.baseline) if args.baseline else None,
        strict=args.strict,
        odoo_version=args.odoo_version,
        features=Path(args.features) if args.features else None,
        select=args.select,
        fake_url=args.fake_url,
        quiet=args.quiet,
        profile=args.profile,
        workers=args.workers,
        preload=not args.no_preload,
        time_scale=args.time_scale,
        odoo_url=args.odoo_url,
        odoo_db=args.odoo_db or "",
    )


def _run(args: argparse.Namespace) -> int:
    missing = missing_extra()
    if missing:  # before anything starts: the scenarios' worker processes need them too
        return _needs_extra(missing)
    if args.odoo_url and not args.odoo_db:
        print("error: --odoo-url needs --odoo-db (the database to run in)", file=sys.stderr)
        return 2
    try:
        report = _run_kit(args)
    except ModuleNotFoundError as exc:  # found present above, yet not importable
        if (exc.name or "").partition(".")[0] not in EXTRA_MODULES:
            raise
        return _needs_extra([exc.name or "?"])
    except RuntimeError as exc:  # nothing was judged: not a verdict, a broken run
        print(f"error: {exc}", file=sys.stderr)
        return 2
    counts = ", ".join(f"{n} {status}" for status, n in report.requirement_counts.items())
    print(f"\n{report.target} (profile {report.profile}): requirements {counts}")
    scenario_counts = ", ".join(f"{n} {o}" for o, n in report.scenario_counts.items())
    print(f"{report.target}: scenarios {scenario_counts}")
    for req_id in report.warnings:
        print(f"warning: SHOULD requirement {req_id} fails")
    for req_id in report.unexpected_failures:
        print(f"FAIL: {req_id} fails and is not in the baseline")
    for req_id in report.stale_baseline_entries:
        print(f"FAIL: baseline entry {req_id} no longer fails: remove it")
    if report.inconclusive:
        print(
            f"INCONCLUSIVE: {', '.join(report.inconclusive)} got no verdict (a kit error: "
            "a timeout or a lost connection, twice); see report.md and server-logs/"
        )
    print(f"reports in {args.report_dir} (report.json, report.md, junit.xml)")
    if not report.meets_baseline:
        return 1
    return INCONCLUSIVE_EXIT if report.inconclusive else 0


#: the exit status of a run whose verdicts all meet the baseline but where some scenario got
#: no verdict (issue 38): not a pass, not a failure of the implementation
INCONCLUSIVE_EXIT = 3


def _noninterference(args: argparse.Namespace) -> int:
    """Decision 39: blocked data must change no answer; exit 1 on any leak."""
    missing = missing_extra()
    if missing:
        return _needs_extra(missing)
    from odoo_mcp_conformance.noninterference.run import MODES, USERS, run_noninterference

    report_dir = Path(args.report_dir)
    (report_dir / "server-logs").mkdir(parents=True, exist_ok=True)
    report = run_noninterference(
        find_target(args.target),
        log_dir=report_dir / "server-logs",
        examples=args.examples,
        seed=args.seed,
        version=args.odoo_version,
        modes=args.modes or tuple(MODES),
        users=args.users or USERS,
        probes=not args.no_probes,
    )
    (report_dir / "noninterference.json").write_text(
        json.dumps(report.as_json(), indent=1, sort_keys=True, default=str) + "\n"
    )
    print(report.text())
    print(f"report in {report_dir / 'noninterference.json'}")
    return 0 if report.passed else 1


def _trace(args: argparse.Namespace) -> int:
    from odoo_mcp_conformance.catalogue import load_catalogue
    from odoo_mcp_conformance.trace.build import build_trace, check_trace, write_trace

    for name in args.unit_results or ():
        if not Path(name).is_file():  # a proof that was asked for must not vanish quietly
            print(f"error: no unit-test results at {name}", file=sys.stderr)
            return 2
    for name in args.mutation_results or ():
        if not Path(name).exists():
            print(f"error: no mutation results at {name}", file=sys.stderr)
            return 2

    try:
        trace = build_trace(
            results=[Path(path) for path in args.results or ()],
            code_dirs=[Path(d) for d in args.code] if args.code else None,
            unit_results=[Path(path) for path in args.unit_results or ()],
            mutation_results=[Path(path) for path in args.mutation_results or ()],
        )
    except FileNotFoundError as exc:  # e.g. an installed kit: no checkout's src/ to read
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.out:
        write_trace(trace, Path(args.out))
    counts = ", ".join(f"{n} {status}" for status, n in trace.counts.items())
    print(f"traceability: {len(trace.rows)} requirements: {counts}")
    for document, score in trace.mutation_scores.items():
        print(
            f"mutation {document}: {score.killed}/{score.mutants} mutants killed, "
            f"{score.proven}/{score.observable} seed requirements proven"
        )
    # one list of what must be proven: the catalogue's ``must_prove`` documents
    required = load_catalogue().must_prove if args.require is None else args.require
    problems = check_trace(trace, documents=required) if args.check else []
    for problem in problems:
        print(f"FAIL: {problem}")
    return 1 if problems else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="odoo-mcp-conformance", description=__doc__)
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the features against a target")
    run.add_argument(
        "--target",
        required=True,
        help="target TOML file, or the name of a shipped one: reference, reference-http",
    )
    run.add_argument("--report-dir", required=True, help="where report.json/.md/junit.xml go")
    run.add_argument("--baseline", help="expected failures (default: baselines/<target>.toml)")
    run.add_argument("--strict", action="store_true", help="SHOULD failures fail the run")
    run.add_argument("--odoo-version", default="19.0", help="fake Odoo version (default 19.0)")
    run.add_argument("--features", help="feature directory (default: the bundled features)")
    run.add_argument("-k", "--select", help="pytest -k expression to run a subset")
    backend = run.add_mutually_exclusive_group()
    backend.add_argument("--fake-url", help="use a running fake Odoo instead of serving one")
    backend.add_argument(
        "--odoo-url",
        help="run against a real Odoo (with --odoo-db; an admin from ODOO_MCP_KIT_ADMIN_LOGIN and "
        "ODOO_MCP_KIT_ADMIN_API_KEY or ODOO_MCP_KIT_ADMIN_PASSWORD, an ordinary user from "
        "ODOO_MCP_KIT_USER_LOGIN and ODOO_MCP_KIT_USER_API_KEY or ODOO_MCP_KIT_USER_PASSWORD): "
        "scenarios needing the fake's control are not applicable",
    )
    run.add_argument("--odoo-db", help="with --odoo-url: the database the scenarios use")
    run.add_argument(
        "--profile",
        choices=("spec", "reference"),
        help="spec: verdicts from seed expectations only, decisions reported as notes; "
        "reference: every expectation counts (default: the target's profile, else spec)",
    )
    run.add_argument("-q", "--quiet", action="store_true", help="one character per scenario")
    run.add_argument(
        "--workers",
        type=int,
        # two more than the CPUs: scenarios mostly wait (poll intervals, Odoo timeouts, rate
        # windows, a new server settling) and other processes fill those gaps; the reference
        # target on 2 CPUs: 2 workers 32 s, 3 workers 25 s, 4 workers 23 s
        default=min((os.cpu_count() or 1) + 2, 4),
        help="processes sharing the scenarios, each with its own fake Odoo (default: the "
        "number of CPUs plus two, at most 4; 1 runs in this process)",
    )
    run.add_argument(
        "--time-scale",
        type=float,
        metavar="F",
        help="multiply every wait of the kit by F (default: measured at the start of the run "
        "from how busy the machine is; 1 keeps the target's and the features' own times)",
    )
    run.add_argument(
        "--no-preload",
        action="store_true",
        help="start every server as a new interpreter, even for a target that names modules "
        "to preload (a speed-up only: the verdicts are the same)",
    )
    run.set_defaults(func=_run)
    ni = sub.add_parser(
        "noninterference",
        help="two fake Odoo databases differing only in blocked data: every answer must match",
    )
    ni.add_argument("--target", required=True, help="target TOML file, or a shipped name")
    ni.add_argument("--report-dir", required=True, help="where noninterference.json goes")
    ni.add_argument(
        "--examples",
        type=int,
        default=25,
        help="generated call sequences per mode and user (default 25; 0: the probes only)",
    )
    ni.add_argument("--seed", type=int, default=26, help="the generator's seed (default 26)")
    ni.add_argument("--odoo-version", default="19.0", help="fake Odoo version (default 19.0)")
    ni.add_argument("--modes", nargs="*", choices=("readonly", "restricted", "full"))
    ni.add_argument("--users", nargs="*", choices=("admin", "demo"))
    ni.add_argument("--no-probes", action="store_true", help="skip the fixed oracle probes")
    ni.set_defaults(func=_noninterference)
    trace = sub.add_parser("trace", help="requirements x code x scenarios x results")
    trace.add_argument(
        "--results", nargs="*", help="report.json of one or more kit runs (merged per REQ)"
    )
    trace.add_argument(
        "--unit-results",
        action="append",
        metavar="PATH",
        help="the --req-results JSON of a test-suite run (repeatable)",
    )
    trace.add_argument(
        "--mutation-results",
        action="append",
        metavar="PATH",
        help="mutant and variant results (a JSON file or a directory of them; repeatable): "
        "seed requirements no killed mutant proves show as unproven",
    )
    trace.add_argument("--code", nargs="*", help="source directories to scan (default: src/)")
    trace.add_argument("--out", help="write trace.json and trace.md into this directory")
    trace.add_argument("--check", action="store_true", help="fail on testable MUSTs not proven")
    trace.add_argument(
        "--require",
        nargs="*",
        default=None,
        help="documents the check applies to (default: those with must_prove = true in "
        "spec/; --require alone: every document)",
    )
    trace.set_defaults(func=_trace)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
