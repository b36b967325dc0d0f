"""The REQ coverage matrix as the docs site shows it: a summary per document, colour-coded
statuses, links, and rows a small script filters (``docs/javascripts/matrix.js`` reads the
``data-*`` attributes of each row; ``docs/stylesheets/matrix.css`` colours the
``req-status-*`` classes).

The output is Markdown whose tables are raw HTML blocks: Markdown is not read inside them,
so every text is escaped here and every link is final (:class:`Links` makes them). Code links
go to the repository at the commit the site was built from; requirements, scenarios and
decisions link to the site's own pages (``trace/pages.py`` renders them) when there is one.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import Final

from odoo_mcp_conformance.trace.build import Trace, TraceRow

__all__ = [
    "DECISIONS_PAGE",
    "FEATURES_DIR",
    "MATRIX_PAGE",
    "REQUIREMENTS_DIR",
    "STATUS_ORDER",
    "Links",
    "code_link",
    "mutation_table",
    "render_matrix",
    "row_source",
    "status_class",
]

#: the statuses in the order the summary shows them
STATUS_ORDER: Final = (
    "passing",
    "unproven",
    "unit-tested",
    "failing",
    "inconclusive",
    "untested",
    "not_run",
    "not_applicable",
    "excluded",
    "untracked",
)

#: the site's pages (source paths under ``docs/``) the generated pages link to
MATRIX_PAGE: Final = "conformance/matrix.md"
REQUIREMENTS_DIR: Final = "conformance/requirements"
FEATURES_DIR: Final = "conformance/scenarios"
DECISIONS_PAGE: Final = "decisions.md"


def document_slug(document: str) -> str:
    """The page name of a catalogue document (``?``, ids outside the catalogue: ``untracked``)."""
    return "untracked" if document == "?" else document


def feature_slug(feature: str) -> str:
    """``tools_read.feature`` -> ``tools_read``: the page name of a feature file."""
    return feature.removesuffix(".feature")


@dataclass(frozen=True)
class Links:
    """Where the generated pages link.

    ``repo_url`` and ``ref``: the repository and the commit (or branch) code links point at.
    ``page``: the source path (under ``docs/``) of the page being rendered, or ``None`` when
    the output is not part of a site: then requirements, scenarios and decisions link to the
    repository too. ``markdown``: links to pages are ``.md`` paths MkDocs resolves (and checks)
    rather than final URLs (raw HTML blocks need final URLs).
    """

    repo_url: str
    ref: str = "main"
    page: str | None = None
    markdown: bool = False
    directory_urls: bool = True

    def on(self, page: str, *, markdown: bool = False) -> Links:
        """The same links, for another page of the site."""
        return replace(self, page=page, markdown=markdown)

    def blob(self, path: str, line: str | int | None = None) -> str:
        """A file (and line) of the repository at ``ref``."""
        url = f"{self.repo_url.rstrip('/')}/blob/{self.ref}/{path}"
        return f"{url}#L{line}" if line else url

    def _url(self, source: str) -> str:
        """The URL of a page, relative to the site's root (``use_directory_urls``)."""
        stem = source.removesuffix(".md")
        if not self.directory_urls:
            return stem + ".html"
        if stem == "index" or stem.endswith("/index"):
            return stem.removesuffix("index")
        return stem + "/"

    def to_page(self, source: str, anchor: str = "") -> str:
        """A link from the current page to another page of the site (and an anchor)."""
        assert self.page is not None
        fragment = f"#{anchor}" if anchor else ""
        if self.markdown:
            here = posixpath.dirname(self.page) or "."
            return posixpath.relpath(source, here) + fragment
        # the browser resolves a link against the page's URL: its directory with
        # use_directory_urls (``conformance/matrix/``), else the file's directory
        here = self._url(self.page) if self.directory_urls else posixpath.dirname(self.page)
        target = self._url(source)
        relative = posixpath.relpath(target or ".", here.rstrip("/") or ".")
        if target.endswith("/") or not target:
            relative += "/"
        return relative + fragment

    def requirement(self, req_id: str, document: str) -> str | None:
        """The requirement's section on its document's page (``None`` outside a site)."""
        if self.page is None:
            return None
        return self.to_page(f"{REQUIREMENTS_DIR}/{document_slug(document)}.md", req_id)

    def scenario(self, location: str) -> str:
        """``features/tools_read.feature:7``: the scenario's section on its feature's page,
        or the line in the repository outside a site."""
        path, _, line = location.rpartition(":")
        if not line.isdigit():
            path, line = location, ""
        if self.page is None:
            return self.blob(path, line)
        page = f"{FEATURES_DIR}/{feature_slug(posixpath.basename(path))}.md"
        return self.to_page(page, f"L{line}" if line else "")

    def decision(self, number: int) -> str:
        """A decision's row on the site's decisions page, or the file in the repository."""
        if self.page is None:
            return self.blob("spec/decisions.md")
        return self.to_page(DECISIONS_PAGE, f"decision-{number}")


