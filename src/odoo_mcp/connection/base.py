"""SPEC-02 / L2-02b: the protocol interface and version-aware convenience calls.

``OdooCalls`` holds the convenience wrappers (REQ-02b-02) over one primitive, ``call``; both
each adapter (``OdooProtocol``) and the ``ConnectionManager`` (which adds re-authentication and
retry around the adapter) inherit it, so tools use the same wrappers either way.

Version differences live here, not in the tools (decision 16), and every one of them is read
from the table in ``versions.py`` (real 17.0 and 19.0 captures, Odoo's pull requests between):

========================  ===============================  ===================================
call                      Odoo 14 - 18.0 (saas~18.2)       from 19.0 (saas~18.3)
========================  ===============================  ===================================
``name_search``           keyword ``args=`` (``domain=``   keyword ``domain=`` (``args=`` is a
                          is a TypeError on 17)            TypeError)
``name_get``              ``name_get(ids)`` up to 16;      ``read(ids, ['display_name'])``
                          deprecated on 17: display_name
``copy``                  an int before saas~17.2          ``[id]`` from saas~17.2 (18.0):
                                                           unwrapped to the int
``default_get``           ``fields_list`` on BaseModel,    ``fields``
                          other names in overrides: the
                          fields go by position
``create`` (one dict)     int                              int; JSON-2 returns ``[id]``:
                                                           unwrapped
========================  ===============================  ===================================
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import httpx2

from odoo_mcp.connection.errors import OdooConnectionError
from odoo_mcp.connection.shapes import CallOutcome, OdooValue, merge_context
from odoo_mcp.connection.version import OdooVersion, ProtocolName
from odoo_mcp.connection.versions import (
    exists,
    is_deprecated,
    parameters,
    returns,
)

__all__ = ["CallOutcome", "OdooCalls", "OdooProtocol", "OdooValue", "merge_context"]


def _malformed(what: str, value: object) -> OdooConnectionError:
    return OdooConnectionError(
        f"unexpected answer from Odoo: expected {what}, got {type(value).__name__}",
        kind="malformed",
        request_sent=True,
    )


def _single_id(value: OdooValue) -> int:
    # create/copy return an int, or a one-element list (JSON-2 create, copy from saas~17.2).
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _malformed("a record id", value)


def new_record_id(method: str, value: OdooValue, version: OdooVersion | None) -> int:
    """REQ-02b-02: the one id a ``create``/``copy`` of one record answered: an int or ``[id]``
    as ``versions.returns`` says for the version and protocol. The other shape is taken too
    (a saas series between the captures, a misread version): the id is the id."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    shape = returns(method, version)
    expected = "a record id" if shape == "id" else "a list of one record id"
    raise _malformed(f"{expected} from {method}", value)


def _records(value: OdooValue) -> list[dict[str, Any]]:
    if isinstance(value, list) and all(isinstance(row, dict) for row in value):
        return value
    raise _malformed("a list of records", value)


def _pairs(value: OdooValue) -> list[tuple[int, str]]:
    if not isinstance(value, list):
        raise _malformed("a list of [id, name] pairs", value)
    return [(int(pair[0]), str(pair[1])) for pair in value]


