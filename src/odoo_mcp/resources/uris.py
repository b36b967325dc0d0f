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
_DIGITS = re.compile(r"[0-9]+")
#: Odoo's ids are PostgreSQL ``integer`` columns: no record has a larger id
MAX_RECORD_ID: Final = 2**31 - 1
#: how much of a URI (or a part of one) an error message quotes
_SHOWN: Final = 80

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

    model_config = ConfigDict(frozen=True, defer_build=True)  # built on first use (issue 41)

    kind: Kind
    model: str | None = None
    record_id: int | None = None
    domain: tuple[Any, ...] = ()
    limit: int = DEFAULT_LIMIT


def _shown(text: str) -> str:
    """A URI or part of one as an error message quotes it: long ones cut short."""
    return text if len(text) <= _SHOWN else f"{text[:_SHOWN]}..."


def _model(name: str, uri: str) -> str:
    if not _MODEL.match(name):
        raise InvalidResourceUri(
            f"'{_shown(name)}' in {uri} is not a model name such as sale.order"
        )
    return name


def _record_id(text: str, uri: str) -> int:
    """REQ-06-09: ASCII digits naming an id Odoo can hold (1 to 2**31 - 1); anything else,
    superscripts, other scripts' digits or 5,000 of them, is refused as a bad URI."""
    if _DIGITS.fullmatch(text) is None:
        raise InvalidResourceUri(f"{uri}: the record id must be a positive integer")
    too_long = len(text.lstrip("0")) > len(str(MAX_RECORD_ID))
    if too_long or not 1 <= int(text) <= MAX_RECORD_ID:
        raise InvalidResourceUri(
            f"{uri}: the record id must be a positive integer of at most {MAX_RECORD_ID}"
        )
    return int(text)


def _limit(text: str, uri: str) -> int:
    """REQ-06-12: ASCII digits, at least 1; a huge one is clamped like any other above 100."""
    digits = text.strip().removeprefix("+")
    if digits.startswith("-") and _DIGITS.fullmatch(digits[1:]):
        raise InvalidResourceUri(f"the limit of {uri} must be at least 1")
    if _DIGITS.fullmatch(digits) is None:
        raise InvalidResourceUri(f"the limit of {uri} must be an integer")
    if len(digits.lstrip("0")) > len(str(MAX_LIMIT)):
        return MAX_LIMIT
    limit = int(digits)
    if limit < 1:
        raise InvalidResourceUri(f"the limit of {uri} must be at least 1")
    return limit


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
        except RecursionError:
            raise InvalidResourceUri(
                f"the domain of {uri} is nested too deeply to read; a domain is a flat list "
                "of conditions and logical operators"
            ) from None
    if not isinstance(domain, list):
        raise InvalidResourceUri(f"the domain of {uri} must be a JSON list")
    limit = _limit(params["limit"][-1], uri) if "limit" in params else DEFAULT_LIMIT
    unknown = sorted(set(params) - {"domain", "limit"})
    if unknown:
        shown = _shown(", ".join(unknown))
        raise InvalidResourceUri(f"{uri}: unknown parameter(s) {shown}")
    return ResourceRef(
        kind="listing", model=model, domain=tuple(domain), limit=min(limit, MAX_LIMIT)
    )


def parse_uri(uri: str) -> ResourceRef:
    """REQ-06-01: the resource a URI names, or InvalidResourceUri saying why not (in a
    sentence quoting at most the first 80 characters of the URI, whatever the URI holds)."""
    shown = _shown(uri)
    try:
        parts = urlsplit(uri)
    except ValueError:  # an unclosed '[' in the host, for one
        raise InvalidResourceUri(
            f"{shown} is not a URI the server can read; see resources/list and "
            "resources/templates/list"
        ) from None
    if parts.scheme != "odoo":
        raise InvalidResourceUri(f"{shown}: resources use the odoo:// scheme")
    category = parts.netloc
    path = [unquote(p) for p in parts.path.split("/") if p]
    static = _STATIC.get((category, path[0] if len(path) == 1 else ""))
    if static is not None and not parts.query:
        return ResourceRef(kind=static)
    if category == "model" and len(path) == 2 and path[1] in _MODEL_PARTS:
        return ResourceRef(kind=_MODEL_PARTS[path[1]], model=_model(path[0], shown))
    if category == "record" and len(path) == 1:
        return _listing(_model(path[0], shown), parts.query, shown)
    if category == "record" and len(path) == 2 and not parts.query:
        record_id = _record_id(path[1], shown)
        return ResourceRef(kind="record", model=_model(path[0], shown), record_id=record_id)
    raise InvalidResourceUri(
        f"unknown resource {shown}; see resources/list and resources/templates/list"
    )
