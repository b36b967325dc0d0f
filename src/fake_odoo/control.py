"""The fake's out-of-band control API and call log (no Odoo counterpart).

``/__fake__/...`` routes take and return JSON and mirror the ``FakeOdoo`` methods, so
a test in another process (or another language) can drive a served fake:

====================================  ==============================================
``POST /__fake__/reset``              ``{"dataset", "version", "scale", "without"}``
``POST /__fake__/begin``              ``{"dataset", "scale", "without"}``: a scenario's start
                                      (data as built, no fault, no call) -> info + ``rebuilt``
``POST /__fake__/create``             ``{"model", "vals"}`` -> ``{"id"}``
``POST /__fake__/edit``               ``{"model", "id", "vals"}``
``POST /__fake__/call``               ``{"model", "method", "args", "kwargs"}`` (superuser)
``POST /__fake__/clock``              ``{"now": "YYYY-MM-DD HH:MM:SS" | null}``
``GET/POST/DELETE /__fake__/faults``  list / add (``{"kind", ...}``) / clear
``POST /__fake__/sessions/expire``    drop every web session
``GET/DELETE /__fake__/calls``        the call log / clear it
``GET /__fake__/calls/count``         ``?protocol=&model=&method=&service=``
``GET /__fake__/info``                version, database, uninstalled modules, url, credentials
====================================  ==============================================

A fake made with ``FakeOdoo(control=False)`` (``fake-odoo serve --no-control``) serves none of
these: like a real Odoo, it answers them with its HTML 404 page.
"""

from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

if TYPE_CHECKING:
    from fake_odoo.handle import FakeOdoo

__all__ = ["Call", "CallLog", "control_routes"]


@dataclass(frozen=True)
class Call:
    """One RPC as the server saw it (``method`` is the ORM method for object calls)."""

    protocol: str  # "xmlrpc", "jsonrpc" (/jsonrpc), "web" (/web/...), "json2"
    path: str
    service: str  # "common", "db", "object"
    method: str
    model: str | None = None
    #: the ``context`` the caller sent with an object call (None when it sent none)
    context: dict[str, Any] | None = None
    #: the keyword arguments of an XML-RPC or JSON-RPC object call as sent, context aside, in
    #: JSON terms (None over JSON-2, which names every argument): the kit reads what a
    #: server passed by keyword (REQ-04-26's stripping)
    kwargs: dict[str, Any] | None = None
    at: float = field(default_factory=time.time)


class CallLog:
    """Thread-safe list of ``Call`` records."""

    def __init__(self) -> None:
        self._calls: list[Call] = []
        self._lock = threading.Lock()

    def add(self, call: Call) -> None:
        with self._lock:
            self._calls.append(call)

    def all(self) -> list[Call]:
        with self._lock:
            return list(self._calls)

    def clear(self) -> None:
        with self._lock:
            self._calls.clear()

    def count(
        self,
        protocol: str | None = None,
        model: str | None = None,
        method: str | None = None,
        service: str | None = None,
    ) -> int:
        wanted = {"protocol": protocol, "model": model, "method": method, "service": service}
        return sum(
            all(value is None or getattr(call, key) == value for key, value in wanted.items())
            for call in self.all()
        )


def _json(data: Any, status: int = 200) -> Response:
    import json

    return Response(json.dumps(data), status, media_type="application/json")


def control_routes(fake: FakeOdoo) -> list[Route]:
    """The ``/__fake__/`` routes bound to ``fake``."""

    async def body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if not raw:
            return {}
        import json

        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError("the control API takes a JSON object")
        return data

    def endpoint(action: Any) -> Any:
        async def run(request: Request) -> Response:
            try:
                return _json(await action(request))
            except Exception as exc:  # report control misuse to the caller, not as a 500
                return _json({"error": type(exc).__name__, "message": str(exc)}, 400)

        return run

    def modules(data: dict[str, Any]) -> list[str] | None:
        without = data.get("without")  # module names; absent keeps the current choice
        if without is not None and not (
            isinstance(without, list) and all(isinstance(m, str) for m in without)
        ):
            raise ValueError("without takes a list of module names")
        return without

    def described() -> dict[str, Any]:
        return {
            "version": fake.version,
            "database": fake.db.name,
            "uninstalled": fake.uninstalled,
            "url": fake.url,
            "credentials": fake.credentials(),
        }

    async def reset(request: Request) -> Any:
        data = await body(request)
        without = modules(data)
        fake.reset(
            data.get("dataset", "demo"), data.get("version"), int(data.get("scale", 1)), without
        )
        return {"version": fake.version, "database": fake.db.name, "uninstalled": fake.uninstalled}

    async def begin(request: Request) -> Any:
        data = await body(request)
        without = modules(data)
        rebuilt = fake.begin_scenario(
            data.get("dataset", "demo"), int(data.get("scale", 1)), without
        )
        return {**described(), "rebuilt": rebuilt}

    async def create(request: Request) -> Any:
        data = await body(request)
        return {"id": fake.create(data["model"], data["vals"])}

    async def edit(request: Request) -> Any:
        data = await body(request)
        fake.edit(data["model"], int(data["id"]), data["vals"])
        return {"ok": True}

    async def call(request: Request) -> Any:
        data = await body(request)
        args, kwargs = data.get("args", []), data.get("kwargs", {})
        return {"result": fake.call(data["model"], data["method"], *args, **kwargs)}

    async def clock(request: Request) -> Any:
        fake.set_clock((await body(request)).get("now"))
        return {"now": fake.db.now_str()}

    async def faults(request: Request) -> Any:
        if request.method == "POST":
            return fake.inject_fault(**(await body(request))).as_dict()
        if request.method == "DELETE":
            fake.clear_faults()
        return [f.as_dict() for f in fake.faults.active()]

    async def expire(request: Request) -> Any:
        fake.expire_sessions()
        return {"ok": True}

    async def calls(request: Request) -> Any:
        if request.method == "DELETE":
            fake.reset_calls()
        return [asdict(c) for c in fake.calls]

    async def count(request: Request) -> Any:
        q = request.query_params
        keys = ("protocol", "model", "method", "service")
        return {"count": fake.call_counts(**{k: q.get(k) for k in keys})}

    async def info(request: Request) -> Any:
        return described()

    table = [
        ("reset", reset, ["POST"]),
        ("begin", begin, ["POST"]),
        ("create", create, ["POST"]),
        ("edit", edit, ["POST"]),
        ("call", call, ["POST"]),
        ("clock", clock, ["POST"]),
        ("faults", faults, ["GET", "POST", "DELETE"]),
        ("sessions/expire", expire, ["POST"]),
        ("calls", calls, ["GET", "DELETE"]),
        ("calls/count", count, ["GET"]),
        ("info", info, ["GET"]),
    ]
    return [Route(f"/__fake__/{name}", endpoint(fn), methods=m) for name, fn, m in table]
