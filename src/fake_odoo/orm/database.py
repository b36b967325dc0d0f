"""One fake Odoo database: registry, record store, xml ids, clock; and the Environment.

Imitates what a PostgreSQL database plus ``odoo.modules.registry.Registry``
and ``odoo.api.Environment`` give real Odoo: the set of models served by one
major version, rows keyed by id with per-model id sequences, ``ir.model.data``
xml ids, a transaction that is rolled back when a call fails, and the server
clock.  Rows hold raw values (see ``fields``); every change goes through
``insert``/``update``/``delete`` so the undo journal sees it.
"""

from __future__ import annotations

import pickle
import threading
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fake_odoo.orm.exceptions import UserError
from fake_odoo.orm.framework import Framework, installed
from fake_odoo.orm.index import FieldIndex
from fake_odoo.orm.modules import uninstalled_closure

if TYPE_CHECKING:
    from fake_odoo.orm.model import BaseModel

Row = dict[str, Any]
SUPERUSER_ID = 1


def _copy_row(row: Row) -> Row:
    # many2many values are lists: copy them so an undo entry is not mutated later.
    return {k: (list(v) if isinstance(v, list) else v) for k, v in row.items()}


def parse_major(version: str) -> int:
    """``"19.0"`` -> 19, ``"saas~17.2"`` -> 17, ``"17.0-20240709"`` -> 17."""
    return int(version.split("~")[-1].split(".")[0])


