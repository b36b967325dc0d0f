"""Legal choice: ``count`` in ``odoo_core_search_read`` is the number of records matching the
domain (one more ``search_count``), not the number returned. SPEC-04 §3.1 REQ-04-03's example
(``"count": 3`` with ``"limit": 3, "has_more": true``) fits both readings."""

from typing import Any

from _variant import replace_handler, serve

from odoo_mcp.tools.core_common import checked_domain


def _total(handler: Any) -> Any:
    async def counting(ctx: Any, params: Any) -> Any:
        result = await handler(ctx, params)
        domain, _ = await checked_domain(ctx, params.model, params.domain)
        total = await ctx.odoo.search_count(params.model, domain)
        return result.model_copy(update={"count": total})

    return counting


replace_handler("odoo_core_search_read", _total)
serve()
