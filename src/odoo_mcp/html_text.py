"""REQ-04-35: the HTML parser behind :func:`odoo_mcp.formatting.strip_html`.

Its own module so that ``html.parser`` (~2 ms) is imported with the first HTML value a tool
returns, not at start-up (issue 17, cold start).
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Final

__all__ = ["TextExtractor"]

BLOCK_TAGS: Final = frozenset(
    {
        "p",
        "div",
        "br",
        "li",
        "tr",
        "ul",
        "ol",
        "table",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
        "pre",
        "hr",
        "section",
        "article",
        "header",
        "footer",
    }
)
HIDDEN_TAGS: Final = frozenset({"script", "style", "head", "title"})


class TextExtractor(HTMLParser):
    """REQ-04-35: the text of an HTML value, block tags as line breaks, hidden tags dropped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in HIDDEN_TAGS:
            self.hidden += 1
        elif tag in BLOCK_TAGS:
            self.parts.append("\n- " if tag == "li" else "\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN_TAGS:
            self.hidden = max(0, self.hidden - 1)
        elif tag in BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)
