"""SPEC-01 / SPEC-11 §9-10: the ``odoo-mcp`` command: ``serve``, ``demo`` and ``check``.

Configuration: command-line flags > environment variables > JSON file (``--config`` or
``ODOO_MCP_CONFIG``) > defaults (REQ-11-27). An invalid configuration prints one line per
problem on stderr and exits 2; a failed Odoo connection exits 1; nothing half-starts
(REQ-11-29, REQ-01-15). Stdout belongs to the MCP stream in ``serve`` and ``demo``.

``demo`` lives in a separate package (it needs the fake Odoo, which the server never imports:
see tests/test_architecture.py) that declares it as a plugin command (``odoo_mcp.plugins``).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import logging
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from importlib.metadata import EntryPoint
from typing import Final, NoReturn

import anyio

from odoo_mcp.adapter.gc_tuning import tune_gc
from odoo_mcp.adapter.server import build_server, server_version, toolset_registry
from odoo_mcp.adapter.stdio import run_stdio
from odoo_mcp.config import (
    CONFIG_PATH_VAR,
    INDEX,
    SETTINGS,
    ConfigError,
    OdooMcpConfig,
    load_config,
    setting_descriptions,
)
from odoo_mcp.connection import ConnectionManager, OdooAuthenticationError, OdooError
from odoo_mcp.plugins import discover, load
from odoo_mcp.registry import ModelRegistry
from odoo_mcp.safety.blocklists import (
    DEFAULT_FIELD_BLOCKLIST,
    DEFAULT_METHOD_BLOCKLIST,
    DEFAULT_MODEL_BLOCKLIST,
    EXTRA_DEFAULT_MODEL_BLOCKLIST,
    WRITE_PROTECTED_MODELS,
)
from odoo_mcp.state import StateUnavailable, open_state, redacted

__all__ = [
    "EXIT_CONFIG",
    "EXIT_FAILED",
    "config_from_args",
    "console",
    "exit_now",
    "main",
    "mcp_url",
    "serve",
]

EXIT_FAILED: Final = 1
EXIT_CONFIG: Final = 2
#: REQ-11-27: the settings with a command-line flag, as each field declares it (secrets have
#: none: they stay in the environment or the file)
_FLAGS: Final = {s.flag: name for name, s in SETTINGS.items() if s.flag is not None}
#: the commands of the server itself; a plugin command (``odoo_mcp.plugins``) cannot replace them
_OWN_COMMANDS: Final = frozenset({"serve", "check"})


class _ParseFailed(Exception):
    """The arguments did not parse without the plugin commands (see :func:`_parse`)."""


class _OwnCommandParser(argparse.ArgumentParser):
    """A parser that raises instead of printing and exiting, for :func:`_parse`'s first try."""

    def error(self, message: str) -> NoReturn:
        raise _ParseFailed(message)


#: REQ-11-25: the secrets have no flag (a flag shows in ``ps`` and shell history)
SECRETS = (
    "The Odoo secret is never a flag: set ODOO_API_KEY (an API key, preferred) or "
    "ODOO_PASSWORD in the environment or the config file (odoo_api_key / odoo_password)."
)


