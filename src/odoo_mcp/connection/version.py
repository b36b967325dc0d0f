"""SPEC-02 / L2-02a: Odoo version parsing, probing and the version -> protocol map."""

from __future__ import annotations

import logging
import re
import xmlrpc.client
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal
from xml.parsers.expat import ExpatError

import httpx2

from odoo_mcp.connection.transport import raise_for_transport_status, send

__all__ = [
    "UNKNOWN_VERSION",
    "OdooVersion",
    "ProtocolName",
    "default_protocol",
    "parse_version",
    "probe_login_page",
    "probe_xmlrpc_version",
    "version_from_server_info",
]

logger = logging.getLogger(__name__)

ProtocolName = Literal["xmlrpc", "jsonrpc", "json2"]
Edition = Literal["community", "enterprise", "unknown"]

MIN_SUPPORTED = 14
MAX_SUPPORTED = 19

# "17.0", "17.0e", "17.0+e", "17.0-20240101", "saas~17.1", "saas-17.1", "17.0.3", "18.0rc1".
_VERSION_STRING = re.compile(
    r"""\A\s*(?P<saas>saas[~-])?
    (?P<major>\d+)(?:\.(?P<minor>\d+))?(?:\.(?P<micro>\d+))?
    (?P<level>alpha|beta|rc|a|b|c)?(?P<serial>\d+)?
    (?P<enterprise>\+?e)?
    (?:[-+~].*)?\s*\Z""",
    re.VERBOSE,
)
_LEVELS = {"a": "alpha", "b": "beta", "c": "rc", "rc": "rc", "alpha": "alpha", "beta": "beta"}
# The login page's meta generator tag: <meta name="generator" content="Odoo 17"/>
_LOGIN_PAGE = re.compile(r"""content=["']Odoo (?P<version>[\w.~+-]+)["']""")


@dataclass(frozen=True, slots=True)
class OdooVersion:
    """REQ-02-11: the server version as Odoo reports it, plus edition."""

    major: int
    minor: int = 0
    micro: int = 0
    level: str = "final"
    serial: int = 0
    full_string: str = ""
    edition: Edition = "unknown"

    def __str__(self) -> str:
        return self.full_string or f"{self.major}.{self.minor}"

    @property
    def supported(self) -> bool:
        """REQ-02-12: 14.0-19.0 are supported; others are tried with a warning."""
        return MIN_SUPPORTED <= self.major <= MAX_SUPPORTED

    def with_edition(self, edition: Edition) -> OdooVersion:
        """REQ-02a-06: the same version with the edition found later (session info, modules)."""
        return replace(self, edition=edition)


UNKNOWN_VERSION = OdooVersion(14, 0, level="unknown", full_string="unknown")
"""REQ-02a-09: what we assume when every probe fails."""


def parse_version(value: str | Sequence[Any], *, edition: Edition = "unknown") -> OdooVersion:
    """REQ-02a-05: parse the list form or a version string ("17.0e", "saas~17.1", ...)."""
    if isinstance(value, str):
        return _parse_string(value, edition)
    items = list(value)
    if not items or not isinstance(items[0], int):
        raise ValueError(f"not an Odoo version: {value!r}")
    major = items[0]
    minor = items[1] if len(items) > 1 and isinstance(items[1], int) else 0
    micro = items[2] if len(items) > 2 and isinstance(items[2], int) else 0
    level = str(items[3]) if len(items) > 3 and items[3] else "final"
    serial = items[4] if len(items) > 4 and isinstance(items[4], int) else 0
    # The sixth item is "" on community and "e" on enterprise.
    if len(items) > 5 and items[5] == "e":
        edition = "enterprise"
    saas = isinstance(level, str) and level.startswith("saas")
    full = f"saas~{major}.{minor}" if saas else f"{major}.{minor}"
    return OdooVersion(major, minor, micro, level, serial, full, edition)


def _parse_string(text: str, edition: Edition) -> OdooVersion:
    match = _VERSION_STRING.match(text)
    if match is None:
        raise ValueError(f"not an Odoo version: {text!r}")
    if match["enterprise"]:
        edition = "enterprise"
    level = "saas" if match["saas"] else _LEVELS.get(match["level"] or "", "final")
    return OdooVersion(
        major=int(match["major"]),
        minor=int(match["minor"] or 0),
        micro=int(match["micro"] or 0),
        level=level,
        serial=int(match["serial"] or 0),
        full_string=text.strip(),
        edition=edition,
    )


def version_from_server_info(info: Mapping[str, Any]) -> OdooVersion:
    """REQ-02a-01: read ``common.version()`` or session info (``server_version[_info]``)."""
    edition: Edition = "unknown"
    if isinstance(info.get("is_enterprise"), bool):
        edition = "enterprise" if info["is_enterprise"] else "community"
    text = info.get("server_version")
    listed = info.get("server_version_info")
    if isinstance(listed, list) and listed:
        version = parse_version(listed, edition=edition)
        if isinstance(text, str) and text:
            # The string keeps details the list drops ("17.0-20240101", "saas~17.1", "17.0+e").
            from_text = _parse_string_or_none(text, version.edition)
            edition = from_text.edition if from_text else version.edition
            return replace(version, full_string=text, edition=edition)
        return version
    if isinstance(text, str):
        return parse_version(text, edition=edition)
    raise ValueError("no server_version in the version info")


def _parse_string_or_none(text: str, edition: Edition) -> OdooVersion | None:
    try:
        return _parse_string(text, edition)
    except ValueError:
        return None


def default_protocol(version: OdooVersion) -> ProtocolName:
    """REQ-02a-07: 14-16 (and older) xmlrpc, 17-18 jsonrpc, 19+ json2 (decision 6);
    REQ-02-13, REQ-02a-08: JSON-2 exists from 19, XML-RPC and JSON-RPC before."""
    if version.major >= 19:
        return "json2"
    if version.major >= 17:
        return "jsonrpc"
    return "xmlrpc"


async def probe_xmlrpc_version(client: httpx2.AsyncClient) -> OdooVersion | None:
    """REQ-02a-01: probe 1, ``common.version()`` on ``/xmlrpc/2/common`` (no authentication).

    An answer that is not a version (404, fault, garbage) means "try the next probe"; a
    network failure propagates, since every other probe would fail the same way.
    """
    body = xmlrpc.client.dumps((), "version", allow_none=True).encode("utf-8")
    headers = {"Content-Type": "text/xml"}
    response = await send(
        client, "POST", "/xmlrpc/2/common", content=body, headers=headers, protocol="xmlrpc"
    )
    raise_for_transport_status(response, protocol="xmlrpc")
    if response.status_code != 200:
        return None
    try:
        (info,), _ = xmlrpc.client.loads(response.content)
        return version_from_server_info(info) if isinstance(info, Mapping) else None
    except (xmlrpc.client.Error, ExpatError, ValueError) as exc:
        logger.debug("XML-RPC version probe failed: %r", exc)
        return None


async def probe_login_page(client: httpx2.AsyncClient) -> OdooVersion | None:
    """REQ-02a-03: probe 3, GET ``/web/login`` and read ``content="Odoo <N>"`` (N.0)."""
    response = await send(client, "GET", "/web/login", protocol="http")
    match = _LOGIN_PAGE.search(response.text)
    if match is None:
        return None
    text = match["version"]
    return _parse_string_or_none(text if "." in text else f"{text}.0", "unknown")
