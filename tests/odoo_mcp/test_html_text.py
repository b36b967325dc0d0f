"""REQ-04-35 / issue 30: ``strip_html`` gives exactly the text the ``html.parser`` version gave.

``tests/fixtures/html_corpus/corpus.json`` holds real-looking Odoo HTML with the output that
version gave (generated once with it, Python 3.11); the property tests compare with a private
copy of that version on strings built from tag, entity and text fragments.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odoo_mcp.formatting import strip_html
from odoo_mcp.html_text import (
    _ANY_TAG,
    BLOCK_TAGS,
    HIDDEN_TAGS,
    PARSER_MAX,
    _split_text,
    tidy_text,
)

CORPUS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "html_corpus" / "corpus.json").read_text("utf-8")
)


class _Reference(HTMLParser):
    """The ``html.parser`` version of ``strip_html`` (before issue 30), as it was."""

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


def _reference_tidy(text: str) -> str:
    lines = (" ".join(line.split()) for line in text.splitlines())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _reference(html: str) -> str:
    parser = _Reference()
    parser.feed(html)
    parser.close()
    return _reference_tidy("".join(parser.parts))


def _outcome(function: Any, html: str) -> tuple[str, str]:
    try:
        return "text", function(html)
    except Exception as exc:  # the old code raised on some markup
        return "raises", type(exc).__name__


def _same_as_the_old_code(html: str) -> None:
    """The old output exactly; where the old code raised (html.parser's AssertionError), a
    text without the markup instead: nothing Odoo stores may break a tool call."""
    kind, old = _outcome(_reference, html)
    if kind == "raises":
        new = strip_html(html)
        assert "<" not in new or "<" in _ANY_TAG.sub("", html), new
    else:
        assert strip_html(html) == old


@pytest.mark.parametrize("case", CORPUS, ids=[case["name"] for case in CORPUS])
def test_corpus_output_is_unchanged(case: dict[str, Any]) -> None:
    expected = ("raises", case["raises"]) if "raises" in case else ("text", case["expected"])
    assert _outcome(_reference, case["html"]) == expected  # the corpus still is the reference
    _same_as_the_old_code(case["html"])


def test_markup_the_old_parser_broke_on_gives_text() -> None:
    """``<![foo[ x ]]>`` made html.parser raise AssertionError: the tool call failed."""
    assert strip_html("<p>a</p><![foo[ x ]]><p>b</p>") == "a b"


def test_a_value_too_long_to_parse_in_time_takes_the_linear_path() -> None:
    """html.parser takes quadratic time on unfinished markup ("<a " * 20000: 28 s): a long
    value the split does not take is stripped without it."""
    html = "<script>x</script>" + "<a " * 20000
    assert len(html) > PARSER_MAX
    assert strip_html(html) == ""


def test_well_formed_odoo_html_takes_the_fast_split() -> None:
    fast = [case["name"] for case in CORPUS if _split_text(case["html"]) is not None]
    for name in ("partner_comment", "product_desc_ul", "sale_terms_table", "chatter_body"):
        assert name in fast
    assert len(fast) >= len(CORPUS) // 2


_NAMES = [*sorted(BLOCK_TAGS | HIDDEN_TAGS), "b", "span", "a", "img", "td", "x-y", "joe@x.org"]
_name = st.sampled_from(_NAMES).flatmap(
    lambda name: st.sampled_from([name, name.upper(), name.title()])
)
_space = st.sampled_from(["", " ", "  ", "\n", "\t", "\r\n", "\xa0", "\x0b", "\u2028", "\f"])
_value = st.sampled_from(
    ['"x"', "'y z'", "bare", "a/b", '"a>b"', '"1 < 2"', "'&amp;'", "", '"<p>"', "x/"]
)
_attr = st.builds(
    lambda space, name, eq, value: f"{space}{name}{eq}{value}",
    st.sampled_from([" ", "\n", "  ", "", "/"]),
    st.sampled_from(["class", "style", "data-oe-id", "href", "=x", 'b"c']),
    st.sampled_from(["=", " = ", "", "=="]),
    _value,
)
_start = st.builds(
    lambda name, attrs, space, close: f"<{name}{''.join(attrs)}{space}{close}",
    _name,
    st.lists(_attr, max_size=3),
    _space,
    st.sampled_from([">", "/>", " />", "", "/ >"]),
)
_end = st.builds(
    lambda space, name, tail: f"<{space}/{name}{tail}",
    st.sampled_from(["", " "]),
    _name,
    st.sampled_from([">", " >", "\n>", " x>", "/>", ""]),
)
_markup = st.sampled_from(
    [
        "<!-- c -->", "<!--x-- >", "<!---->", "<!-->", "<!-- a -- b -->", "<!--", "-->",
        "<![CDATA[ x ]]>", "<!DOCTYPE html>", "<?xml x?>", "<!x>", "</>", "<", "< ", "<3",
        "<<", "<\x00p>", "</ p>", "<p <b>", "]]>",
    ]
)  # fmt: skip
_entity = st.sampled_from(
    [
        "&amp;", "&lt;", "&gt;", "&nbsp;", "&eacute;", "&#39;", "&#x2019;", "&bogus;",
        "&#99999999;", "&amp", "&am", "&#", "&#x", "&", "&&", "&copy2", "&notit;", "&#12",
        "p;", ";", "#", "\ue000",
    ]
)  # fmt: skip
_text = st.text(alphabet=st.sampled_from(list("ab z-;#=/'\"\n\t\xa0\r\u2028éß日")), max_size=6)
_fragments = st.lists(st.one_of(_start, _end, _markup, _entity, _text), max_size=14)


@settings(max_examples=600, derandomize=True, deadline=None)
@given(_fragments)
def test_same_text_as_the_html_parser_version(fragments: list[str]) -> None:
    html = "".join(fragments)
    _same_as_the_old_code(html)


@pytest.mark.parametrize(
    "html",
    [
        "<p>" + "a&nbsp;b &amp; c &lt;d&gt; &quot;e&quot; &#39;f&#39; " * 3 + "</p>",
        "<p>" + "&amp;lt; &amp;amp; &nbsp;&lt;b&gt;" * 4 + "</p>",
        "<p>" + "&amp; " * 9 + "&eacute;</p>",
        "<p>" + "&lt; " * 9 + "&am</p><b>p;</b>&nbsp",
    ],
)
def test_many_entities_as_unescape_decodes_them(html: str) -> None:
    assert strip_html(html) == _reference(html)


_whitespace = [chr(code) for code in range(0x110000) if chr(code).isspace()]


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from([*_whitespace, "a", "b c", "\r\n", " ", "\n"]), max_size=14))
def test_tidy_is_the_per_line_tidy(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert tidy_text(text) == _reference_tidy(text)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from([*_whitespace, "a", "b c", "\r\n", " ", "\n", "é"]), max_size=14))
def test_tidy_of_a_long_text_is_the_per_line_tidy(pieces: list[str]) -> None:
    """Over 256 characters an ASCII text is checked for odd white space by ``in``."""
    text = "".join(pieces) + "word " * 60
    assert tidy_text(text) == _reference_tidy(text)
    assert tidy_text(text * 2) == _reference_tidy(text * 2)


@pytest.mark.parametrize(
    "html",
    [
        "<p>a &am<b>p; b</b></p>",
        "<p>&amp<b>;</b> &#3<i>9;</i></p>",
        "<p>&<span>amp;</span> &lt;</p>",
        "<p>&amp;<b>x</b>&nbsp;<b>y</b></p>",
        "<p>&eacute<!-- c -->;</p>",
        "<p>&\ue000amp;<b>x</b></p>",
        "<P>A</P><Br/><LI>b</lI><DIV>c",
        "<p>&amp; x</p><SCRIPT>y</SCRIPT>",
        "<p>x</p><script/>&amp;<style />y",
    ],
)
def test_entities_cut_by_tags_and_tag_case_as_the_parser(html: str) -> None:
    assert strip_html(html) == _reference(html)


def test_the_names_kept_lower_cased_are_bounded() -> None:
    from odoo_mcp.html_text import _EMIT

    assert _split_text("<P>a</P><!-- x --><X-Name>b") == "\na\nb"
    assert _EMIT["P"] == "\n" and "!-- x --" not in _EMIT
    for number in range(3000):
        _EMIT[f"TAG{number}"]
    assert len(_EMIT) <= _EMIT.known + 2048