def _parser(
    describe: bool = False,
    plugins: Mapping[str, EntryPoint] | None = None,
    parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser,
) -> argparse.ArgumentParser:
    """REQ-11-27: one flag per flagged setting, a switch for a boolean; ``describe`` adds each
    setting's description (read from the source: only ``--help`` pays for it).  ``plugins``
    are the installed plugin commands (``demo``): they take the same flags."""
    descriptions = setting_descriptions() if describe else {}
    common = parser_class(add_help=False)
    common.add_argument("--config", metavar="PATH", help=f"JSON config file (or {CONFIG_PATH_VAR})")
    for flag, field in _FLAGS.items():
        env = ", ".join(SETTINGS[field].env)
        text = f"{descriptions[field]} ({env})".replace("%", "%%") if describe else None
        if OdooMcpConfig.model_fields[field].annotation is bool:
            common.add_argument(
                flag, dest=field, action="store_const", const="true", default=None, help=text
            )
        else:
            common.add_argument(flag, dest=field, metavar=field.upper(), default=None, help=text)
    common.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any configuration key of the reference, e.g. --set rate_limit_enabled=true",
    )
    parser = parser_class(
        prog="odoo-mcp",
        description="MCP server for Odoo 14-19. Configure with ODOO_URL, ODOO_DB, "
        "ODOO_USERNAME and ODOO_PASSWORD or ODOO_API_KEY (see the README).",
    )
    # REQ-01-17: the package's version, as the server introduces itself
    parser.add_argument("--version", action="version", version=f"%(prog)s {server_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("serve", parents=[common], help="serve MCP (stdio or http)", epilog=SECRETS)
    for name, point in sorted((plugins or {}).items()):
        sub.add_parser(name, parents=[common], help=load(point).help if describe else None)
    sub.add_parser(
        "check", parents=[common], help="validate the configuration and connect", epilog=SECRETS
    )
    return parser


def _parse(
    given: Sequence[str], argv: Sequence[str] | None
) -> tuple[argparse.Namespace, dict[str, EntryPoint]]:
    """REQ-01-07: the parsed arguments and the installed plugin commands.

    issue 17 (cold start): finding the plugins reads every installed package's entry points
    (~8 ms), which ``serve`` and ``check`` do not need. When the first argument is one of
    them and no help is asked, the arguments are parsed without the plugins first; anything
    that does not parse so is parsed again with them, and answered (usage, errors) as always.
    """
    describe = bool({"-h", "--help"} & set(given))
    if given and given[0] in _OWN_COMMANDS and not describe:
        try:
            return _parser(parser_class=_OwnCommandParser).parse_args(argv), {}
        except _ParseFailed:
            pass
    plugins = {name: point for name, point in discover().items() if name not in _OWN_COMMANDS}
    return _parser(describe, plugins).parse_args(argv), plugins


def cli_overrides(args: argparse.Namespace) -> tuple[dict[str, object], list[str]]:
    """REQ-11-27: the values the user gave as flags, by field name; malformed ``--set``s."""
    values: dict[str, object] = {
        field: getattr(args, field) for field in _FLAGS.values() if getattr(args, field, None)
    }
    problems: list[str] = []
    for item in args.settings:
        key, sep, value = str(item).partition("=")
        if not sep or not key.strip():
            problems.append(f"--set {item!r}: expected KEY=VALUE")
        else:
            values[key.strip().lower()] = value
    return values, problems


def config_from_args(
    args: argparse.Namespace,
    environ: Mapping[str, str],
    *,
    fixed: Mapping[str, object] | None = None,
) -> OdooMcpConfig:
    """REQ-11-27/28: load and validate; ``fixed`` overrides everything (the demo's Odoo).

    REQ-11-22/29: the audit log file is opened once here, so that ``serve``, ``check`` and
    ``demo`` refuse to start rather than lose every record."""
    values, problems = cli_overrides(args)
    try:
        config = load_config({**values, **(fixed or {})}, environ=environ, config_path=args.config)
    except ConfigError as exc:
        raise ConfigError([*problems, *exc.problems]) from None
    audit_problem = config.audit_settings().file_problem()
    if audit_problem is not None:
        problems.append(f"{INDEX.label('audit_log_file')}: {audit_problem}")
    if problems:
        raise ConfigError(problems)
    return config


def report_config_error(exc: ConfigError) -> int:
    """REQ-11-29: one clear line per problem, on stderr; exit status 2."""
    count = len(exc.problems)
    print(f"odoo-mcp: invalid configuration ({count} problem(s)):", file=sys.stderr)
    for problem in exc.problems:
        print(f"  - {problem}", file=sys.stderr)
    return EXIT_CONFIG


def _state_failed(config: OdooMcpConfig, exc: StateUnavailable) -> int:
    """Decision 37: a shared state that cannot be reached at start-up stops the start, like an
    Odoo that cannot be reached; the URL is named without its password."""
    print(
        f"odoo-mcp: cannot reach the shared state at {redacted(config.state_url)}: {exc}",
        file=sys.stderr,
    )
    return EXIT_FAILED


def _connection_failed(config: OdooMcpConfig, exc: Exception) -> int:
    """REQ-01-15: a connection failure at start-up exits non-zero with the reason.

    Issue 29: when the answer was not Odoo's (or there was none), what answers at the URL is
    looked at first (a proxy, another web server, HTTPS spoken to in plain HTTP), so that the
    reason names the cause and the fix."""
    from odoo_mcp.connection.negotiation import diagnose_start_failure

    exc = diagnose_start_failure(config.connection_settings(), exc) or exc
    reason = exc.message if isinstance(exc, OdooError) else f"{type(exc).__name__}: {exc}"
    if isinstance(exc, OdooAuthenticationError):
        reason += f": {credentials_fix(config)}"
    url = config.describe()["odoo_url"]
    print(f"odoo-mcp: cannot connect to Odoo at {url}: {reason}", file=sys.stderr)
    return EXIT_FAILED


def _named(field: str) -> str:
    """A setting as a user sets it: its variable, and its flag when it has one."""
    setting = SETTINGS[field]
    return f"{setting.env[0]} ({setting.flag})" if setting.flag else setting.env[0]


def credentials_fix(config: OdooMcpConfig) -> str:
    """REQ-01-15, REQ-02-07: the settings to fix when Odoo refuses the login, as the unknown
    database names ODOO_DB: the login and the secret(s) this configuration sent."""
    secrets = [
        _named(field)
        for field in ("odoo_api_key", "odoo_password")
        if getattr(config, field) is not None
    ]
    return f"check {_named('odoo_username')} and {' or '.join(secrets) or _named('odoo_api_key')}"


LOG_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(level: str) -> None:
    """REQ-10-18, REQ-01-21: one stderr handler whose lines carry the level and the logger
    (``odoo_mcp...``) name; stdout is the MCP stream.

    The SDK's own set-up prints the bare message, or a rich console when ``rich`` happens
    to be installed: replaced, so the log reads the same on every machine.
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())


def mcp_url(config: OdooMcpConfig) -> str:
    """REQ-HTTP-01: the URL of the MCP endpoint ``--transport http`` serves (host, port, path;
    an IPv6 host in brackets)."""
    host = f"[{config.host}]" if ":" in config.host else config.host
    return f"http://{host}:{config.port}{config.mcp_path}"


def serve(
    config: OdooMcpConfig,
    connection: ConnectionManager,
    *,
    own_process: bool = False,
    announce: bool = True,
) -> int:
    """REQ-01-14: config -> MCP server -> Odoo connection -> transport (stdio or http).

    ``own_process``: the process is this server's (the console script), so its garbage
    collector is set for it (issue 30, ``gc_tuning``); a caller's process is left alone.
    ``announce``: say on stderr where HTTP is served (the demo's banner says it already)."""
    state = open_state(config.state_url)  # issue 19: shared by the tools and the HTTP layer
    server = build_server(config, connection, state=state)  # configures logging at log_level
    configure_logging(config.log_level)
    if config.log_level != "debug":
        # REQ-01-21: one line per HTTP request to Odoo is debug detail, not info
        for name in ("httpx2", "httpx", "httpcore"):
            logging.getLogger(name).setLevel(logging.WARNING)

    async def run() -> int:
        try:
            await state.ping()
        except StateUnavailable as exc:
            await state.close()
            return _state_failed(config, exc)
        try:
            await connection.connect()
        except Exception as exc:
            await connection.close()
            await state.close()
            return _connection_failed(config, exc)
        try:
            if config.transport == "http":
                # uvicorn and starlette are for HTTP only: a stdio start does not import them
                from odoo_mcp.adapter.http import serve_http
                from odoo_mcp.adapter.http.app import PortUnavailable

                if announce:  # uvicorn given a bound socket logs no address: say it here
                    print(
                        f"odoo-mcp: serving MCP over streamable HTTP at {mcp_url(config)}",
                        file=sys.stderr,
                        flush=True,
                    )
                try:
                    await serve_http(server, config, connection, state)
                except PortUnavailable as exc:  # issue 29: the port and the fix, one line
                    print(f"odoo-mcp: {exc}", file=sys.stderr)
                    return EXIT_FAILED
            else:
                await run_stdio(server)  # its lifespan closes the connection
        finally:
            await state.close()
        return 0

    if own_process:  # after the imports and the server's build, before any answer
        tune_gc()
    return anyio.run(run)


#: how ``check`` shows a secret that is set
MASK: Final = "****"


#: what an empty value of a setting means, where "(unset)" or "(empty)" would not say it
_EMPTY_MEANS: Final = {"state_url": "(not set: this process's memory)"}


def _shown(value: object, name: str | None = None) -> str:
    """How ``check`` prints a value; an empty one says what it means, never a blank."""
    if name in _EMPTY_MEANS and value in (None, ""):
        return _EMPTY_MEANS[name]
    if value is None:
        return "(unset)"
    if value == "":
        return "(empty)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value) or "(empty)"
    return str(value)


def configuration_lines(config: OdooMcpConfig) -> list[str]:
    """REQ-11-25, REQ-11-29: every setting in force, one per line, secrets masked and URLs
    without their passwords (``describe``), ``(default)`` where nothing set it; then the
    built-in lists the safety policy adds to the configured ones (REQ-11-08/12/15)."""
    described = config.describe()
    width = max(len(name) for name in SETTINGS)
    lines = ["configuration (secrets masked):"]
    for name, info in OdooMcpConfig.model_fields.items():
        value = described[name]
        if name in ("odoo_password", "odoo_api_key") and value is not None:
            value = MASK
        unset = not info.is_required() and getattr(config, name) == info.get_default()
        shown = _shown(value, name)
        lines.append(f"  {name:<{width}}  {shown}{'  (default)' if unset else ''}")
    blocked = DEFAULT_MODEL_BLOCKLIST | EXTRA_DEFAULT_MODEL_BLOCKLIST
    lines += [
        "built-in, always in force (besides the lists above):",
        f"  models blocked:    {_shown(sorted(blocked - WRITE_PROTECTED_MODELS))}",
        f"  models read-only:  {_shown(sorted(WRITE_PROTECTED_MODELS))}",
        f"  fields blocked:    {_shown(sorted(DEFAULT_FIELD_BLOCKLIST))}",
        f"  methods blocked:   {_shown(sorted(DEFAULT_METHOD_BLOCKLIST))}, and every method "
        "starting with _",
    ]
    return lines


#: the models whose derived blocked fields ``check`` shows (one fields_get each)
DERIVED_SHOWN = ("res.partner", "res.users", "res.company", "sale.order", "account.move")


async def _derived_fields(
    config: OdooMcpConfig, connection: ConnectionManager
) -> dict[str, list[str]]:
    """REQ-11-14 (issue 26): per well-known readable model, the fields blocked because their
    ``depends`` reach a blocked field or their comodel is a blocked model (the closure the
    server applies at run time, from the same metadata)."""
    policy = config.safety_policy()
    registry = ModelRegistry(connection)
    policy.use_metadata(registry)
    shown: dict[str, list[str]] = {}
    for model in DERIVED_SHOWN:
        if not policy.is_model_readable(model):
            continue
        try:
            fields = await registry.get_fields(model)
        except OdooError:  # not installed, or not readable by this user
            continue
        shown[model] = sorted(
            name
            for name in fields
            if name not in policy.fields.blocklist and policy.is_field_blocked(model, name)
        )
    return shown


def check(config: OdooMcpConfig, connection: ConnectionManager) -> int:
    """REQ-11-29: show the configuration in force, validate, connect, and show what a
    ``serve`` would expose."""
    for line in configuration_lines(config):  # first: worth seeing when Odoo cannot be reached
        print(line)

    async def run() -> int:
        state = open_state(config.state_url)  # decision 37: check reaches it as serve would
        try:
            await state.ping()
        except StateUnavailable as exc:
            return _state_failed(config, exc)
        finally:
            await state.close()
        try:
            await connection.connect()
        except Exception as exc:
            await connection.close()
            return _connection_failed(config, exc)
        info = connection.get_connection_info()
        registry = toolset_registry(config)
        report = await registry.discover_and_register(connection)
        derived = await _derived_fields(config, connection)
        await connection.close()
        tools = list(registry.tool_names())
        print(f"Odoo:     {config.describe()['odoo_url']} (database {info.database})")
        print(f"version:  {info.odoo_version} ({info.edition})")
        print(f"protocol: {info.protocol}")
        print(f"user:     {info.username or '(API key)'} (uid {info.uid})")
        print(f"mode:     {config.mode.value}")
        print(f"state:    {redacted(config.state_url) or 'in process'}")
        for result in report.results:
            print(f"toolset:  {result.name} {result.status} {result.skip_reason or ''}".rstrip())
        print(f"tools ({len(tools)}):")
        for name in tools:
            print(f"  {name}")
        print("blocked with their source (fields derived from a blocked field or model):")
        for model, names in derived.items():
            print(f"  {model}: {', '.join(names) if names else '(none)'}")
        return 0

    return anyio.run(run)


def main(
    argv: Sequence[str] | None = None,
    environ: Mapping[str, str] | None = None,
    *,
    own_process: bool = False,
) -> int:
    """REQ-01-07: the ``odoo-mcp`` console script (``own_process``: see :func:`serve`)."""
    given = sys.argv[1:] if argv is None else argv
    args, plugins = _parse(given, argv)
    env: Mapping[str, str] = os.environ if environ is None else environ
    try:
        if args.command in plugins:
            return load(plugins[args.command]).run(args, env)
        config = config_from_args(args, env)
    except ConfigError as exc:
        return report_config_error(exc)
    connection = ConnectionManager(config.connection_settings(), backoff=config.reconnect_backoff())
    runner: dict[str, Callable[[OdooMcpConfig, ConnectionManager], int]] = {
        "serve": partial(serve, own_process=own_process),
        "check": check,
    }
    try:
        return runner[args.command](config, connection)
    except ConfigError as exc:  # found while building the server: a bad static registry file
        return report_config_error(exc)


def exit_now(code: int) -> NoReturn:
    """End the process as Python's own exit would, minus tearing the interpreter down.

    Why (issue 17): freeing every module and every pydantic schema one by one costs ~130 ms
    of CPU after the server's last answer (a client closing stdin waits for it; a kit run
    paid it ~70 times). What an exit must still do is done first: the atexit hooks (logging's
    flushes and closes its handlers), then the standard streams. Audit records are already on
    disk (written with ``os.write``, audit.py)."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed pipe: nothing left to tell anyone
            stream.flush()
    os._exit(code)


def console() -> NoReturn:
    """REQ-01-07: the ``odoo-mcp`` console script and ``python -m odoo_mcp``: ``main``, then
    ``exit_now`` (an exception still ends the process as Python does, with its traceback)."""
    exit_now(main(own_process=True))


if __name__ == "__main__":  # pragma: no cover
    console()
