"""Defect (non-interference): fields derived from a blocked field are not blocked with it, so
res.partner's ``email_normalized`` and ``email_formatted`` (computed from ``email``) are read,
filtered and sorted on (REQ-11-14: the blocked address in another form)."""

from _sabotage import serve

from odoo_mcp.safety import blocklists
from odoo_mcp.safety.blocklists import FieldFilter

blocklists.DERIVED_FIELDS = {}  # type: ignore[misc]


def _nothing_derived(self: FieldFilter, model: str) -> frozenset[str]:
    return frozenset()


FieldFilter.derived = _nothing_derived  # type: ignore[method-assign]
serve()