def status_class(status: str) -> str:
    """``req-status-not-run`` for ``not_run``: the CSS class that colours a status."""
    return "req-status-" + status.replace("_", "-")


def row_source(row: TraceRow) -> str:
    """``decision`` when the catalogue row rests on one of our decisions, ``seed`` when it
    comes from the seed text alone, ``none`` for an id outside the catalogue."""
    if row.status == "untracked":
        return "none"
    return "decision" if row.decisions else "seed"


def _links(links: Links | str) -> Links:
    return Links(links) if isinstance(links, str) else links


def code_link(links: Links | str, location: str) -> str:
    """A ``path:line name`` location (trace scan) as a link to the line in the repository."""
    where, _, name = location.partition(" ")
    path, _, line = where.rpartition(":")
    if not line.isdigit():
        path, line = where, ""
    title = escape(f"{where} {name}".strip())
    shown = escape(where.rpartition("/")[2])
    href = escape(_links(links).blob(path, line))
    return f'<a href="{href}" title="{title}"><code>{shown}</code></a>'


def _scenario_link(links: Links, label: str, location: str | None) -> str:
    if not location:
        return escape(label)
    feature, colon, name = label.partition(": ")
    shown = (
        f'<span class="req-feature">{escape(feature)}:</span> {escape(name)}'
        if colon
        else escape(label)
    )
    return f'<a href="{escape(links.scenario(location))}">{shown}</a>'


def _status(status: str) -> str:
    return f'<span class="req-status {status_class(status)}">{escape(status)}</span>'


def _summary(trace: Trace, documents: Sequence[str]) -> list[str]:
    """One line per document (and the total): each status's count and a bar of its share.
    The name, the total and each count are cells of their own, padded (matrix.css): a
    document's name (``SPEC-03-07``) never runs into its count; the table scrolls in its box
    rather than overflow the page."""
    statuses = [s for s in STATUS_ORDER if s in trace.counts] + sorted(
        s for s in trace.counts if s not in STATUS_ORDER
    )
    head = "".join(f"<th>{_status(s)}</th>" for s in statuses)
    lines = [
        '<div class="req-summary-box"><table class="req-summary">',
        '<thead><tr><th class="req-summary-name">Document</th>'
        f'<th class="req-summary-n">Total</th>{head}</tr></thead>',
        "<tbody>",
    ]
    groups = [(doc, [r for r in trace.rows if r.document == doc]) for doc in documents]
    for name, rows in [*groups, ("all", list(trace.rows))]:
        counts: Counter[str] = Counter(r.status for r in rows)
        cells = "".join(_summary_cell(s, counts[s], len(rows)) for s in statuses)
        total = "req-summary-total" if name == "all" else "req-summary-doc"
        lines.append(
            f'<tr class="{total}" data-document="{escape(name)}">'
            f'<th class="req-summary-name" scope="row">{escape(name)}</th>'
            f'<td class="req-summary-n">{len(rows)}</td>{cells}</tr>'
        )
    lines += ["</tbody>", "</table></div>"]
    return lines


def _summary_cell(status: str, count: int, total: int) -> str:
    share = round(100 * count / total) if total else 0
    return (
        f'<td class="req-count" data-status="{status}" data-count="{count}">'
        f'<span class="req-count-n">{count}</span> <span class="req-bar">'
        f'<span class="req-bar-fill {status_class(status)}" '
        f'style="width: {share}%"></span></span></td>'
    )


def _options(name: str, label: str, values: Iterable[str]) -> str:
    options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
    return (
        f'<label>{label} <select data-filter="{name}"><option value="">all</option>'
        f"{options}</select></label>"
    )


def _filters(trace: Trace, documents: Sequence[str]) -> list[str]:
    statuses = [s for s in STATUS_ORDER if s in trace.counts]
    sources = sorted({row_source(r) for r in trace.rows})
    return [
        '<div class="req-filters">',
        _options("document", "Document", documents),
        _options("status", "Status", statuses),
        _options("source", "Source", sources),
        f'<span class="req-shown">{len(trace.rows)} of {len(trace.rows)} shown</span>',
        "</div>",
    ]


def _decisions(links: Links, numbers: Sequence[int]) -> str:
    return ", ".join(f'<a href="{escape(links.decision(n))}">decision {n}</a>' for n in numbers)


def _requirement(links: Links, row: TraceRow) -> str:
    """The REQ cell: the id, linked to the requirement's own section when there is one."""
    href = links.requirement(row.id, row.document)
    code = f"<code>{escape(row.id)}</code>"
    return f'<a href="{escape(href)}">{code}</a>' if href else code


