"""``fake-odoo serve``: run the fake Odoo server in the foreground, like ``odoo-bin``.

Prints the URL, the database and the dataset's logins, passwords and API keys, then
serves until interrupted (Ctrl+C).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from fake_odoo.demo import DATASETS
from fake_odoo.handle import FakeOdoo
from fake_odoo.server import bind_socket, make_server

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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fake-odoo", description="A fake Odoo server.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser(
        "serve",
        help="serve the fake over HTTP",
        description="Serve a fake Odoo (XML-RPC, JSON-RPC, JSON-2 from 19.0, the web session "
        "routes and, unless --no-control, the /__fake__/ control API) with its demo data, until "
        "interrupted.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    serve.add_argument("--port", type=int, default=8069, help="the port (0: any free port)")
    serve.add_argument(
        "--odoo-version",
        default="19.0",
        help="the Odoo version to imitate: 14.0 to 20.0 (captured: 17.0 and 19.0; 20.0 is "
        "imitated from Odoo's source, not from captures: no /jsonrpc, read_group's new "
        "signature, ir.access, no check_access_rights); a packaged build's date may follow, "
        "e.g. 17.0-20240709",
    )
    serve.add_argument(
        "--dataset",
        default="demo",
        choices=DATASETS,
        help="demo: the demo data; empty: company and users only; twin-a / twin-b: the demo "
        "data differing only in what a blocklist hides (non-interference)",
    )
    serve.add_argument(
        "--scale",
        type=int,
        default=1,
        help="multiply the storefront's customers, products, orders and leads by N",
    )
    serve.add_argument("--database", default="demo", help="the database name")
    serve.add_argument(
        "--without-module",
        action="append",
        default=[],
        metavar="NAME",
        help="leave a module (and those depending on it) uninstalled, e.g. stock; repeatable",
    )
    serve.add_argument(
        "--no-control",
        action="store_true",
        help="serve no /__fake__/ control API (GET /__fake__/info answers the HTML 404 page "
        "of any unknown URL), as a real Odoo: to test a client meant for real Odoo servers, "
        "e.g. the conformance kit run against an implementer's own Odoo, in CI",
    )
    serve.add_argument("--log-level", default="info", help="debug, info, warning or error (stderr)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    fake = FakeOdoo(
        args.odoo_version,
        dataset=args.dataset,
        scale=args.scale,
        database=args.database,
        without=args.without_module,
        control=not args.no_control,
    )
    sock = bind_socket(args.host, args.port)
    server = make_server(fake, sock, log_level=args.log_level)
    print(f"fake Odoo {fake.version} serving {fake.url}")
    print(f"database: {fake.db.name}  (dataset {args.dataset}, scale {args.scale})")
    if not fake.control:
        print("control API: none (--no-control): /__fake__/ is not served")
    if fake.uninstalled:
        print(f"modules not installed: {', '.join(fake.uninstalled)}")
    for login, info in fake.credentials().items():
        print(
            f"login: {login}  uid: {info.get('uid')}  password: {info.get('password')}"
            f"  api key: {info.get('api_key')}"
        )
    sys.stdout.flush()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
