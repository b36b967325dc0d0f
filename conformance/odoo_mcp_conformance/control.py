"""The fake Odoo's ``/__fake__/`` control API, from the kit's side (synchronous HTTP).

This is the only way scenarios touch the fake: seed and edit data "from outside", inject
faults, move the clock, and read the call log to count what the server under test sent.
"""

from __future__ import annotations

import time
from typing import Any

import httpx2

from odoo_mcp_conformance import tls
from odoo_mcp_conformance.target import OdooCoordinates
from odoo_mcp_conformance.timing import scaled

__all__ = ["READ_METHODS", "ControlError", "FakeOdooControl", "OdooCall", "not_the_fake"]

#: Methods that never change data (on a real Odoo, the only ones the kit sends as it likes).
READ_METHODS = frozenset(
    {
        "search_read", "read", "search", "search_count", "fields_get", "name_get",
        "name_search", "default_get", "check_access_rights", "has_access", "read_group",
        "formatted_read_group", "web_search_read", "web_read", "exists", "check_access",
        "version", "login", "authenticate", "about", "context_get", "server_version",
        "list", "db_exist", "get_views", "onchange",
    }
)  # fmt: skip


class ControlError(RuntimeError):
    """The control API refused a request (a kit or feature-file bug, not a verdict)."""


class OdooCall(dict[str, Any]):
    """One entry of the fake's call log: protocol, path, service, method, model."""


def not_the_fake(url: str, *, timeout: float = 10.0) -> str | None:
    """Issue 38: why ``url`` is not a fake Odoo the kit can drive (None when it is one).

    The kit sets up every scenario through the fake's control API (``/__fake__/info``, data
    resets, faults, the call log); a real Odoo has none, and a run against it failed every
    scenario in set-up with ``ControlError`` and reported them as failing requirements."""
    shown = url.rstrip("/")
    try:
        with httpx2.Client(verify=tls.verify(), timeout=timeout) as http:
            response = http.get(f"{shown}/__fake__/info")
    except httpx2.HTTPError as exc:
        return f"--fake-url {shown} cannot be reached: {str(exc) or type(exc).__name__}"
    try:
        info = response.json() if response.status_code == 200 else None
    except ValueError:
        info = None
    if isinstance(info, dict) and "credentials" in info and "database" in info:
        return None
    return (
        f"--fake-url {shown} is not a fake Odoo: GET /__fake__/info answered HTTP "
        f"{response.status_code}, not the fake's control API (a real Odoo has none). Give the "
        "URL of a running `fake-odoo serve`, or leave --fake-url out and the kit starts its own"
    )


