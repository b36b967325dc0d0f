"""The RPC services behind XML-RPC and ``/jsonrpc``: ``common``, ``db`` and ``object``.

Imitates ``odoo.http.dispatch_rpc`` and ``odoo.service.{common,db,model}.dispatch`` of
Odoo 19: the same method names, the same argument unpacking (so a missing argument
raises the same ``TypeError``), ``authenticate`` answering ``False`` on bad
credentials, ``execute_kw`` raising AccessDenied, and an unknown database raising
``psycopg2.OperationalError`` before anything else.  Runs synchronously (in a worker
thread) and records each call in the handle's call log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fake_odoo.orm.exceptions import AccessDenied

if TYPE_CHECKING:
    from fake_odoo.handle import FakeOdoo

__all__ = ["dispatch_rpc", "warn_deprecated"]

# Odoo 19 logs this through its HTTP layer on every XML-RPC and /jsonrpc request.
_logger = logging.getLogger("odoo.http")
DEPRECATION_WARNING = (
    "The /xmlrpc, /xmlrpc/2 and /jsonrpc endpoints are deprecated in Odoo 19 and scheduled for"
    " removal in Odoo 20. Please use the JSON-2 API (/json/2) instead. Request: %s"
)

# db-service methods that need the master password: the fake has none, so they are
# refused exactly as Odoo refuses a wrong master password.
_SUPER_DB_METHODS = frozenset(
    {
        "create_database",
        "duplicate_database",
        "drop",
        "dump",
        "restore",
        "rename",
        "change_admin_password",
        "migrate_databases",
        "list_countries",
    }
)


def dispatch_rpc(
    fake: FakeOdoo, protocol: str, path: str, service: str, method: str, params: list[Any]
) -> Any:
    """Run ``service.method(*params)`` like Odoo's ``dispatch_rpc``."""
    if service == "common":
        fake.record(protocol, path, service, method)
        return _common(fake, method, params)
    if service == "db":
        fake.record(protocol, path, service, method)
        return _db(fake, method, params)
    if service == "object":
        return _object(fake, protocol, path, method, params)
    fake.record(protocol, path, service, method)
    raise KeyError(service)


def warn_deprecated(fake: FakeOdoo, path: str) -> None:
    """Log Odoo 19's deprecation WARNING (only servers of major 19 and later log it)."""
    if fake.db.major >= 19:
        _logger.warning(DEPRECATION_WARNING, path)


def _common(fake: FakeOdoo, method: str, params: list[Any]) -> Any:
    def exp_login(db: str, login: str, password: str) -> Any:
        return exp_authenticate(db, login, password, None)

    def exp_authenticate(db: str, login: str, password: str, user_agent_env: Any) -> Any:
        database = fake.database(db)
        with database.lock:
            uid = database.authenticate(login, password)
        return uid if uid else False

    def exp_version() -> Any:
        return fake.db.version_info

    def exp_about(extended: bool = False) -> Any:
        info = "See http://openerp.com"
        return [info, fake.db.version] if extended else info

    def exp_timezone_get(db: str, login: str, password: str) -> Any:
        return "UTC"

    table: dict[str, Callable[..., Any]] = {
        "login": exp_login,
        "authenticate": exp_authenticate,
        "version": exp_version,
        "about": exp_about,
        "timezone_get": exp_timezone_get,
    }
    if method not in table:
        raise Exception(f"Method not found: {method}")
    return table[method](*params)


def _db(fake: FakeOdoo, method: str, params: list[Any]) -> Any:
    def exp_list(document: bool = False) -> Any:
        return [fake.db.name]

    def exp_db_exist(db_name: str) -> Any:
        return db_name == fake.db.name

    def exp_server_version() -> Any:
        return fake.db.version

    def exp_list_lang() -> Any:
        return [["en_US", "English (US)"]]

    table: dict[str, Callable[..., Any]] = {
        "list": exp_list,
        "db_exist": exp_db_exist,
        "server_version": exp_server_version,
        "list_lang": exp_list_lang,
    }
    if method in table:
        return table[method](*params)
    if method in _SUPER_DB_METHODS:
        raise AccessDenied()
    raise KeyError(f"Method not found: {method}")


def _object(fake: FakeOdoo, protocol: str, path: str, method: str, params: list[Any]) -> Any:
    model = params[3] if len(params) > 3 and isinstance(params[3], str) else None
    orm_method = params[4] if len(params) > 4 and isinstance(params[4], str) else None
    kwargs = params[6] if method == "execute_kw" and len(params) > 6 else None
    context = kwargs.get("context") if isinstance(kwargs, dict) else None
    fake.record(
        protocol, path, "object", orm_method or method, model=model, context=context,
        kwargs=kwargs if kwargs is not None else {},
    )  # fmt: skip
    dbname, uid, password = params[0], int(params[1]), params[2]
    database = fake.database(dbname)
    fake.check_credentials(database, uid, password)
    if method == "execute_kw":
        return _execute_kw(fake, uid, *params[3:])
    if method == "execute":
        return _execute(fake, uid, *params[3:])
    raise NameError(f"Method not available {method}")


def _execute_kw(
    fake: FakeOdoo,
    uid: int,
    obj: str,
    method: str,
    args: list[Any],
    kw: dict[str, Any] | None = None,
) -> Any:
    return fake.call_kw(uid, obj, method, list(args), dict(kw or {}))


def _execute(fake: FakeOdoo, uid: int, obj: str, method: str, *args: Any) -> Any:
    return fake.call_kw(uid, obj, method, list(args), {})
