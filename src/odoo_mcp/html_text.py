"""REQ-04-35: the HTML to text conversion behind :func:`odoo_mcp.formatting.strip_html`.

The text is exactly what ``html.parser`` gives (issue 30): block tags as line breaks, ``<li>``
as ``- ``, ``script``/``style``/``head``/``title`` contents dropped, entities decoded per text
run, then the lines tidied. Well-formed markup (what Odoo's editor and sanitizer store) goes
through one regular expression split instead of the parser, 4-8x faster per value seen for the
first time (numbers in ``bench/html_strip.py``; a value seen again is an ``lru_cache`` hit);
anything else (``<script>``/``<style>``, comments with ``--`` inside, ``<!DOCTYPE``, ``<?pi``,
CDATA, hidden tags, NUL characters, unquoted values ending in ``/``, a ``<`` starting what the
split does not know) goes to ``html.parser`` itself (~10% slower than before: the split was
tried first), so the output never differs.

Why the split gives the parser's output: ``_TAG`` matches only start tags, end tags and
comments that ``html.parser`` (Python 3.11) reads as that same tag with that same extent; it
runs left to right like the parser; a ``<`` it skips stays in the text, and the value goes to
the parser unless every such ``<`` is followed by a character that makes the parser read it
as the text ``<`` (not a letter, ``/``, ``!`` or ``?``). Each tag name is looked up as the
parser lower-cases it (``_Emissions``); a hidden start tag emits ``_HIDDEN`` (NUL), and a
value whose text then holds NUL goes to the parser. Entities are decoded once over the whole
text, as the parser decodes each text run alone: an entity (``&``, then characters that are
neither white space nor ``<&;``) reaches no ``<`` unless ``_CUT_ENTITY`` finds it, so no tag
lies inside one; when it does, a private-use mark (``_MARK``, a value holding it goes to the
parser) is left where each tag was: the mark is in no entity name, so an entity cut by a tag
decodes as it does at the end of its text run. When every ``&`` starts one of the common
entities, ``str.replace`` decodes them (``html.unescape`` calls Python per entity).

Its own module so that this code (~1 ms of regular expressions, ``html`` ~1.5 ms) is imported
with the first HTML value a tool returns, not at start-up (issue 17, cold start);
``html.parser`` only with the first value the split cannot take.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from html import unescape
from operator import add
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["BLOCK_TAGS", "HIDDEN_TAGS", "html_to_text", "parser_text", "tidy_text"]

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

#: where a tag was, while entities are decoded (a value holding it goes to the parser)
_MARK: Final = "\ue000"
_WS: Final = r"[ \t\n\r\f]"
#: attributes html.parser reads the same way: ASCII white space before each, quoted values or
#: bare values that end at white space or ``>`` (a bare value ending in ``/`` is not taken);
#: possessive (``*+``): no shorter match of a part could let the rest match, so the same
#: matches without the backtracking states
_ATTRS: Final = (
    rf"(?:{_WS}++[^\s/>=\"'<][^\s/=>\"'<]*+"
    rf"(?:{_WS}*+={_WS}*+(?:\"[^\"]*+\"|'[^']*+'|[^\s\"'=<>`/]++(?=[ \t\n\r\f>])))?)*+{_WS}*+"
)
_NAME: Final = (
    rf"/[a-zA-Z][-.a-zA-Z0-9:_]*+(?={_WS}*>)"  # end tag
    r"|[a-zA-Z][^\t\n\r\f />\x00<]*+"  # start tag
    r"|!--(?!-?>)(?:[^-\x00]|-(?!-))*+--(?=>)"  # comment without "--" inside
)
#: group 1: ``/name``, ``name`` or ``!--...--``
_TAG: Final = re.compile(rf"<({_NAME}){_ATTRS}>")
#: the same, and group 2: the ``/`` of ``<name/>`` (for values holding "/>")
_TAG_CLOSED: Final = re.compile(rf"<({_NAME}){_ATTRS}(/?)>")
#: a ``<`` html.parser reads as markup
_MARKUP_LEFT: Final = re.compile(r"<[a-zA-Z/!?]")


class _Emissions(dict[str, str]):
    """What each tag name adds to the text: ``"\\n"`` for a block tag, ``"\\n- "`` for ``li``,
    ``_HIDDEN`` for a hidden start tag (the parser's job), ``mark`` for any other tag. A name
    not in lower case is looked up lower-cased (as the parser does) and kept, up to
    ``_NAMES_KEPT`` names (comments are never kept: each is its own name)."""

    def __init__(self, mark: str) -> None:
        super().__init__()
        self.mark = mark
        for tag in BLOCK_TAGS:
            self[tag] = self["/" + tag] = mark + "\n"
            self[tag + "/"] = mark + "\n\n"  # <br/>: start and end tag
        self["li"] = mark + "\n- "
        self["li/"] = mark + "\n- \n"
        for tag in HIDDEN_TAGS:
            self[tag] = _HIDDEN  # "<script/>" ("script/"): start and end tag, no CDATA: a mark
        self.known = len(self)

    def __missing__(self, name: str) -> str:
        emitted = self.get(name.lower(), self.mark)
        if len(self) < self.known + _NAMES_KEPT and name[0] != "!":
            self[name] = emitted
        return emitted


#: what a hidden start tag emits: a value holding it goes to the parser
_HIDDEN: Final = "\x00"
_NAMES_KEPT: Final = 2048
_EMIT: Final = _Emissions("")
_EMIT_MARKED: Final = _Emissions(_MARK)
#: an entity a tag could cut: "&" and name or number characters up to a "<"
_CUT_ENTITY: Final = re.compile(r"&[^\t\n\f <&;]*<")
#: an "&" that does not start one of _COMMON_ENTITIES
_OTHER_ENTITY: Final = re.compile(r"&(?!(?:nbsp|lt|gt|quot|#39|amp);)")
#: what unescape makes of them; when every "&" starts one of them, str.replace does its work
_COMMON_ENTITIES: Final = {
    "&nbsp;": "\xa0",
    "&lt;": "<",
    "&gt;": ">",
    "&quot;": '"',
    "&#39;": "'",
    "&amp;": "&",
}


def _unescape(text: str) -> str:
    """``html.unescape``, by ``str.replace`` when every entity is a common one."""
    if _OTHER_ENTITY.search(text) is not None:
        return unescape(text)
    for entity, char in _COMMON_ENTITIES.items():  # "&amp;" last: "&amp;lt;" is "&lt;"
        if entity in text:
            text = text.replace(entity, char)
    return text


_LINE_BREAKS: Final = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # str.splitlines, less \n
#: the ASCII white space but " " and "\\n" (str.isspace)
_ASCII_ODD_SPACES: Final = "\t\r\x0b\x0c\x1c\x1d\x1e\x1f"
_ODD_BREAK: Final = re.compile(f"[{_LINE_BREAKS}]")
_ODD_SPACE: Final = re.compile(f"[^\\S \\n{_LINE_BREAKS}]")
_SPACES: Final = re.compile("  +")
_BLANK_LINES: Final = re.compile("\n\n\n+")


def tidy_text(text: str) -> str:
    """REQ-04-35: white space of the text tidied: each line's words joined by one space, at most
    one empty line in a row, none at the ends (what ``str.split``/``str.splitlines`` per line
    gave, without a loop over the lines)."""
    core = text.strip()
    if core.isprintable():  # one line, " " its only white space (the ends are white space)
        return _SPACES.sub(" ", core) if "  " in core else core
    if "\xa0" in text:  # &nbsp;
        text = text.replace("\xa0", " ")
    if (  # white space but " " is not printable; on long ASCII text memchr is faster
        any(map(text.__contains__, _ASCII_ODD_SPACES))
        if len(text) > 256 and text.isascii()
        else not text.replace("\n", " ").isprintable()
    ):
        text = text.replace("\r\n", "\n")
        text = _ODD_SPACE.sub(" ", _ODD_BREAK.sub("\n", text))
    if "  " in text:
        text = _SPACES.sub(" ", text)
    if " \n" in text:
        text = text.replace(" \n", "\n")
    if "\n " in text:
        text = text.replace("\n ", "\n")
    if "\n\n\n" in text:
        text = _BLANK_LINES.sub("\n\n", text)
    return text.strip()


def _split_text(html: str) -> str | None:
    """The parser's text of well-formed markup, ``None`` for what only the parser reads."""
    if "<script" in html or "<style" in html or _HIDDEN in html:
        return None  # the parser reads their text (CDATA)
    marked = "&" in html and _CUT_ENTITY.search(html) is not None
    if marked and _MARK in html:
        return None
    emit = _EMIT_MARKED if marked else _EMIT
    if "/>" in html:
        pieces = _TAG_CLOSED.split(html)
        pieces[1::3] = map(add, pieces[1::3], pieces[2::3])  # "br/": <br/>
        del pieces[2::3]
    else:
        pieces = _TAG.split(html)
    pieces[1::2] = map(emit.__getitem__, pieces[1::2])
    text = "".join(pieces)
    if _HIDDEN in text or ("<" in text and _MARKUP_LEFT.search(text) is not None):
        return None
    if "&" in text:
        text = _unescape(text)
    return text.replace(_MARK, "") if marked else text


@cache
def _parser() -> Callable[[str], str]:
    from html.parser import HTMLParser  # deferred: only markup the split does not take

    class TextExtractor(HTMLParser):
        """REQ-04-35: the text of an HTML value, block tags as line breaks, hidden tags
        dropped."""

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

    def text(html: str) -> str:
        parser = TextExtractor()
        parser.feed(html)
        parser.close()
        return "".join(parser.parts)

    return text


def parser_text(html: str) -> str:
    """REQ-04-35: the untidied text ``html.parser`` gives (the reference for everything)."""
    return _parser()(html)


#: a value the split does not take and this long goes to the linear fallback: html.parser
#: takes quadratic time on unfinished markup ("<a " * 20000, 60 KB: 28 s)
PARSER_MAX: Final = 50_000
_ANY_TAG: Final = re.compile(r"<[^>]*>?")
_HIDDEN_BLOCK: Final = re.compile(r"<(script|style|head|title)\b.*?</\1\s*>", re.S | re.I)


def _fallback_text(html: str) -> str:
    """Tags dropped, entities decoded, without html.parser: for a value it cannot take (its
    AssertionError on ``<![foo[ x ]]>``) or should not (too long to parse in time)."""
    return unescape(_ANY_TAG.sub(" ", _HIDDEN_BLOCK.sub(" ", html)))


@lru_cache(maxsize=4096)
def html_to_text(html: str) -> str:
    """REQ-04-35: HTML content becomes plain text: tags dropped, entities decoded, tidy lines.
    Never raises: whatever Odoo stored, the tool answers (SPEC-10: nothing crashes a call).
    Cached (issue 30): Odoo repeats html values across records (the company's terms on every
    quotation, signatures, disclaimers); a value seen again costs a dictionary lookup."""
    if "<" not in html:  # no markup: the parser's text is the value, entities decoded
        return tidy_text(_unescape(html) if "&" in html else html)
    text = _split_text(html)
    if text is None:
        try:
            text = parser_text(html) if len(html) <= PARSER_MAX else _fallback_text(html)
        except Exception:  # html.parser's own assertions on odd markup
            text = _fallback_text(html)
    return tidy_text(text)