class FakeOdooControl:
    """A client of one fake Odoo's control API."""

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        # (scaled: the fake shares this machine's load with the servers under test)
        self._http = httpx2.Client(
            verify=tls.verify(), base_url=self.url + "/__fake__", timeout=scaled(timeout)
        )
        #: a scenario left modules uninstalled: the next reset installs them again
        self.modules_removed = False
        #: what ``/info`` answered, until the database is reset or changed from here
        self._info: dict[str, Any] | None = None
        #: a fault was injected since the last clearing: the scenario's end clears it
        self._faulted = True
        #: ``clear_calls``'s moment: older calls are left out of ``calls`` (None: none)
        self._calls_since: float | None = None

    def close(self) -> None:
        self._http.close()

    def _send(self, method: str, path: str, body: Any = None) -> Any:
        response = self._http.request(method, path, json=body)
        if response.status_code != 200:
            raise ControlError(f"{method} /__fake__{path}: {response.text}")
        return response.json()

    # -- state ------------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """Version, database, modules left out, URL, the demo users' credentials: asked once,
        then again after a reset or a change the kit made (a scenario reads it several times:
        its server's coordinates, the version its expectations follow)."""
        if self._info is None:
            self._info = dict(self._send("GET", "/info"))
        return dict(self._info)

    def begin_scenario(self) -> None:
        """A clean scenario in one request: the demo data as built (the fake rebuilds them only
        when anything changed them, and installs every module again when a scenario left some
        out), no fault, an empty call log. The kit does not track which calls wrote: the fake
        knows what changed, a failed write included."""
        body: dict[str, Any] = {"without": []} if self.modules_removed else {}
        answer = dict(self._send("POST", "/begin", body))
        answer.pop("rebuilt", None)
        self._info, self.modules_removed, self._faulted = answer, False, False
        self._calls_since = None

    def end_scenario(self) -> None:
        """Clear the faults the scenario injected (none: no request)."""
        if self._faulted:
            self.clear_faults()

    def coordinates(self, user: str = "admin") -> OdooCoordinates:
        """URL, database and credentials of one demo user (``admin`` or ``demo``)."""
        info = self.info()
        creds = info["credentials"].get(user)
        if creds is None:
            raise ControlError(f"the fake has no user {user!r}: {sorted(info['credentials'])}")
        return OdooCoordinates(
            url=self.url,
            db=info["database"],
            login=user,
            password=creds["password"],
            api_key=creds["api_key"],
        )

    def reset(self, *, version: str | None = None, scale: int = 1, dataset: str = "demo") -> None:
        """Fresh data of ``dataset`` (the demo data by default), with every module the kit
        uninstalled installed again."""
        body: dict[str, Any] = {"scale": scale, "dataset": dataset}
        if version:
            body["version"] = version
        if self.modules_removed:
            body["without"] = []
        self._send("POST", "/reset", body)
        self.modules_removed, self._info = False, None

    def uninstall(self, modules: list[str]) -> list[str]:
        """Rebuild the demo database without ``modules`` (and those depending on them), as an
        Odoo where they were never installed; returns every module left out."""
        self.modules_removed, self._info = True, None
        answer = self._send("POST", "/reset", {"without": modules})
        return [str(name) for name in answer["uninstalled"]]

    def create(self, model: str, vals: dict[str, Any]) -> int:
        return int(self._send("POST", "/create", {"model": model, "vals": vals})["id"])

    def edit(self, model: str, record_id: int, vals: dict[str, Any]) -> None:
        self._send("POST", "/edit", {"model": model, "id": record_id, "vals": vals})

    def call(self, model: str, method: str, *args: Any, **kwargs: Any) -> Any:
        """A superuser ORM call, not logged (to look at data the server cannot see)."""
        if method not in READ_METHODS:  # (an unlink of a demo user changes the credentials)
            self._info = None
        body = {"model": model, "method": method, "args": list(args), "kwargs": kwargs}
        return self._send("POST", "/call", body)["result"]

    def set_clock(self, now: str | None) -> None:
        self._send("POST", "/clock", {"now": now})

    # -- faults -----------------------------------------------------------------------------
    def inject_fault(self, **fault: Any) -> dict[str, Any]:
        self._faulted = True
        return dict(self._send("POST", "/faults", fault))

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
        """Make Odoo raise ``exception`` (a dotted class name as Odoo reports it) with
        ``message`` on that object call, rendered as Odoo renders it on each protocol."""
        return self.inject_fault(
            kind="odoo_error", exception=exception, message=message, model=model,
            method=method, protocol=protocol, count=count,
        )  # fmt: skip

    def clear_faults(self) -> None:
        self._send("DELETE", "/faults")
        self._faulted = False

    def expire_sessions(self) -> None:
        self._send("POST", "/sessions/expire", {})

    # -- call log ---------------------------------------------------------------------------
    def calls(self) -> list[OdooCall]:
        """The calls logged since the scenario began, or since ``clear_calls``."""
        since = self._calls_since
        return [
            OdooCall(entry)
            for entry in self._send("GET", "/calls")
            if since is None or float(entry.get("at", since)) >= since
        ]

    def clear_calls(self) -> None:
        """From now on ``calls`` shows only the calls logged after this moment. No request: the
        fake stamps each call with this machine's clock (the driver's request windows already
        compare against it), and a tool call cleared the log before every call it made (a
        third of a scenario's control requests). The log itself is emptied as a scenario
        begins."""
        self._calls_since = time.time()

    def data_calls(self) -> list[OdooCall]:
        """Calls on the object service (model methods), the ones that cost round trips."""
        return [call for call in self.calls() if call.get("model")]
