"""Legal choice (decision 35's other side): the toolset registration report of REQ-03-09 is
not part of ``odoo_core_list_toolsets``' result nor of ``odoo://system/toolsets`` (which still
mirrors the tool): both give only the ``toolsets`` list of REQ-03-19. SPEC-03 names the report
but gives the tool's shape without it; SPEC-06 REQ-06-04 says only that the resource mirrors
the tool."""

from typing import Any

from _resources import rewrite_resources
from _variant import serve, wrap_tool


def _without_report(result: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in result.items() if key != "registration"}


def _resource_without_report(uri: str, answer: dict[str, Any]) -> dict[str, Any]:
    return _without_report(answer) if uri == "odoo://system/toolsets" else answer


wrap_tool("odoo_core_list_toolsets", _without_report)
rewrite_resources(_resource_without_report)
serve()
