"""Capture replay: send a real Odoo request to the fake and normalise both answers.

A capture (``tests/fixtures/odoo19/*.json`` and ``odoo17/*.json``, trimmed copies of real Odoo
19 and 17 traffic: one ``Batch`` each) is one request or a flow of steps. ``Replayer.run``
sends each step with independent clients (stdlib ``xmlrpc.client.ServerProxy`` for XML-RPC,
plain ``httpx2`` for JSON-RPC, JSON-2 and bare HTTP) against a served fake, rewriting API key
placeholders and the ids of records created earlier in the replay (``replay_ids.IdMap``), and
returns, per step, the ``Outcome`` real Odoo gave and the one the fake gave; ``compare`` lists
their differences."""

from __future__ import annotations

import json
import tomllib
import xmlrpc.client
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from replay_ids import IdMap
from replay_outcome import Outcome, compare, expected_outcome

from fake_odoo import FakeOdoo
from fake_odoo.demo import ADMIN_API_KEY, DEMO_API_KEY

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@dataclass(frozen=True)
class Batch:
    """One folder of captures from one real Odoo: the fake is served as that Odoo was."""

    name: str  # the fixture folder
    version: str  # the fake's --odoo-version
    database: str  # the captured database's name (the fake serves one of that name)
    setup: Path  # what the captured database held beforehand (replay_setup*.toml)
    differences: Path  # the captures that legitimately differ, with reasons
    #: the batch whose requests this one replayed under the same names (batch 4 replayed
    #: 19's): a step whose request body the capture did not keep takes that batch's
    requests_from: str | None = None

    @property
    def captures(self) -> Path:
        return FIXTURES / self.name


ODOO19 = Batch(
    "odoo19",
    "19.0",
    "demo",
    FIXTURES / "replay_setup.toml",
    FIXTURES / "replay_expected_differences.toml",
)
ODOO17 = Batch(
    "odoo17",
    "17.0-20240709",  # the captured build
    "demo17",
    FIXTURES / "replay_setup_odoo17.toml",
    FIXTURES / "replay_expected_differences_odoo17.toml",
    requests_from="odoo19",
)
BATCHES = {batch.name: batch for batch in (ODOO19, ODOO17)}
#: the 19 captures against the fake imitating Odoo 20.0 from source (no 20 capture exists):
#: every difference is listed with the source that shows it; bench/replay_rate.py only
ODOO19_ON_20 = Batch(
    "odoo19",
    "20.0",
    "demo",
    FIXTURES / "replay_setup.toml",
    FIXTURES / "replay_expected_differences_odoo20.toml",
)
CAPTURES = ODOO19.captures
PLACEHOLDERS = {
    "<ADMIN_API_KEY>": ADMIN_API_KEY,
    "<DEMO_API_KEY>": DEMO_API_KEY,
    "<INVALID_API_KEY>": "not-a-valid-api-key-0000000000000000000000",
}
# Calls that cannot change the database: a replay made only of them needs no fresh database.
READ_ONLY = frozenset(
    {
        "read",
        "search",
        "search_read",
        "search_count",
        "fields_get",
        "default_get",
        "name_search",
        "read_group",
        "formatted_read_group",
        "check_access_rights",
        "has_access",
        "context_get",
        "version",
        "about",
        "server_version",
        "list",
        "login",
        "authenticate",
    }
)

__all__ = [
    "BATCHES",
    "CAPTURES",
    "ODOO17",
    "ODOO19",
    "ODOO19_ON_20",
    "Batch",
    "Difference",
    "Outcome",
    "Replayer",
    "StepReport",
    "capture_names",
    "compare",
    "expected_differences",
    "load_capture",
    "steps_of",
]


def capture_names(batch: Batch = ODOO19) -> list[str]:
    """The batch's wire captures (a request or a flow of them); batch 4's
    ``meta_method_signatures.json`` is ``inspect.signature`` output, not traffic: the
    signature tests read it."""
    return sorted(
        path.name
        for path in batch.captures.glob("*.json")
        if not path.name.startswith("meta_method_signatures")
    )


def load_capture(name: str, batch: Batch = ODOO19) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((batch.captures / name).read_text(encoding="utf-8"))
    return data


def steps_of(capture: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = capture.get("steps", [capture])
    return steps


@dataclass(frozen=True)
class Difference:
    """An entry of replay_expected_differences.toml: a file (or some of its steps) and why."""

    file: str
    reason: str
    steps: tuple[int, ...] = ()


def expected_differences(batch: Batch = ODOO19) -> dict[str, Difference]:
    data = tomllib.loads(batch.differences.read_text(encoding="utf-8"))
    entries = [
        Difference(d["file"], d["reason"], tuple(d.get("steps", ())))
        for d in data.get("difference", [])
    ]
    return {entry.file: entry for entry in entries}


def _substitute(value: Any) -> Any:
    if isinstance(value, str):
        for placeholder, key in PLACEHOLDERS.items():
            value = value.replace(placeholder, key)
        return value
    if isinstance(value, list):
        return [_substitute(v) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v) for k, v in value.items()}
    return value