class OdooCalls(ABC):
    """REQ-02b-02: convenience wrappers over ``call``, adapted to the server's version."""

    @abstractmethod
    async def call(
        self,
        model: str,
        method: str,
        args: Sequence[OdooValue] = (),
        kwargs: Mapping[str, OdooValue] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> CallOutcome:
        """REQ-02-16: run ``model.method(*args, **kwargs)`` with the context; keep how it came."""

    @property
    @abstractmethod
    def odoo_version(self) -> OdooVersion | None:
        """REQ-02a-11: the detected version (None before detection)."""

    async def execute_kw(
        self,
        model: str,
        method: str,
        args: Sequence[OdooValue] = (),
        kwargs: Mapping[str, OdooValue] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> OdooValue:
        """REQ-02-16: the generic call; returns the bare result (None for a null result)."""
        return (await self.call(model, method, args, kwargs, context)).result

    async def search_read(
        self,
        model: str,
        domain: Sequence[OdooValue] = (),
        fields: Sequence[str] | None = None,
        offset: int | None = None,
        limit: int | None = None,
        order: str | None = None,
        context: Mapping[str, object] | None = None,
    ) -> list[dict[str, Any]]:
        """REQ-02b-02: search_read; unset keyword arguments are omitted, not sent as None."""
        given = {"fields": fields, "offset": offset, "limit": limit, "order": order}
        kwargs = {key: value for key, value in given.items() if value is not None}
        if fields is not None:
            kwargs["fields"] = list(fields)
        result = await self.execute_kw(model, "search_read", [list(domain)], kwargs, context)
        return _records(result)

    async def search(
        self,
        model: str,
        domain: Sequence[OdooValue] = (),
        offset: int | None = None,
        limit: int | None = None,
        order: str | None = None,
        context: Mapping[str, object] | None = None,
    ) -> list[int]:
        """REQ-02b-02: search; returns record ids."""
        given = {"offset": offset, "limit": limit, "order": order}
        kwargs = {key: value for key, value in given.items() if value is not None}
        result = await self.execute_kw(model, "search", [list(domain)], kwargs, context)
        if not isinstance(result, list):
            raise _malformed("a list of ids", result)
        return [int(record_id) for record_id in result]

    async def read(
        self,
        model: str,
        ids: Sequence[int],
        fields: Sequence[str] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> list[dict[str, Any]]:
        """REQ-02b-02: read; Odoo drops ids that do not exist (decision 14)."""
        kwargs = {} if fields is None else {"fields": list(fields)}
        return _records(await self.execute_kw(model, "read", [list(ids)], kwargs, context))

    async def create(
        self,
        model: str,
        values: Mapping[str, OdooValue],
        context: Mapping[str, object] | None = None,
    ) -> int:
        """REQ-02b-02: create one record; the new id whatever the protocol returns."""
        result = await self.execute_kw(model, "create", [dict(values)], None, context)
        return new_record_id("create", result, self.odoo_version)

    async def write(
        self,
        model: str,
        ids: Sequence[int],
        values: Mapping[str, OdooValue],
        context: Mapping[str, object] | None = None,
    ) -> bool:
        """REQ-02b-02: write the same values on every record, passed by position (up to 18
        models name the parameter ``vals`` or ``values``: ``versions.positional_only``)."""
        result = await self.execute_kw(model, "write", [list(ids), dict(values)], None, context)
        return bool(result)

    async def unlink(
        self, model: str, ids: Sequence[int], context: Mapping[str, object] | None = None
    ) -> bool:
        """REQ-02b-02: delete the records."""
        return bool(await self.execute_kw(model, "unlink", [list(ids)], None, context))

    async def search_count(
        self,
        model: str,
        domain: Sequence[OdooValue] = (),
        context: Mapping[str, object] | None = None,
    ) -> int:
        """REQ-02b-02: count the records matching the domain."""
        result = await self.execute_kw(model, "search_count", [list(domain)], None, context)
        if isinstance(result, int) and not isinstance(result, bool):
            return result
        raise _malformed("a count", result)

    async def fields_get(
        self,
        model: str,
        attributes: Sequence[str] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> dict[str, dict[str, Any]]:
        """REQ-02b-02: field definitions, restricted to ``attributes`` when given."""
        kwargs = {} if attributes is None else {"attributes": list(attributes)}
        result = await self.execute_kw(model, "fields_get", [], kwargs, context)
        if not isinstance(result, dict):
            raise _malformed("a dict of fields", result)
        return result

    async def name_search(
        self,
        model: str,
        name: str = "",
        domain: Sequence[OdooValue] | None = None,
        operator: str = "ilike",
        limit: int = 5,
        context: Mapping[str, object] | None = None,
    ) -> list[tuple[int, str]]:
        """REQ-02b-02: name_search, by the keywords of the version (``versions``): the domain
        is ``args=`` up to 18.0 (17 refuses ``domain=``), ``domain=`` from saas~18.3 / 19."""
        name_kw, domain_kw, operator_kw, limit_kw = parameters("name_search", self.odoo_version)
        kwargs: dict[str, OdooValue] = {
            name_kw: name,
            domain_kw: list(domain or []),
            operator_kw: operator,
            limit_kw: limit,
        }
        return _pairs(await self.execute_kw(model, "name_search", [], kwargs, context))

    async def name_get(
        self, model: str, ids: Sequence[int], context: Mapping[str, object] | None = None
    ) -> list[tuple[int, str]]:
        """REQ-02b-02: (id, display name) pairs: ``name_get`` where it exists undeprecated (to
        16); ``display_name`` where it is deprecated (17) or gone (18+), same answer."""
        version = self.odoo_version
        if exists("name_get", version) and not is_deprecated("name_get", version):
            return _pairs(await self.execute_kw(model, "name_get", [list(ids)], None, context))
        rows = await self.read(model, ids, ["display_name"], context)
        return [(int(row["id"]), str(row["display_name"])) for row in rows]

    async def copy(
        self,
        model: str,
        record_id: int,
        default: Mapping[str, OdooValue] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> int:
        """REQ-02b-02: duplicate one record; Odoo answers an int before saas~17.2 (17.0
        included), ``[id]`` from it (``versions``): the new id either way (decision 16)."""
        (default_kw,) = parameters("copy", self.odoo_version)
        kwargs = {} if default is None else {default_kw: dict(default)}
        result = await self.execute_kw(model, "copy", [[record_id]], kwargs, context)
        return new_record_id("copy", result, self.odoo_version)

    async def default_get(
        self, model: str, fields: Sequence[str], context: Mapping[str, object] | None = None
    ) -> dict[str, Any]:
        """REQ-02b-02: default values for the given fields, passed by position: up to 18
        models override default_get under other names than BaseModel's ``fields_list`` (17:
        res.partner and sale.order say ``fields``; ``versions.positional_only``), from 19 every
        model says ``fields``, the name JSON-2 binds them to (``versions.parameters``)."""
        args: list[OdooValue] = [list(fields)]
        result = await self.execute_kw(model, "default_get", args, None, context)
        if not isinstance(result, dict):
            raise _malformed("a dict of defaults", result)
        return result


class OdooProtocol(OdooCalls):
    """REQ-02-15: one wire protocol over the shared HTTP client (REQ-02b-01)."""

    protocol_name: ClassVar[ProtocolName]

    def __init__(
        self,
        client: httpx2.AsyncClient,
        database: str,
        *,
        base_context: Mapping[str, object] | None = None,
        version: OdooVersion | None = None,
    ) -> None:
        self._client = client
        self.database = database
        # A private copy: REQ-02-28 says calls never change the base context.
        self._base_context = dict(base_context or {})
        self.version = version
        self.uid: int | None = None

    @property
    def odoo_version(self) -> OdooVersion | None:
        """REQ-02a-11: the version the manager detected and handed to this adapter."""
        return self.version

    @abstractmethod
    async def authenticate(self, db: str, login: str, password: str) -> int:
        """REQ-02-16: log in and return the uid; raise OdooAuthenticationError on refusal."""

    @abstractmethod
    async def version_info(self) -> dict[str, Any]:
        """REQ-02-16: the server's version info dict (``server_version``, ...)."""

    async def close(self) -> None:
        """REQ-02b-16: forget uid and session; the manager owns and closes the shared client."""
        self.uid = None

    def is_connected(self) -> bool:
        """REQ-02-16: True once authenticated and not closed."""
        return self.uid is not None

    def _context(
        self, kwargs: Mapping[str, OdooValue] | None, context: Mapping[str, object] | None
    ) -> dict[str, object]:
        """REQ-02b-05: base context, then any ``context`` kwarg, then the call's context."""
        inline = kwargs.get("context") if kwargs else None
        return merge_context(
            self._base_context, inline if isinstance(inline, Mapping) else None, context
        )
