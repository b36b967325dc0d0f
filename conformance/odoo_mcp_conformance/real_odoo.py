"""The kit on an implementer's own Odoo: ``RealOdoo``, ``FakeOdooControl`` over Odoo's own API.

Scenarios touch Odoo only through ``FakeOdooControl``, a client of the fake's ``/__fake__/``
control API. A real Odoo (an implementer's test database) has no control API, yet an
implementer may want to know how their MCP server behaves against the Odoo it will meet in
production. ``RealOdoo`` has the same methods and attributes, and does what can be done
through Odoo's external API alone, as the configured admin and ordinary users:

* reads (``READ_METHODS``) go through as the admin;
* records are created as the admin and remembered; a reset unlinks every remembered record
  (those the kit created, and those the server under test created that the kit
  ``remember``-ed from its answers), so the database is left as it was found;
* anything else that changes data (write, unlink, actions...) is only allowed on remembered
  records: the kit never changes or deletes records it did not create, and
  ``guard_tool_call`` refuses, before it is sent, a tool call that would make the server under
  test do so.

What needs the fake itself raises ``NeedsFake`` (printed ``needs the fake: <reason>``), and
the scenario is not applicable (n/a), never failed:

* scenarios changing or deleting existing (demo) records: the kit did not create them;
* the fake's own data sets (``empty``, the non-interference twins, ``scale``, another Odoo
  version): a real database has the data it has;
* uninstalling modules;
* fault injection (HTTP faults, Odoo errors on demand, a frozen clock, expired sessions);
* the call log (counting the round trips the server under test made).

Transport: JSON-RPC (``/jsonrpc``), or XML-RPC (``/xmlrpc/2/...``, stdlib ``xmlrpc.client``
over the same HTTP client) once ``/jsonrpc`` answers 404 (Odoo 20 drops it).
"""

from __future__ import annotations

import os
import xmlrpc.client
from collections.abc import Iterable, Mapping
from typing import Any, Final, NoReturn

import httpx2
from pydantic import BaseModel, ConfigDict, model_validator

from odoo_mcp_conformance import tls
from odoo_mcp_conformance.control import READ_METHODS, ControlError, FakeOdooControl, OdooCall
from odoo_mcp_conformance.target import OdooCoordinates

__all__ = [
    "ENVIRONMENT",
    "NEEDS_FAKE_PREFIX",
    "Credentials",
    "NeedsFake",
    "OdooBackend",
    "RealOdoo",
]

#: how the kit prints a ``NeedsFake`` (the scenario is not applicable to a real Odoo)
NEEDS_FAKE_PREFIX: Final = "needs the fake: "

#: the environment variables ``RealOdoo.from_environment`` reads, per user then field
ENVIRONMENT: Final[Mapping[str, Mapping[str, str]]] = {
    "admin": {
        "login": "ODOO_MCP_KIT_ADMIN_LOGIN",
        "password": "ODOO_MCP_KIT_ADMIN_PASSWORD",
        "api_key": "ODOO_MCP_KIT_ADMIN_API_KEY",
    },
    "demo": {
        "login": "ODOO_MCP_KIT_USER_LOGIN",
        "password": "ODOO_MCP_KIT_USER_PASSWORD",
        "api_key": "ODOO_MCP_KIT_USER_API_KEY",
    },
}

_NOT_CREATED = "changes records the kit did not create"
_DATASETS = "needs the fake's own data sets"
_UNINSTALL = "needs the fake to uninstall modules"
_FAULTS = "needs the fake's fault control"
_CALL_LOG = "needs the fake's call log"
#: methods whose answer is new records (remembered like ``create``'s)
_CREATING = frozenset({"create", "copy"})
#: tools that change the records named by their ``model`` and ``ids`` arguments
_RECORD_TOOLS = frozenset({"odoo_core_write", "odoo_core_unlink"})


