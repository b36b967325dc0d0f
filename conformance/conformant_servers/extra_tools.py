"""Legal choice: two non-core tools beside the core ones, annotated with all four hints:
``odoo_acme_partner_lookup`` (read-only, listed in every mode) and ``odoo_acme_partner_tag`` (a
non-destructive write, listed in restricted and full modes only)."""

from _variant import acme, add_tool, serve

add_tool(acme.LOOKUP)
add_tool(acme.TAG)
serve()
