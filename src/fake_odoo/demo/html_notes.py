"""HTML where real Odoo keeps it (issue 30): partner notes, sale order terms, lead notes.

Odoo's html fields are rarely empty in a live database: the web editor stores paragraphs,
lists, tables, entities and inline styles, and templates (the company's terms) put the same
markup on every quotation. The demo data carries values of that kind and size, chosen by index,
so two builds are equal and ``--scale N`` keeps them.
"""

from __future__ import annotations

from typing import Final

__all__ = ["LEAD_NOTES", "ORDER_TERMS", "PARTNER_NOTES", "pick"]

PARTNER_NOTES: Final = (
    "<p>Pays <b>late</b>: call before shipping &amp; confirm the address.</p>",
    (
        '<p style="margin:0px 0 12px 0">Preferred contact: <a href="mailto:compras@example.com">'
        "purchasing</a>, mornings only.</p><ul><li>Delivery on weekdays</li>"
        "<li>Invoice in ARS&nbsp;&ndash; no advance payment</li></ul>"
    ),
    (
        '<div data-oe-version="1.2"><p>Cliente desde 2019. Prefiere <i>bombillas</i> de acero '
        "inoxidable; pidi&oacute; cat&aacute;logo 2026.</p><p><br></p></div>"
    ),
    "",  # a contact nobody wrote about
    (
        '<p><span style="font-size: 14px;">Key account &#8211; yearly contract</span></p>'
        '<table class="table table-bordered"><tbody><tr><td>Discount</td><td>5&nbsp;%</td>'
        "</tr><tr><td>Terms</td><td>30 days</td></tr></tbody></table>"
    ),
)

ORDER_TERMS: Final = (
    (
        "<h3>Terms &amp; Conditions</h3><p>Prices in ARS, taxes included. Offer valid for "
        "<b>15 days</b>.</p><ol><li>Payment: 50&nbsp;% on order, 50&nbsp;% on delivery.</li>"
        "<li>Delivery within 5 working days in AMBA.</li><li>Returns accepted within 10 days "
        "in original packaging.</li></ol>"
        '<p style="color: rgb(108,117,125);">Tienda Lujanita &#8226; www.lujanita.example</p>'
    ),
    "<p>Please quote the order reference on your payment.</p>",
    "",
)

LEAD_NOTES: Final = (
    (
        "<p>Met at the <b>Expo Mate</b> fair. Interested in:</p><ul><li>corporate gifts "
        "(&gt;&nbsp;200 units)</li><li>engraving</li></ul><p>Follow up next week.</p>"
    ),
    (
        '<p>Called back &#8212; asked for <a href="https://lujanita.example/kits">'
        "the kit page</a>.</p>"
    ),
)


def pick(values: tuple[str, ...], index: int) -> str:
    """The value for record ``index`` (deterministic)."""
    return values[index % len(values)]
