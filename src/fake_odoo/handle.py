"""``FakeOdoo``: the handle on one fake Odoo server (its database, sessions, faults, calls).

Not an Odoo class: it is what tests and the CLI hold.  It owns the ``Database`` built
by ``fake_odoo.demo.build_database``, runs every RPC through ``service.call_kw`` under
the database lock (one transaction at a time, as Odoo's cursor would), keeps the call
log, and offers the out-of-band control operations (reset, external edits as
superuser, clock, faults) that ``fake_odoo.control`` also exposes over HTTP.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from fake_odoo.control import Call, CallLog
from fake_odoo.faults import Fault, FaultBook
from fake_odoo.orm.database import SUPERUSER_ID, Database
from fake_odoo.orm.exceptions import AccessDenied, odoo_exception
from fake_odoo.orm.modules import uninstalled_closure
from fake_odoo.wire.errors import unknown_database
from fake_odoo.wire.session import SessionStore

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["FakeOdoo"]

DatabaseFactory = Callable[..., Database]


#: pristine demo databases, by how they were built: a reset restores a copy
_PRISTINE: OrderedDict[tuple[str, str, str, int, frozenset[str]], bytes] = OrderedDict()
_PRISTINE_KEPT = 4


def _demo_factory(
    name: str, version: str, dataset: str, scale: int, without: Iterable[str] = ()
) -> Database:
    """The demo database, built once per build arguments and restored from a snapshot after
    (the data are deterministic: the same arguments build the same rows)."""
    from fake_odoo.demo import build_database

    key = (name, version, dataset, scale, frozenset(without))
    snapshot = _PRISTINE.get(key)
    if snapshot is not None:
        _PRISTINE.move_to_end(key)
        return Database.restore(snapshot, name=name, version=version, without=without)
    database: Database = build_database(
        name=name, version=version, dataset=dataset, scale=scale, without=without
    )
    _PRISTINE[key] = database.snapshot()
    while len(_PRISTINE) > _PRISTINE_KEPT:
        _PRISTINE.popitem(last=False)
    return database


class FakeOdoo:
    """One fake Odoo server: ``FakeOdoo(version="19.0")`` builds the demo database;
    ``control=False`` serves it without the ``/__fake__/`` control API."""

    def __init__(
        self,
        version: str = "19.0",
        *,
        dataset: str = "demo",
        scale: int = 1,
        database: str = "demo",
        factory: DatabaseFactory | None = None,
        without: Iterable[str] = (),
        control: bool = True,
    ) -> None:
        self.dataset = dataset
        #: whether the app serves the ``/__fake__/`` control API (False: only what a real Odoo
        #: serves, for clients of real Odoo servers tested against the fake)
        self.control = control
        self.scale = scale
        self.database_name = database
        self._factory: DatabaseFactory = factory or _demo_factory
        # only the demo factory knows modules: a custom one builds what it builds
        extra = {"without": tuple(without)} if without else {}
        self.db: Database = self._factory(database, version, dataset, scale, **extra)
        self.db.mark_built()
        self.sessions = SessionStore()
        self.faults = FaultBook()
        self.log = CallLog()
        self.url: str | None = None
        self._app: Starlette | None = None
        self._reset_lock = threading.Lock()

    # -- identity ----------------------------------------------------------------------------
    @property
    def version(self) -> str:
        return self.db.version

    @property
    def app(self) -> Starlette:
        """The ASGI app (created once; it always serves the current database)."""
        if self._app is None:
            from fake_odoo.app import create_app

            self._app = create_app(self, control=self.control)
        return self._app

    def credentials(self) -> dict[str, dict[str, Any]]:
        """login -> {"uid", "password", "api_key"} of the demo dataset's users (for printing)."""
        from fake_odoo import demo

        users = {
            "admin": (demo.ADMIN_UID, "admin", demo.ADMIN_API_KEY),
            "demo": (demo.demo_uid(self.db.major), "demo", demo.DEMO_API_KEY),
        }
        return {
            login: {"uid": uid, "password": password, "api_key": key}
            for login, (uid, password, key) in users.items()
            if self.db.row("res.users", uid) is not None
        }

    # -- wire-side entry points ----------------------------------------------------------------
    def database(self, name: str) -> Database:
        """The database named ``name``; an unknown one fails like psycopg2 does in Odoo."""
        try:
            return {self.db.name: self.db}[name]
        except KeyError:
            # implicit chaining, as Odoo's registry lookup: "During handling of ..."
            raise unknown_database(name)  # noqa: B904

    def check_credentials(self, database: Database, uid: int, password: str) -> None:
        """``odoo.service.security.check``: the password (or an API key) of that uid."""
        with database.lock:
            row = database.row("res.users", uid) if "res.users" in database.registry else None
            login = row.get("login") if row else None
            if not login or database.authenticate(str(login), str(password)) != uid:
                raise AccessDenied()

    def call_kw(
        self, uid: int, model: str, method: str, args: list[Any], kwargs: dict[str, Any]
    ) -> Any:
        """``service.call_kw`` as one transaction, holding the database lock."""
        from fake_odoo.orm.service import call_kw

        fault = self.faults.take_call(model, method)
        if fault is not None:
            raise odoo_exception(fault.exception, fault.message)
        db = self.db
        with db.lock, db.transaction():
            return call_kw(db, uid, model, method, args, kwargs)

    def record(
        self,
        protocol: str,
        path: str,
        service: str,
        method: str,
        model: str | None = None,
        context: Any = None,
        kwargs: Any = None,
    ) -> None:
        """Log one RPC; ``context`` is what the caller sent as the call's context, if a dict;
        ``kwargs`` the call's keyword arguments (its context left out), if a dict."""
        sent = dict(context) if isinstance(context, dict) else None
        keywords = None
        if isinstance(kwargs, dict):
            plain = {key: value for key, value in kwargs.items() if key != "context"}
            keywords = json.loads(json.dumps(plain, default=str))  # dates and bytes as text
        self.log.add(
            Call(
                protocol=protocol,
                path=path,
                service=service,
                method=method,
                model=model,
                context=sent,
                kwargs=keywords,
            )
        )

    # -- control: data ---------------------------------------------------------------------
    @property
    def uninstalled(self) -> list[str]:
        """The modules the database does not have installed (see ``fake_odoo.orm.modules``)."""
        return sorted(self.db.uninstalled)

    def reset(
        self,
        dataset: str = "demo",
        version: str | None = None,
        scale: int = 1,
        without: Iterable[str] | None = None,
    ) -> None:
        """Rebuild the database (optionally at another version); drops sessions, faults, calls.

        ``without`` leaves those modules (and the ones depending on them) uninstalled; None
        keeps the current database's choice, ``()`` installs every module again.
        """
        modules = tuple(self.db.uninstalled if without is None else without)
        extra = {"without": modules} if modules else {}
        with self._reset_lock:
            new = self._factory(
                self.database_name, version or self.version, dataset, scale, **extra
            )
            new.mark_built()
            with self.db.lock:
                self.db = new
            self.dataset, self.scale = dataset, scale
            self.sessions.clear()
            self.faults.clear()
            self.log.clear()

    def begin_scenario(
        self, dataset: str = "demo", scale: int = 1, without: Iterable[str] | None = None
    ) -> bool:
        """A test scenario's start in one step: the data of ``dataset`` as built, no fault, an
        empty call log. The database is rebuilt (``reset``, sessions dropped) only when it is
        not as built (a write, the clock set: ``Database.as_built``), holds another dataset or
        scale, or ``without`` asks for other modules; returns whether it was. Otherwise the
        web sessions outlive it, as a pooled server's session outlives a scenario."""
        with self.db.lock:
            wanted = self.db.uninstalled if without is None else uninstalled_closure(without)
            rebuild = (
                not self.db.as_built
                or (self.dataset, self.scale) != (dataset, scale)
                or wanted != self.db.uninstalled
            )
        if rebuild:
            self.reset(dataset, None, scale, without)
        else:
            self.faults.clear()
            self.log.clear()
        return rebuild

    def call(
        self, model: str, method: str, *args: Any, uid: int = SUPERUSER_ID, **kwargs: Any
    ) -> Any:
        """Call an ORM method from outside (as superuser by default); not logged."""
        return self.call_kw(uid, model, method, list(args), kwargs)

    def create(self, model: str, vals: dict[str, Any]) -> int:
        """Create a record "from outside" (another user of the same database)."""
        result = self.call(model, "create", vals)
        return int(result[0] if isinstance(result, list) else result)

    def edit(self, model: str, record_id: int, vals: dict[str, Any]) -> None:
        """Write a record "from outside": bumps its ``write_date`` like any write."""
        self.call(model, "write", [record_id], vals)

    def read(self, model: str, ids: list[int], fields: list[str] | None = None) -> list[Any]:
        result: list[Any] = self.call(model, "read", ids, fields=fields)
        return result

    def set_clock(self, when: datetime | str | None) -> None:
        """Freeze the server clock (naive UTC or "YYYY-MM-DD HH:MM:SS"); None unfreezes it."""
        if isinstance(when, str):
            when = datetime.strptime(when, "%Y-%m-%d %H:%M:%S")
        with self.db.lock:
            self.db.set_clock(when)

    # -- control: faults, sessions, call log -------------------------------------------------------
    def inject_fault(
        self,
        kind: str,
        *,
        count: int | None = None,
        protocol: str | None = None,
        path: str | None = None,
        seconds: float = 0.0,
        status: int = 502,
        retry_after: int = 1,
        body: str | None = None,
        model: str | None = None,
        method: str | None = None,
        exception: str = "odoo.exceptions.UserError",
        message: str = "",
    ) -> Fault:
        """Add a fault (see ``fake_odoo.faults`` for the kinds); ``count=None`` = persistent."""
        if kind == "odoo_error":
            odoo_exception(exception, message)  # refuse a bad class name now, not mid-call
        fault = Fault(
            kind, protocol, path, count, seconds, status, retry_after, body,
            model, method, exception, message,
        )  # fmt: skip
        return self.faults.add(fault)

    def clear_faults(self) -> None:
        self.faults.clear()

    def expire_sessions(self) -> None:
        """Invalidate every web session: the next session call gets error 100."""
        self.sessions.clear()

    @property
    def calls(self) -> list[Call]:
        return self.log.all()

    def call_counts(
        self,
        protocol: str | None = None,
        model: str | None = None,
        method: str | None = None,
        service: str | None = None,
    ) -> int:
        return self.log.count(protocol=protocol, model=model, method=method, service=service)

    def reset_calls(self) -> None:
        self.log.clear()
