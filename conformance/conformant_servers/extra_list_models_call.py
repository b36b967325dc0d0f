"""Legal choice: odoo_core_list_models makes one more Odoo round trip than the reference (a
search_count on ir.model first) and gives the same answer; SPEC-04 §3.11 sets no call budget."""

import contextlib
from typing import Any

from _variant import replace_handler, serve


def _one_more_call(handler: Any) -> Any:
    async def run(ctx: Any, params: Any) -> Any:
        with contextlib.suppress(Exception):  # refused to a user without "Access Rights"
            await ctx.odoo.search_count("ir.model", [])
        return await handler(ctx, params)

    return run


replace_handler("odoo_core_list_models", _one_more_call)
serve()
