"""SPEC-06 §2: the ``odoo://`` URIs, parsed into what they ask for.

``odoo://system/info|modules|toolsets``, ``odoo://config/safety``,
``odoo://model/{model}/fields|methods|states``, ``odoo://record/{model}/{id}`` and the listing
``odoo://record/{model}?domain=<URL-encoded JSON>&limit=N``. Anything else is refused with
the reason, before any Odoo call.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final, Literal
from urllib.parse import parse_qs, unquote, urlsplit

from pydantic import BaseModel, ConfigDict

__all__ = ["DEFAULT_LIMIT", "MAX_LIMIT", "InvalidResourceUri", "ResourceRef", "parse_uri"]

DEFAULT_LIMIT: Final = 20
MAX_LIMIT: Final = 100
_MODEL = re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z0-9_]+)*$")

Kind = Literal[
    "system_info",
    "system_modules",
    "system_toolsets",
    "config_safety",
    "model_fields",
    "model_methods",
    "model_states",
    "record",
    "listing",
]
_STATIC: Final[dict[tuple[str, str], Kind]] = {
    ("system", "info"): "system_info",
    ("system", "modules"): "system_modules",
    ("system", "toolsets"): "system_toolsets",
    ("config", "safety"): "config_safety",
}
_MODEL_PARTS: Final[dict[str, Kind]] = {
    "fields": "model_fields",
    "methods": "model_methods",
    "states": "model_states",
}


class InvalidResourceUri(ValueError):
    """The URI is not one of the server's resources (JSON-RPC -32602)."""


class ResourceRef(BaseModel):
    """REQ-06-01: what one ``odoo://`` URI asks for."""

    model_config = ConfigDict(frozen=True)

    kind: Kind
    model: str | None = None
    record_id: int | None = None
    domain: tuple[Any, ...] = ()
    limit: int = DEFAULT_LIMIT


def _model(name: str, uri: str) -> str:
    if not _MODEL.match(name):
        raise InvalidResourceUri(f"'{name}' in {uri} is not a model name such as sale.order")
    return name


def _listing(model: str, query: str, uri: str) -> ResourceRef:
    """REQ-06-11/12: domain as URL-encoded JSON, limit 20 by default and at most 100."""
    params = parse_qs(query, keep_blank_values=True)
    domain: Any = []
    if "domain" in params:
        try:
            domain = json.loads(unquote(params["domain"][-1]) or "[]")
        except json.JSONDecodeError as exc:
            raise InvalidResourceUri(
                f"the domain of {uri} is not JSON ({exc.msg}); write it URL-encoded, e.g. "
                "domain=%5B%5B%22state%22%2C%22%3D%22%2C%22draft%22%5D%5D"
            ) from None
    if not isinstance(domain, list):
        raise InvalidResourceUri(f"the domain of {uri} must be a JSON list")
    limit = DEFAULT_LIMIT
    if "limit" in params:
        try:
            limit = int(params["limit"][-1])
        except ValueError:
            raise InvalidResourceUri(f"the limit of {uri} must be an integer") from None
        if limit < 1:
            raise InvalidResourceUri(f"the limit of {uri} must be at least 1")
    unknown = sorted(set(params) - {"domain", "limit"})
    if unknown:
        raise InvalidResourceUri(f"{uri}: unknown parameter(s) {', '.join(unknown)}")
    return ResourceRef(
        kind="listing", model=model, domain=tuple(domain), limit=min(limit, MAX_LIMIT)
    )


def parse_uri(uri: str) -> ResourceRef:
    """REQ-06-01: the resource a URI names, or InvalidResourceUri saying why not."""
    parts = urlsplit(uri)
    if parts.scheme != "odoo":
        raise InvalidResourceUri(f"{uri}: resources use the odoo:// scheme")
    category = parts.netloc
    path = [unquote(p) for p in parts.path.split("/") if p]
    static = _STATIC.get((category, path[0] if len(path) == 1 else ""))
    if static is not None and not parts.query:
        return ResourceRef(kind=static)
    if category == "model" and len(path) == 2 and path[1] in _MODEL_PARTS:
        return ResourceRef(kind=_MODEL_PARTS[path[1]], model=_model(path[0], uri))
    if category == "record" and len(path) == 1:
        return _listing(_model(path[0], uri), parts.query, uri)
    if category == "record" and len(path) == 2 and not parts.query:
        if not path[1].isdigit() or int(path[1]) < 1:
            raise InvalidResourceUri(f"{uri}: the record id must be a positive integer")
        return ResourceRef(kind="record", model=_model(path[0], uri), record_id=int(path[1]))
    raise InvalidResourceUri(
        f"unknown resource {uri}; see resources/list and resources/templates/list"
    )
