"""Legal choice: a blocked field named in ``fields`` of search_read / read is silently dropped
from the answer instead of refused (REQ-11-14: "dropped from search_read/read results").
Writes of blocked fields, and domains or orders naming one, are still refused."""

from typing import Any

from _variant import replace_handler, serve


def _dropping(handler: Any) -> Any:
    async def run(ctx: Any, params: Any) -> Any:
        fields = list(params.fields)
        kept = [f for f in fields if f == "*" or not ctx.policy.is_field_blocked(params.model, f)]
        if kept != fields:
            # nothing usable left: ask for the id only, not for the default field list
            params = params.model_copy(update={"fields": kept or ["id"]})
        return await handler(ctx, params)

    return run


replace_handler("odoo_core_search_read", _dropping)
replace_handler("odoo_core_read", _dropping)
serve()