class Database:
    """The state of one database.  ``lock`` serialises calls (one transaction at a time).

    ``framework`` brings the framework models and the bootstrap and login hooks (see
    ``orm.framework``); None means the installed one, ``fake_odoo.models.base.FRAMEWORK``.
    """

    def __init__(
        self,
        name: str = "demo",
        version: str = "19.0",
        models: Iterable[type[BaseModel]] | None = None,
        without: Iterable[str] = (),
        framework: Framework | None = None,
    ) -> None:
        self._setup(name, version, models, without, framework)
        with self.transaction():
            self._bootstrap()

    def _setup(
        self,
        name: str,
        version: str,
        models: Iterable[type[BaseModel]] | None,
        without: Iterable[str],
        framework: Framework | None,
    ) -> None:
        """An empty database: its registry and empty tables, nothing bootstrapped."""
        from fake_odoo.orm.model import build_registry

        self.framework = framework if framework is not None else installed()
        self.name = name
        self.version = version
        self.major = parse_major(version)
        #: modules not installed (``without`` and what depends on them): see fake_odoo.orm.modules
        self.uninstalled: frozenset[str] = uninstalled_closure(without)
        #: the key of the models' field caches: the fields a class serves depend on both
        self.fields_key: int | tuple[int, frozenset[str]] = (
            (self.major, self.uninstalled) if self.uninstalled else self.major
        )
        self.registry: dict[str, type[BaseModel]] = build_registry(
            self.major, models, self.uninstalled, self.framework.models
        )
        self.store: dict[str, dict[int, Row]] = {name: {} for name in self.registry}
        self.sequences: dict[str, int] = {}
        self.xmlids: dict[str, tuple[str, int]] = {}
        self.passwords: dict[int, str] = {}
        self.lock = threading.RLock()
        self.generation = 0  # bumped on every change, for caches keyed on the store's state
        #: the generation ``mark_built`` saw: ``as_built`` compares against it
        self._built = 0
        self._clock: datetime | None = None
        self._journal: list[tuple[str, Any, Any, Any]] | None = None
        self._touched: set[tuple[str, int]] = set()
        self._index = FieldIndex(self.store)

    # -- copies ----------------------------------------------------------------------------
    def snapshot(self) -> bytes:
        """The data of this database (rows, id sequences, xml ids, passwords), serialized.

        ``restore`` makes an independent database of it: the fake's reset between two test
        scenarios costs a few milliseconds instead of rebuilding the demo data (~150 ms).
        """
        with self.lock:
            data = (self.store, self.sequences, self.xmlids, self.passwords)
            return pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def restore(
        cls,
        snapshot: bytes,
        *,
        name: str,
        version: str,
        without: Iterable[str] = (),
        framework: Framework | None = None,
    ) -> Database:
        """A new database holding the data of ``snapshot``, taken of a database of the same
        version and modules (its own registry, lock, clock and journal, as built)."""
        # not through __init__: its bootstrap (the ir.model rows, about 1,000 inserts) was
        # three quarters of a reset, and the snapshot's rows replace it all
        database = cls.__new__(cls)
        database._setup(name, version, None, without, framework)
        store, sequences, xmlids, passwords = pickle.loads(snapshot)  # only ever our own snapshot
        if store.keys() != database.store.keys():
            raise ValueError("the snapshot is of a database with other models")
        database.store, database.sequences = store, sequences
        database.xmlids, database.passwords = xmlids, passwords
        database._index = FieldIndex(store)
        return database

    def mark_built(self) -> None:
        """The data as they are now are the database as built (its demo data loaded)."""
        self._built = self.generation

    @property
    def as_built(self) -> bool:
        """Nothing changed since ``mark_built``: no row, id sequence, xml id or password
        written (even in a call rolled back since), and the clock not set. The control API's
        scenario start rebuilds only a database that is no longer as built."""
        return self.generation == self._built and self._clock is None

    # -- version ---------------------------------------------------------------------------
    @property
    def version_info(self) -> dict[str, Any]:
        """``common.version``: a packaged build keeps its date in ``server_version`` only
        (``17.0-20240709`` on the captured 17; ``19.0`` from a source tree)."""
        serie = self.version.split("-", 1)[0]
        minor = int(serie.split(".")[1]) if "." in serie else 0
        return {
            "server_version": self.version,
            "server_version_info": [self.major, minor, 0, "final", 0, ""],
            "server_serie": serie,
            "protocol_version": 1,
        }

    # -- clock -----------------------------------------------------------------------------
    def now(self) -> datetime:
        """The server time: naive UTC, whole seconds (what Odoo stores)."""
        if self._clock is not None:
            return self._clock
        return datetime.now(UTC).replace(tzinfo=None, microsecond=0)

    def set_clock(self, value: datetime | None) -> None:
        """Freeze the clock at ``value`` (naive UTC), or unfreeze it with None."""
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
        self._clock = value.replace(microsecond=0) if value is not None else None

    def now_str(self) -> str:
        return self.now().strftime("%Y-%m-%d %H:%M:%S")

    # -- store -----------------------------------------------------------------------------
    def rows(self, model: str) -> dict[int, Row]:
        return self.store[model]

    def row(self, model: str, record_id: int) -> Row | None:
        return self.store[model].get(record_id)

    def _remember(self, model: str, record_id: int) -> None:
        if self._journal is None or (model, record_id) in self._touched:
            return
        self._touched.add((model, record_id))
        old = self.store[model].get(record_id)
        self._journal.append(("row", model, record_id, None if old is None else _copy_row(old)))

    def next_id(self, model: str) -> int:
        current = self.sequences.get(model, 0)
        if self._journal is not None:
            self._journal.append(("seq", model, self.sequences.get(model), None))
        self.sequences[model] = current + 1
        self.generation += 1
        return current + 1

    def insert(self, model: str, row: Row, record_id: int | None = None) -> int:
        if record_id is None:
            record_id = self.next_id(model)
        elif record_id > self.sequences.get(model, 0):
            if self._journal is not None:
                self._journal.append(("seq", model, self.sequences.get(model), None))
            self.sequences[model] = record_id
        self._remember(model, record_id)
        rows = self.store[model]
        new = _copy_row(row) | {"id": record_id}
        self._index.replace(model, record_id, rows.get(record_id), new)
        rows[record_id] = new
        self.generation += 1
        return record_id

    def update(self, model: str, record_id: int, values: Row) -> None:
        self._remember(model, record_id)
        row = self.store[model][record_id]
        self._index.update(model, record_id, row, values)
        row.update(_copy_row(values))
        self.generation += 1

    def delete(self, model: str, record_id: int) -> None:
        self._remember(model, record_id)
        old = self.store[model].pop(record_id, None)
        self._index.replace(model, record_id, old, None)
        self.generation += 1

    def value_index(self, model: str, field: str) -> Mapping[Any, Collection[int]]:
        """Stored value -> ids of ``model`` holding it in ``field`` (see ``orm.index``).

        A live view, kept up to date by every change: copy what you take from it before
        changing the store.  Only for fields with hashable raw values.
        """
        return self._index.get(model, field)

    def o2m_index(self, comodel: str, inverse: str) -> Mapping[Any, Collection[int]]:
        """target id -> ids of ``comodel`` whose ``inverse`` many2one points at it."""
        return self._index.get(comodel, inverse)

    # -- xml ids ---------------------------------------------------------------------------
    def set_xmlid(self, xmlid: str, model: str, record_id: int) -> None:
        if "." not in xmlid:
            xmlid = f"__import__.{xmlid}"
        if self._journal is not None:
            self._journal.append(("xmlid", xmlid, self.xmlids.get(xmlid), None))
        self.xmlids[xmlid] = (model, record_id)
        self.generation += 1

    # -- passwords -------------------------------------------------------------------------
    def set_password(self, uid: int, password: str) -> None:
        """A user's new password (kept apart from the rows, as Odoo keeps only its hash)."""
        if self._journal is not None:
            self._journal.append(("password", uid, self.passwords.get(uid), None))
        self.passwords[uid] = password
        self.generation += 1

    def xmlid_of(self, model: str, record_id: int) -> str | None:
        for xmlid, target in self.xmlids.items():
            if target == (model, record_id):
                return xmlid
        return None

    # -- transactions ----------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Undo every change made inside the block if it raises (nested blocks join)."""
        with self.lock:
            if self._journal is not None:
                yield
                return
            self._journal = []
            self._touched = set()
            try:
                yield
            except BaseException:
                self._rollback()
                raise
            finally:
                self._journal = None
                self._touched = set()

    def _rollback(self) -> None:
        assert self._journal is not None
        for kind, key, arg, old in reversed(self._journal):
            if kind == "row":
                current = self.store[key].get(arg)
                if old is None:
                    self.store[key].pop(arg, None)
                else:
                    self.store[key][arg] = old
                self._index.replace(key, arg, current, old)
            elif kind == "seq":
                if arg is None:
                    self.sequences.pop(key, None)
                else:
                    self.sequences[key] = arg
            elif kind == "password":
                if arg is None:
                    self.passwords.pop(key, None)
                else:
                    self.passwords[key] = arg
            elif arg is None:
                self.xmlids.pop(key, None)
            else:
                self.xmlids[key] = arg
        if self._journal:  # a failed call that changed nothing leaves the caches valid
            self.generation += 1

    # -- environments and authentication ---------------------------------------------------
    def env(
        self, uid: int = SUPERUSER_ID, context: dict[str, Any] | None = None, su: bool = False
    ) -> Environment:
        return Environment(self, uid, context or {}, su)

    def authenticate(self, login: str, secret: str) -> int | None:
        """The uid for a login and its password or one of its API keys, else None."""
        return self.framework.check_credentials(self.env(su=True), login, secret)

    def authenticate_api_key(self, key: str) -> int | None:
        """The uid owning an API key (JSON-2 bearer), else None."""
        return self.framework.check_api_key(self.env(su=True), key)

    def _bootstrap(self) -> None:
        self.framework.bootstrap(self.env(su=True))