def _test_cell(label: str) -> str:
    """``tests/a.py::test_x (passed)`` as ``test_x (passed)``, the node id in its title (the
    requirement's page lists them whole): a long node id does not widen the column."""
    nodeid, _, outcome = label.rpartition(" (")
    if not nodeid:
        nodeid, outcome = label, ""
    name = nodeid.rpartition("::")[2] or nodeid
    shown = f"{name} ({outcome}" if outcome else name
    return f'<code title="{escape(nodeid)}">{escape(shown)}</code>'


def _checks(row: TraceRow) -> str:
    """The three verdicts of a row, one a line: seed checks, decision / reference checks and
    the proof by mutation (with its mutants)."""
    lines = [f"seed {_status(row.seed_status)}"]
    if row.other_sources:
        sources = escape(", ".join(row.other_sources))
        lines.append(f'<span class="req-sources">{sources}</span> {_status(row.other_status)}')
    mutants = "".join(f'<br><span class="req-mutant">{escape(m)}</span>' for m in row.mutants)
    lines.append(f"mutants {_status(row.proof)}{mutants}")
    return "<br>".join(lines)


def _row(links: Links, row: TraceRow) -> str:
    code = "<br>".join(code_link(links, c) for c in row.code) or "none"
    locations = [*row.scenario_locations, *[""] * len(row.scenarios)][: len(row.scenarios)]
    scenarios = (
        "<br>".join(
            _scenario_link(links, s, w) for s, w in zip(row.scenarios, locations, strict=True)
        )
        or "none"
    )
    tests = "<br>".join(_test_cell(t) for t in row.tests) or "none"
    section = escape(row.section) if row.section else "none"
    if row.decisions:
        section += "<br>" + _decisions(links, row.decisions)
    cells = (
        ("id", f"{_requirement(links, row)}<br>{escape(row.keyword)}"),
        ("status", _status(row.status)),
        ("section", section),
        ("checks", _checks(row)),
        ("code", code),
        ("scenarios", scenarios),
        ("tests", tests),
        ("summary", escape(row.summary)),
    )
    return (
        f'<tr class="req-row" id="{escape(row.id)}" data-document="{escape(row.document)}" '
        f'data-status="{escape(row.status)}" data-source="{row_source(row)}">'
        + "".join(f'<td class="req-col-{name}">{html}</td>' for name, html in cells)
        + "</tr>"
    )


#: the columns: (class suffix, header)
_COLUMNS: Final = (
    ("id", "REQ"),
    ("status", "Status"),
    ("section", "Seed section"),
    ("checks", "Checks"),
    ("code", "Code"),
    ("scenarios", "Scenarios"),
    ("tests", "Unit tests"),
    ("summary", "Summary"),
)


def _document_table(links: Links, document: str, rows: Sequence[TraceRow]) -> list[str]:
    head = "".join(f'<th class="req-col-{name}">{title}</th>' for name, title in _COLUMNS)
    return [
        f'<div class="req-document" data-document="{escape(document)}">',
        f'<h2 id="doc-{escape(document)}">{escape(document)}</h2>',
        '<div class="req-scroll"><table class="req-matrix">',
        f"<thead><tr>{head}</tr></thead>",
        "<tbody>",
        *(_row(links, row) for row in rows),
        "</tbody>",
        "</table></div>",
        "</div>",
    ]


def mutation_table(trace: Trace) -> str:
    """Issue 27: per document and overall, the mutants the kit killed of those run, and the
    seed requirements a killed mutant proves of the observable ones (Markdown)."""
    if not trace.mutation_scores:
        return ""
    lines = [
        "| Document | Mutants killed | Mutation score | Seed requirements proven |",
        "|---|---|---|---|",
    ]
    for document, score in trace.mutation_scores.items():
        share = f"{100 * score.killed / score.mutants:.0f}%" if score.mutants else "n/a"
        proven = f"{score.proven}/{score.observable}" if score.observable else "n/a"
        name = f"**{document}**" if document == "overall" else document
        lines.append(f"| {name} | {score.killed}/{score.mutants} | {share} | {proven} |")
    return "\n".join(lines) + "\n"


def render_matrix(trace: Trace, links: Links | str) -> str:
    """The summary, the filters and one table per document (raw HTML blocks, no blank line
    inside a block so Markdown keeps each whole). ``links``: a :class:`Links` for the matrix
    page, or a bare repository URL (everything links to its ``main`` branch)."""
    where = _links(links)
    documents = sorted({row.document for row in trace.rows})
    blocks = [_summary(trace, documents), _filters(trace, documents)]
    blocks += [
        _document_table(where, doc, [r for r in trace.rows if r.document == doc])
        for doc in documents
    ]
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"