class NeedsFake(Exception):
    """What a scenario asked for cannot be done on a real Odoo: the scenario is n/a."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"{NEEDS_FAKE_PREFIX}{reason}")
        self.reason = reason


class Credentials(BaseModel):
    """One user of the real Odoo: a login and its password or API key (the key is used when
    both are given)."""

    model_config = ConfigDict(frozen=True)

    login: str
    password: str = ""
    api_key: str = ""

    @model_validator(mode="after")
    def _has_secret(self) -> Credentials:
        if not self.login:
            raise ValueError("a login is needed")
        if not (self.password or self.api_key):
            raise ValueError(f"{self.login}: a password or an API key is needed")
        return self

    @property
    def secret(self) -> str:
        """What logs in: the API key if given, else the password."""
        return self.api_key or self.password


def _ids(value: object) -> list[int] | None:
    """Record ids as Odoo takes them first (an id or a list of ids); None if not that."""
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    if not isinstance(value, list | tuple) or not value:
        return None
    if all(isinstance(item, int) and not isinstance(item, bool) for item in value):
        return [int(item) for item in value]
    return None


def _odoo_message(text: str) -> str:
    """Odoo's error message; of a traceback, its final line."""
    text = text.strip()
    if "Traceback (most recent call last)" in text:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return lines[-1] if lines else text
    return text


