"""Legal choice: ``server_version`` in ``odoo://system/info`` is Odoo's full version string
(``19.0.0``, as ``version()``'s ``server_version_info`` gives it), not ``19.0``. SPEC-06 §3.1
REQ-06-02 shows ``"19.0"`` in an example; it fixes no format. (No decision: a seed silence.)"""

from typing import Any

from _resources import rewrite_resources
from _variant import serve


def _full_version(uri: str, answer: dict[str, Any]) -> dict[str, Any]:
    version = answer.get("server_version")
    if uri == "odoo://system/info" and isinstance(version, str) and version.count(".") == 1:
        return {**answer, "server_version": f"{version}.0"}
    return answer


rewrite_resources(_full_version)
serve()