@dataclass
class StepReport:
    step: int
    label: str
    expected: Outcome
    got: Outcome
    differences: list[str] = field(default_factory=list)


class _HeaderTransport(xmlrpc.client.Transport):
    """A stdlib transport that remembers the response's Content-Type."""

    content_type: str | None = None

    def parse_response(self, response: Any) -> Any:
        self.content_type = response.getheader("Content-Type")
        return super().parse_response(response)


class Replayer:
    """Replays captures against one served fake, keeping the id map of the current replay."""

    def __init__(self, fake: FakeOdoo, batch: Batch = ODOO19) -> None:
        assert fake.url, "the fake must be served (fake_odoo.testing.serve_fake_odoo)"
        assert fake.db.name == batch.database, f"serve the fake with database={batch.database}"
        self.fake = fake
        self.batch = batch
        self.url: str = fake.url
        self._relations: dict[str, dict[str, str]] = {}
        self.ids = IdMap(self.relations)
        self.wrote = False  # did a replayed call possibly change the database?
        self.setup: dict[str, Any] = tomllib.loads(batch.setup.read_text(encoding="utf-8"))
        self.current = ""  # the capture being replayed

    def relations(self, model: str) -> dict[str, str]:
        """{field: comodel} of ``model``'s relational fields, from the fake's metadata."""
        if model not in self._relations:
            try:
                meta = self.fake.call(model, "fields_get", attributes=["relation"])
            except Exception:  # a model the fake does not have: no relations to follow
                meta = {}
            self._relations[model] = {
                name: attrs["relation"] for name, attrs in meta.items() if attrs.get("relation")
            }
        return self._relations[model]

    def fresh(self) -> None:
        """A fresh database (only when a replayed call may have written) and an empty id map."""
        if self.wrote:
            self.fake.reset()
            self.wrote = False
        self.ids = IdMap(self.relations)

    # -- one capture -------------------------------------------------------------------------
    def run(self, name: str, *, fresh: bool = True) -> list[StepReport]:
        """Replay every step of capture ``name``; flows mask record ids in messages."""
        capture = load_capture(name, self.batch)
        self.current = name
        if fresh:
            self.fresh()
            self.prepare(name)
        mask = "steps" in capture
        reports = []
        for index, step in enumerate(self.with_bodies(name, steps_of(capture)), start=1):
            self.resolve_aliases(name, int(step.get("step", index)))
            got = self.send(step)
            expected = expected_outcome(step)
            reports.append(
                StepReport(
                    step=int(step.get("step", index)),
                    label=str(step.get("label", name)),
                    expected=expected,
                    got=got,
                    differences=compare(expected, got, mask_ids=mask),
                )
            )
        return reports

    def with_bodies(self, name: str, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Steps whose capture kept no request body take it from the batch they replayed
        (batch 4's meta_version steps 6-7: the same POSTs as 19's, bodies not recorded)."""
        source = BATCHES.get(self.batch.requests_from or "")
        if source is None or not (source.captures / name).is_file():
            return steps
        theirs = {int(s.get("step", 0)): s for s in steps_of(load_capture(name, source))}
        out = []
        for step in steps:
            other = theirs.get(int(step.get("step", 0)), {})
            missing = step.get("request_body") is None and other.get("request_body") is not None
            same = step.get("endpoint") == other.get("endpoint")
            out.append(
                {**step, "request_body": other["request_body"]} if missing and same else step
            )
        return out

    def resolve_aliases(self, name: str, step: int) -> None:
        """Map captured ids of records the fake holds elsewhere (found by a domain)."""
        for alias in self.setup.get("alias", []):
            files = alias.get("files", ["*"])
            if ("*" in files or name in files) and alias.get("before_step", 1) == step:
                model = alias["model"]
                domain = self.ids.domain(model, alias["domain"])
                found = self.fake.call(model, "search", domain, limit=1)
                if found:
                    self.ids.add(model, int(alias["id"]), found[0])

    def prepare(self, name: str) -> None:
        """Records the capture's database already held, and captures it builds on."""
        setup = self.setup
        for record in setup.get("record", []):
            if name in record["files"]:
                vals = self.ids.vals(record["model"], dict(record["vals"]))
                new_id = self.fake.create(record["model"], vals)
                self.ids.add(record["model"], int(record["id"]), new_id)
                self.wrote = True
        for chain in setup.get("chain", []):
            if chain["file"] == name:
                for before in chain["after"]:
                    self.run(before, fresh=False)

    # -- one step ----------------------------------------------------------------------------
    def send(self, step: dict[str, Any]) -> Outcome:
        transport = step["transport"]
        if transport == "xmlrpc":
            return self.send_xmlrpc(step)
        if transport == "jsonrpc":
            return self.send_jsonrpc(step)
        if transport == "json2":
            return self.send_json2(step)
        if transport == "jsonrpc-session":
            return self.send_jsonrpc_session(step)
        return self.send_http(step)

    def _call(self, model: str, method: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if method not in READ_ONLY:
            self.wrote = True
        return self.ids.call(model, method, args, kwargs)

    def send_xmlrpc(self, step: dict[str, Any]) -> Outcome:
        params = _substitute(list(step.get("params") or []))
        method: str = step["method"]
        model = None
        if method == "execute_kw":
            model, model_method = params[3], params[4]
            args, kwargs = self._call(
                model, model_method, params[5], params[6] if len(params) > 6 else {}
            )
            params = [*params[:5], args, *([kwargs] if len(params) > 6 else [])]
        elif method not in READ_ONLY:
            self.wrote = True
        transport = _HeaderTransport()
        proxy = xmlrpc.client.ServerProxy(
            self.url + step["endpoint"], transport=transport, allow_none=True
        )
        try:
            result = getattr(proxy, method)(*params)
        except xmlrpc.client.Fault as fault:
            return Outcome.from_xmlrpc_fault(fault.faultCode, fault.faultString, transport)
        except xmlrpc.client.ProtocolError as error:
            return Outcome(status=error.errcode, kind="http", message=error.errmsg)
        finally:
            proxy("close")()
        if model is not None:
            self.ids.learn(model, params[4], step.get("result"), result)
        return Outcome.from_result(200, result, step, transport.content_type)

    def send_jsonrpc(self, step: dict[str, Any]) -> Outcome:
        request = _substitute(step["request"])
        params = request.get("params", {})
        model = model_method = None
        args = params.get("args", [])
        if params.get("method") == "execute_kw" and len(args) > 5:
            model, model_method = args[3], args[4]
            new_args, kwargs = self._call(model, args[4], args[5], args[6] if len(args) > 6 else {})
            params["args"] = [*args[:5], new_args, *([kwargs] if len(args) > 6 else [])]
        elif params.get("method") not in READ_ONLY:
            self.wrote = True
        response = httpx2.post(self.url + step["endpoint"], json=request, timeout=30)
        outcome = Outcome.from_http(response, step)
        if model is not None and model_method is not None and outcome.kind == "result":
            captured = step.get("response", {})
            got = response.json()
            if isinstance(captured, dict) and isinstance(got, dict):
                self.ids.learn(model, model_method, captured.get("result"), got.get("result"))
        return outcome

    def session_login(self) -> str | None:
        """The user whose web session the current capture ran in (``[[session]]``, else admin)."""
        for session in self.setup.get("session", []):
            if self.current in session["files"]:
                return str(session["login"]) or None
        return "admin"

    def send_jsonrpc_session(self, step: dict[str, Any]) -> Outcome:
        """The web client's path: a session cookie from /web/session/authenticate, then call_kw."""
        request = _substitute(step["request_body"])
        params = request.get("params", {})
        args, kwargs = self._call(
            params["model"], params["method"], params.get("args", []), params.get("kwargs", {})
        )
        request["params"] = {**params, "args": args, "kwargs": kwargs}
        with httpx2.Client(base_url=self.url, timeout=30) as client:
            login = self.session_login()
            if login is not None:
                auth = {"db": self.fake.db.name, "login": login, "password": login}
                answer = client.post("/web/session/authenticate", json={"params": auth})
                assert "result" in answer.json(), f"no web session for {login}: {answer.text}"
            response = client.post(step["endpoint"], json=request)
        outcome = Outcome.from_http(response, step)
        if outcome.kind == "result":
            captured = step.get("response", {})
            self.ids.learn(
                params["model"], params["method"], captured.get("result"), response.json()["result"]
            )
        return outcome

    def send_json2(self, step: dict[str, Any]) -> Outcome:
        headers = _substitute(step.get("request_headers") or {})
        parts = step["endpoint"].split("/")  # "", "json", "2", model, method
        model = parts[3] if len(parts) > 3 else None
        method = parts[4] if len(parts) > 4 else ""
        if "request_body_raw" in step:
            content = str(step["request_body_raw"]).encode()
        else:
            body = _substitute(step.get("request_body"))
            if model is not None and isinstance(body, dict):
                body = self.ids.kwargs(model, body)
            if method not in READ_ONLY:
                self.wrote = True
            content = json.dumps(body).encode()
        response = httpx2.request(
            step.get("http_method", "POST"),
            self.url + step["endpoint"],
            headers=headers,
            content=content,
            timeout=30,
        )
        outcome = Outcome.from_http(response, step)
        if model is not None and outcome.kind == "result":
            self.ids.learn(model, method, step.get("response"), response.json())
        return outcome

    def send_http(self, step: dict[str, Any]) -> Outcome:
        body = step.get("request_body")
        response = httpx2.request(
            step.get("http_method", "GET"),
            self.url + step["endpoint"],
            headers=step.get("request_headers") or {},
            content=body.encode() if isinstance(body, str) else None,
            timeout=30,
        )
        return Outcome.from_http(response, step)