class RealOdoo:
    """An Odoo reached through its external API only, with ``FakeOdooControl``'s interface.

    ``users`` has the keys ``"admin"`` (an administrator) and ``"demo"`` (an ordinary user),
    whatever their logins. ``http`` is an optional client to send with (tests count requests
    with it); it is left open by ``close``.
    """

    def __init__(
        self,
        url: str,
        db: str,
        users: Mapping[str, Credentials],
        *,
        timeout: float = 30.0,
        http: httpx2.Client | None = None,
    ) -> None:
        missing = sorted({"admin", "demo"} - set(users))
        if missing:
            raise ValueError(f"RealOdoo needs the users {missing}: given {sorted(users)}")
        self.url = url.rstrip("/")
        self.db = db
        self.users: dict[str, Credentials] = dict(users)
        self._own_http = http is None
        self._http = (
            http if http is not None else httpx2.Client(verify=tls.verify(), timeout=timeout)
        )
        self._uids: dict[str, int] = {}
        self._version: str | None = None
        #: False until /jsonrpc answered 404: then XML-RPC
        self._xmlrpc = False
        #: (model, id) of the records to remove at reset, in creation order
        self._created: list[tuple[str, int]] = []
        #: per model, the highest id before this scenario's first create: what a create made
        #: on the side (a company's partner) is found above it, and removed at reset
        self._marks: dict[str, int] = {}
        self._dirty = False
        #: never True: a real Odoo's modules are not uninstalled by the kit
        self.modules_removed = False

    @classmethod
    def from_environment(
        cls,
        url: str,
        db: str,
        environ: Mapping[str, str] = os.environ,
        *,
        timeout: float = 30.0,
    ) -> RealOdoo:
        """The users from the variables of :data:`ENVIRONMENT`; a
        ``ValueError`` names every missing variable."""
        missing: list[str] = []
        users: dict[str, Credentials] = {}
        for user, names in ENVIRONMENT.items():
            values = {field: environ.get(name, "") for field, name in names.items()}
            if not values["login"]:
                missing.append(names["login"])
            if not (values["password"] or values["api_key"]):
                missing.append(f"{names['password']} or {names['api_key']}")
            if values["login"] and (values["password"] or values["api_key"]):
                users[user] = Credentials(**values)
        if missing:
            raise ValueError(
                "the kit needs these environment variables to run against a real Odoo: "
                + ", ".join(missing)
            )
        return cls(url, db, users, timeout=timeout)

    def close(self) -> None:
        """Close the HTTP client (not one passed in as ``http``)."""
        if self._own_http:
            self._http.close()

    def __enter__(self) -> RealOdoo:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def dirty(self) -> bool:
        """True while records the kit must remove exist (or after a caller said so)."""
        return self._dirty or bool(self._created) or bool(self._marks)

    @dirty.setter
    def dirty(self, value: bool) -> None:
        self._dirty = value

    # -- transport --------------------------------------------------------------------------
    def _rpc(self, service: str, method: str, args: list[Any]) -> Any:
        """``service.method(*args)`` on the Odoo: Odoo errors raise ``ControlError``."""
        if not self._xmlrpc:
            body = {
                "jsonrpc": "2.0",
                "method": "call",
                "params": {"service": service, "method": method, "args": args},
                "id": None,
            }
            response = self._post("/jsonrpc", json=body)
            if response.status_code != 404:
                return self._jsonrpc_result(service, method, response)
            self._xmlrpc = True
        payload = xmlrpc.client.dumps(tuple(args), methodname=method, allow_none=True)
        response = self._post(
            f"/xmlrpc/2/{service}",
            content=payload.encode(),
            headers={"Content-Type": "text/xml"},
        )
        if response.status_code != 200:
            self._http_error(service, method, response)
        try:
            (result,), _name = xmlrpc.client.loads(response.text, use_builtin_types=True)
        except xmlrpc.client.Fault as fault:
            message = _odoo_message(str(fault.faultString))
            raise ControlError(f"{service}.{method}: {message}") from None
        except (xmlrpc.client.ResponseError, ValueError) as exc:
            raise ControlError(f"{service}.{method}: not an XML-RPC answer: {exc}") from None
        return result

    def _post(self, path: str, **kwargs: Any) -> httpx2.Response:
        try:
            return self._http.post(f"{self.url}{path}", **kwargs)
        except httpx2.HTTPError as exc:
            reason = str(exc) or type(exc).__name__
            raise ControlError(f"{self.url}{path} cannot be reached: {reason}") from exc

    def _http_error(self, service: str, method: str, response: httpx2.Response) -> NoReturn:
        raise ControlError(
            f"{service}.{method}: {response.request.url} answered HTTP {response.status_code}"
        )

    def _jsonrpc_result(self, service: str, method: str, response: httpx2.Response) -> Any:
        if response.status_code != 200:
            self._http_error(service, method, response)
        try:
            answer = response.json()
        except ValueError:
            raise ControlError(f"{service}.{method}: not a JSON-RPC answer") from None
        if not isinstance(answer, dict):
            raise ControlError(f"{service}.{method}: not a JSON-RPC answer")
        error = answer.get("error")
        if error is not None:
            data = error.get("data") if isinstance(error, dict) else None
            data = data if isinstance(data, dict) else {}
            text = data.get("message") or data.get("debug") or ""
            if not text and isinstance(error, dict):
                text = error.get("message") or ""
            raise ControlError(f"{service}.{method}: {_odoo_message(str(text or error))}")
        return answer.get("result")

    # -- identity ---------------------------------------------------------------------------
    def _credentials(self, user: str) -> Credentials:
        creds = self.users.get(user)
        if creds is None:
            raise ControlError(f"the real Odoo has no user {user!r}: {sorted(self.users)}")
        return creds

    def _uid(self, user: str) -> int:
        if user not in self._uids:
            creds = self._credentials(user)
            uid = self._rpc("common", "authenticate", [self.db, creds.login, creds.secret, {}])
            if not isinstance(uid, int) or isinstance(uid, bool) or uid <= 0:
                raise ControlError(
                    f"{creds.login} cannot log in to database {self.db!r} of {self.url}"
                )
            self._uids[user] = uid
        return self._uids[user]

    def _execute_kw(self, model: str, method: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        uid = self._uid("admin")
        secret = self._credentials("admin").secret
        return self._rpc(
            "object", "execute_kw", [self.db, uid, secret, model, method, args, kwargs]
        )

    # -- state ------------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        if self._version is None:
            version = self._rpc("common", "version", [])
            self._version = (
                str(version.get("server_version", "")) if isinstance(version, dict) else ""
            )
        credentials = {
            user: {
                "uid": self._uid(user),
                "password": creds.password,
                "api_key": creds.api_key,
                "login": creds.login,
            }
            for user, creds in self.users.items()
        }
        return {
            "version": self._version,
            "database": self.db,
            "credentials": credentials,
            "uninstalled": [],
            "url": self.url,
        }

    def coordinates(self, user: str = "admin") -> OdooCoordinates:
        """URL, database and credentials of one user (``admin`` or ``demo``)."""
        creds = self._credentials(user)
        return OdooCoordinates(
            url=self.url,
            db=self.db,
            login=creds.login,
            password=creds.password,
            api_key=creds.api_key,
        )

    def _mark(self, model: object) -> None:
        """Before a create on ``model``: its highest id, and res.partner's (what a company,
        a user or a contact creates beside it), once per scenario."""
        for name in {model, "res.partner"}:
            if isinstance(name, str) and name not in self._marks:
                try:
                    found = self._execute_kw(
                        name, "search", [[]], {"order": "id desc", "limit": 1,
                                              "context": {"active_test": False}},
                    )  # fmt: skip
                except ControlError:
                    continue  # no such model: the create fails too, and makes nothing
                self._marks[name] = int(found[0]) if found else 0

    def _made_on_the_side(self) -> list[str]:
        """Unlink what the kit's users created above the marks (records made on the side of
        a create, which no answer named); what went wrong, as text."""
        marks, self._marks = self._marks, {}
        if not marks:
            return []
        ours = [self._uid(user) for user in self.users]
        failures: list[str] = []
        for model, mark in marks.items():
            try:
                found = self._execute_kw(
                    model, "search", [[("id", ">", mark), ("create_uid", "in", ours)]],
                    {"context": {"active_test": False}},
                )  # fmt: skip
            except ControlError as exc:
                failures.append(f"{model} above id {mark}: {exc}")
                continue
            failures.extend(self._remove(model, [int(i) for i in found or []]))
        return failures

    def remember(self, model: str, ids: int | Iterable[int]) -> None:
        """Records created in this scenario (by the kit, or by the server under test as its
        answers show): they may be changed, and are removed at the next reset."""
        for record_id in [ids] if isinstance(ids, int) else ids:
            key = (model, int(record_id))
            if key not in self._created:
                self._created.append(key)

    def _remembered(self, model: object, ids: list[int] | None) -> bool:
        if not isinstance(model, str) or not ids:
            return False
        return all((model, record_id) in self._created for record_id in ids)

    def reset(self, *, version: str | None = None, scale: int = 1, dataset: str = "demo") -> None:
        """Remove every remembered record (newest first, as the admin; those already gone are
        skipped). Another dataset, scale or version needs the fake (after the clean-up)."""
        created, self._created = self._created, []
        self._dirty = False
        failures: list[str] = []
        while created:
            model = created[-1][0]
            run: list[int] = []
            while created and created[-1][0] == model:
                run.append(created.pop()[1])
            failures.extend(self._remove(model, run))
        failures.extend(self._made_on_the_side())
        if failures:
            raise ControlError("the kit could not remove its records: " + "; ".join(failures))
        if dataset != "demo" or scale != 1 or version:
            raise NeedsFake(_DATASETS)

    def _remove(self, model: str, ids: list[int]) -> list[str]:
        """Unlink those of ``ids`` still there; what went wrong, as text."""
        try:
            found = self._execute_kw(
                model, "search", [[("id", "in", ids)]], {"context": {"active_test": False}}
            )
            alive = [record_id for record_id in ids if record_id in set(found or [])]
            if alive:
                self._execute_kw(model, "unlink", [alive], {})
        except ControlError as exc:
            return [f"{model} {ids}: {exc}"]
        return []

    def uninstall(self, modules: list[str]) -> list[str]:
        raise NeedsFake(_UNINSTALL)

    def create(self, model: str, vals: dict[str, Any]) -> int:
        self._mark(model)
        result = self._execute_kw(model, "create", [vals], {})
        record_id = int(result[0] if isinstance(result, list) else result)
        self.remember(model, record_id)
        return record_id

    def edit(self, model: str, record_id: int, vals: dict[str, Any]) -> None:
        if not self._remembered(model, [record_id]):
            raise NeedsFake(_NOT_CREATED)
        self._execute_kw(model, "write", [[record_id], vals], {})

    def call(self, model: str, method: str, *args: Any, **kwargs: Any) -> Any:
        """``execute_kw`` as the admin: reads, ``create``, or methods on remembered records
        (their ids first); anything else raises ``NeedsFake`` before a request is sent."""
        if method in READ_METHODS:
            return self._execute_kw(model, method, list(args), kwargs)
        if method != "create" and not self._remembered(model, _ids(args[0]) if args else None):
            raise NeedsFake(_NOT_CREATED)
        if method in _CREATING:
            self._mark(model)
        result = self._execute_kw(model, method, list(args), kwargs)
        if method in _CREATING:
            new = _ids(result)
            if new is not None:
                self.remember(model, new)
        return result

    def guard_tool_call(self, tool: str, arguments: object) -> None:
        """Refuse (``NeedsFake``) a tool call to the server under test that would change
        records the kit did not create; ``odoo_core_create`` passes (remember its ids)."""
        if tool == "odoo_core_create" and isinstance(arguments, Mapping):
            self._mark(arguments.get("model"))
        if tool in _RECORD_TOOLS:
            if not isinstance(arguments, Mapping):
                raise NeedsFake(_NOT_CREATED)
            if not self._remembered(arguments.get("model"), _ids(arguments.get("ids"))):
                raise NeedsFake(_NOT_CREATED)
        elif tool == "odoo_core_execute":
            if not isinstance(arguments, Mapping):
                raise NeedsFake(_NOT_CREATED)
            if arguments.get("method") in READ_METHODS:
                return
            ids = _ids(arguments.get("ids"))
            if ids is None:
                args = arguments.get("args")
                ids = _ids(args[0]) if isinstance(args, list | tuple) and args else None
            if not self._remembered(arguments.get("model"), ids):
                raise NeedsFake(_NOT_CREATED)

    def set_clock(self, now: str | None) -> None:
        raise NeedsFake(_FAULTS)

    # -- faults -----------------------------------------------------------------------------
    def inject_fault(self, **fault: Any) -> dict[str, Any]:
        raise NeedsFake(_FAULTS)

    def raise_odoo_error(
        self,
        exception: str,
        message: str,
        *,
        model: str | None = None,
        method: str | None = None,
        protocol: str | None = None,
        count: int | None = None,
    ) -> dict[str, Any]:
        raise NeedsFake(_FAULTS)

    def clear_faults(self) -> None:
        """Nothing to clear: no fault is ever injected."""

    def begin_scenario(self) -> None:
        """The records an earlier scenario left go (there is no fault or call log to clear)."""
        if self.dirty:
            self.reset()

    def end_scenario(self) -> None:
        """Nothing to clear: no fault is ever injected (``reset`` removes the records)."""

    def expire_sessions(self) -> None:
        raise NeedsFake(_FAULTS)

    # -- call log ---------------------------------------------------------------------------
    def calls(self) -> list[OdooCall]:
        raise NeedsFake(_CALL_LOG)

    def clear_calls(self) -> None:
        """Nothing to clear: a real Odoo keeps no call log the kit can read."""

    def data_calls(self) -> list[OdooCall]:
        raise NeedsFake(_CALL_LOG)


#: what scenarios drive Odoo through: the fake's control API, or a real Odoo's own API
OdooBackend = FakeOdooControl | RealOdoo
