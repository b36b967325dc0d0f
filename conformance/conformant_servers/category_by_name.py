"""Legal choice (decision 45's other side): ``products.list`` reads a ``categoryId`` that is
not an Odoo id as a category name (the contract types it ``string`` and says no more)."""

from typing import Any

from _variant import replace_handler, serve

_NO_CATEGORY = "999999"  # a name no category has: the list is empty, as for an unknown id


def _by_name(original: Any) -> Any:
    async def listed(ctx: Any, params: Any) -> Any:
        category = getattr(params, "category_id", None)
        if isinstance(category, str) and not category.isdigit():
            rows = await ctx.odoo.search_read(
                "product.category", [["name", "ilike", category]], fields=["id"], limit=1
            )
            found = str(rows[0]["id"]) if rows else _NO_CATEGORY
            params = params.model_copy(update={"category_id": found})
        return await original(ctx, params)

    return listed


replace_handler("products.list", _by_name)
serve()
