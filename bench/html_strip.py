"""Benchmark (issue 30): ``strip_html`` per value, the ``html.parser`` version against today's.

Run by hand (``python bench/html_strip.py``); it prints one table row per input: microseconds
per value (best of several runs) for the old code (``html.parser`` for every value, then the
per-line tidy), the new conversion uncached (``html_to_text.__wrapped__``: the cost of a value
seen for the first time) and the ratio of the two, then apart the cost of ``strip_html`` on a
value already in its ``lru_cache`` (a repeated value: a dictionary lookup, not a conversion;
timing ``strip_html`` alone on one value measures only that). ``--profile`` adds a cProfile of
each on the 10 KB value. The numbers go into closing notes, never into timed tests.

Inputs: the corpus of ``tests/fixtures/html_corpus`` (each value, and the mean over the values
the regular expression split takes and over those it hands to ``html.parser``), Odoo-like
snippets of ~100 bytes, 1 KB and 10 KB, and values without markup.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import re
import timeit
from collections.abc import Callable
from pathlib import Path

from odoo_mcp.formatting import strip_html
from odoo_mcp.html_text import _split_text, html_to_text, parser_text

#: the conversion without the cache: what a value not seen before costs
uncached_strip_html: Callable[[str], str] = html_to_text.__wrapped__

CORPUS = Path(__file__).parents[1] / "tests" / "fixtures" / "html_corpus" / "corpus.json"

#: a 377-byte unit of what Odoo's editor stores: styled paragraphs, a list, a table, a link
UNIT = (
    '<p style="margin:0px;">Dear <b>customer</b>, thank you for your order &amp; trust.</p>'
    "<ul><li>Solid oak table, 120&nbsp;x&nbsp;80&nbsp;cm</li><li>Delivered <i>assembled</i>"
    '</li></ul><table class="table"><tr><td>Payment</td><td>30 days</td></tr></table><p><br>'
    '</p><div><span style="color: rgb(0,0,0);">Regards,</span><br><a href="https://example.c'
    'om/?a=1&amp;b=2">Marc</a></div>'
)
SNIPPETS = {
    "100 B, 12 tags": (
        "<p>Dear <b>customer</b>,<br>thank you for your <i>order</i>.</p>"
        "<ul><li>one &amp; two</li></ul>"
    ),
    "100 B, 6 tags": (
        "<p>Dear customer,</p><p>Please find attached our quotation for the "
        "<b>office chairs</b>.</p>"
    ),
    "80 B, <p> only": "<p>Dear customer, please find attached our quotation for the chairs.</p>",
    "100 B + <script>": (
        "<p>Dear <b>customer</b>,</p><ul><li>one &amp; two</li></ul><script>x()</script>"
    ),
    "1 KB": UNIT * 3,
    "10 KB": UNIT * 30,
    "no markup, 75 B": "Call back on Monday about the delivery of the chairs, ask for Marc.",
    "no markup, 1 KB": "Call back on Monday\nabout the delivery of the chairs, ask  for Marc.\n"
    * 15,
}


def old_strip_html(html: str) -> str:
    """The code before issue 30: html.parser for every value, then a tidy per line."""
    lines = (" ".join(line.split()) for line in parser_text(html).splitlines())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def per_value(function: Callable[[str], str], html: str) -> float:
    """Microseconds per call, best of 5 runs of ~20 ms."""
    timer = timeit.Timer(lambda: function(html))
    number, _ = timer.autorange()
    number = max(1, number // 10)
    return min(timer.repeat(repeat=5, number=number)) / number * 1e6


def timings(html: str) -> tuple[float, float, float]:
    """Old, new uncached and new cached (an ``lru_cache`` hit) microseconds for one value."""
    assert uncached_strip_html(html) == strip_html(html) == old_strip_html(html)
    strip_html(html)  # in the cache from here on
    return (
        per_value(old_strip_html, html),
        per_value(uncached_strip_html, html),
        per_value(strip_html, html),
    )


def row(label: str, old: float, new: float, cached: float) -> None:
    print(f"{label:<34} {old:>10.2f} {new:>10.2f} {old / new:>7.1f}x {cached:>12.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", action="store_true", help="cProfile both on 10 KB")
    args = parser.parse_args()
    cases = [case for case in json.loads(CORPUS.read_text("utf-8")) if "raises" not in case]
    print("us per value; new = uncached conversion, ratio = old / new; cached = lru_cache hit")
    print(f"{'input':<34} {'old us':>10} {'new us':>10} {'ratio':>8} {'cached us':>12}")
    split: list[tuple[float, float, float]] = []
    parsed: list[tuple[float, float, float]] = []
    for case in cases:
        html = case["html"]
        assert old_strip_html(html) == case["expected"], case["name"]
        taken = "<" not in html or _split_text(html) is not None
        (split if taken else parsed).append(timings(html))
    for label, group in (("corpus, split (%d values)", split), ("corpus, parser (%d)", parsed)):
        old, new, cached = (sum(t[i] for t in group) / len(group) for i in range(3))
        row(label % len(group), old, new, cached)
    for label, html in SNIPPETS.items():
        row(label, *timings(html))
    if args.profile:
        html = SNIPPETS["10 KB"]
        for function in (old_strip_html, uncached_strip_html):
            profile = cProfile.Profile()
            profile.runcall(lambda f=function: [f(html) for _ in range(200)])
            pstats.Stats(profile).sort_stats("tottime").print_stats(8)


if __name__ == "__main__":
    main()