class Environment:
    """``odoo.api.Environment``: a user, a context and a superuser flag over a Database."""

    def __init__(self, db: Database, uid: int, context: dict[str, Any], su: bool = False) -> None:
        self.db = db
        self.uid = uid
        self.context: dict[str, Any] = dict(context)
        self.su = su or uid == SUPERUSER_ID

    @property
    def major(self) -> int:
        return self.db.major

    @property
    def version(self) -> str:
        return self.db.version

    @property
    def registry(self) -> dict[str, type[BaseModel]]:
        return self.db.registry

    def __contains__(self, model: str) -> bool:
        return model in self.db.registry

    def __getitem__(self, model: str) -> Any:
        # Typed Any at this boundary: callers use the business API of each model.
        return self.db.registry[model](self, ())

    def __call__(
        self,
        *,
        user: int | None = None,
        context: dict[str, Any] | None = None,
        su: bool | None = None,
    ) -> Environment:
        if user is None and context is None and (su is None or su == self.su):
            return self  # the same user, context and mode: what ``sudo()`` in a sudo build asks
        uid = self.uid if user is None else user
        return Environment(
            self.db,
            uid,
            self.context if context is None else context,
            (self.su if user is None else False) if su is None else su,
        )

    def now(self) -> datetime:
        return self.db.now()

    def ref(self, xmlid: str, raise_if_not_found: bool = True) -> Any:
        target = self.db.xmlids.get(xmlid)
        if target is None or target[1] not in self.db.store.get(target[0], {}):
            if raise_if_not_found:
                raise ValueError(f"External ID not found in the system: {xmlid}")
            return None
        return self[target[0]].browse(target[1])

    @property
    def user(self) -> Any:
        return self["res.users"].browse(self.uid)

    @property
    def company(self) -> Any:
        user = self.user.sudo()
        if "company_id" in user._fields and user.exists():
            return user.company_id
        if "res.company" not in self:
            return None
        return self["res.company"]

    @property
    def lang(self) -> str:
        return str(self.context.get("lang") or "en_US")

    def is_superuser(self) -> bool:
        return self.su

    def check_model(self, model: str) -> None:
        if model not in self.db.registry:
            raise UserError(f"Object {model} doesn't exist")
