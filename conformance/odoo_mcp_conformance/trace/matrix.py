"""The REQ coverage matrix as the docs site shows it: a summary per document, colour-coded
statuses, links into the repository, and rows a small script filters (``docs/javascripts/
matrix.js`` reads the ``data-*`` attributes of each row; ``docs/stylesheets/matrix.css``
colours the ``req-status-*`` classes).

The output is Markdown whose tables are raw HTML blocks: Markdown is not read inside them,
so every text is escaped here and every link is absolute.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from html import escape
from typing import Final

from odoo_mcp_conformance.trace.build import Trace, TraceRow

__all__ = [
    "STATUS_ORDER",
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
    "untested",
    "not_run",
    "not_applicable",
    "excluded",
    "untracked",
)


def status_class(status: str) -> str:
    """``req-status-not-run`` for ``not_run``: the CSS class that colours a status."""
    return "req-status-" + status.replace("_", "-")


def row_source(row: TraceRow) -> str:
    """``decision`` when the catalogue row rests on one of our decisions, ``seed`` when it
    comes from the seed text alone, ``none`` for an id outside the catalogue."""
    if row.status == "untracked":
        return "none"
    return "decision" if row.decisions else "seed"


def _blob(repo_url: str, path: str, line: str | int | None = None) -> str:
    url = f"{repo_url.rstrip('/')}/blob/main/{path}"
    return f"{url}#L{line}" if line else url


def code_link(repo_url: str, location: str) -> str:
    """A ``path:line name`` location (trace scan) as a link to the line in the repository."""
    where, _, name = location.partition(" ")
    path, _, line = where.rpartition(":")
    if not line.isdigit():
        path, line = where, ""
    title = escape(f"{where} {name}".strip())
    shown = escape(where.rpartition("/")[2])
    href = escape(_blob(repo_url, path, line))
    return f'<a href="{href}" title="{title}"><code>{shown}</code></a>'


def _scenario_link(repo_url: str, label: str, location: str | None) -> str:
    if not location:
        return escape(label)
    path, _, line = location.rpartition(":")
    return f'<a href="{escape(_blob(repo_url, path, line))}">{escape(label)}</a>'


def _status(status: str) -> str:
    return f'<span class="req-status {status_class(status)}">{escape(status)}</span>'


def _summary(trace: Trace, documents: Sequence[str]) -> list[str]:
    """One line per document (and the total): each status's count and a bar of its share."""
    statuses = [s for s in STATUS_ORDER if s in trace.counts] + sorted(
        s for s in trace.counts if s not in STATUS_ORDER
    )
    head = "".join(f"<th>{_status(s)}</th>" for s in statuses)
    lines = [
        '<table class="req-summary">',
        f"<thead><tr><th>Document</th><th>Total</th>{head}</tr></thead>",
        "<tbody>",
    ]
    groups = [(doc, [r for r in trace.rows if r.document == doc]) for doc in documents]
    for name, rows in [*groups, ("all", list(trace.rows))]:
        counts: Counter[str] = Counter(r.status for r in rows)
        cells = "".join(_summary_cell(s, counts[s], len(rows)) for s in statuses)
        total = "req-summary-total" if name == "all" else "req-summary-doc"
        lines.append(
            f'<tr class="{total}" data-document="{escape(name)}"><th>{escape(name)}</th>'
            f"<td>{len(rows)}</td>{cells}</tr>"
        )
    lines += ["</tbody>", "</table>"]
    return lines


def _summary_cell(status: str, count: int, total: int) -> str:
    share = round(100 * count / total) if total else 0
    return (
        f'<td class="req-count" data-status="{status}" data-count="{count}">{count}'
        f'<span class="req-bar"><span class="req-bar-fill {status_class(status)}" '
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


def _decisions(repo_url: str, numbers: Sequence[int]) -> str:
    url = escape(_blob(repo_url, "spec/decisions.md"))
    return ", ".join(f'<a href="{url}">decision {n}</a>' for n in numbers)


def _row(repo_url: str, row: TraceRow) -> str:
    code = "<br>".join(code_link(repo_url, c) for c in row.code) or "none"
    locations = [*row.scenario_locations, *[""] * len(row.scenarios)][: len(row.scenarios)]
    scenarios = (
        "<br>".join(
            _scenario_link(repo_url, s, w) for s, w in zip(row.scenarios, locations, strict=True)
        )
        or "none"
    )
    tests = "<br>".join(f"<code>{escape(t)}</code>" for t in row.tests) or "none"
    others = (
        f"{_status(row.other_status)} {escape(', '.join(row.other_sources))}"
        if row.other_sources
        else "none"
    )
    proof = _status(row.proof) + (
        "<br>" + "<br>".join(escape(m) for m in row.mutants) if row.mutants else ""
    )
    section = escape(row.section) if row.section else "none"
    if row.decisions:
        section += "<br>" + _decisions(repo_url, row.decisions)
    return (
        f'<tr class="req-row" id="{escape(row.id)}" data-document="{escape(row.document)}" '
        f'data-status="{escape(row.status)}" data-source="{row_source(row)}">'
        f"<td><code>{escape(row.id)}</code></td><td>{escape(row.keyword)}</td>"
        f"<td>{_status(row.status)}</td><td>{section}</td><td>{_status(row.seed_status)}</td>"
        f"<td>{others}</td><td>{proof}</td><td>{code}</td><td>{scenarios}</td><td>{tests}</td>"
        f"<td>{escape(row.summary)}</td></tr>"
    )


_COLUMNS: Final = (
    "REQ",
    "Keyword",
    "Status",
    "Seed section",
    "Seed checks",
    "Decision / reference checks",
    "Mutants / variants",
    "Code",
    "Scenarios",
    "Unit tests",
    "Summary",
)


def _document_table(repo_url: str, document: str, rows: Sequence[TraceRow]) -> list[str]:
    head = "".join(f"<th>{c}</th>" for c in _COLUMNS)
    return [
        f'<div class="req-document" data-document="{escape(document)}">',
        f'<h2 id="doc-{escape(document)}">{escape(document)}</h2>',
        '<div class="req-scroll"><table class="req-matrix">',
        f"<thead><tr>{head}</tr></thead>",
        "<tbody>",
        *(_row(repo_url, row) for row in rows),
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


def render_matrix(trace: Trace, repo_url: str) -> str:
    """The summary, the filters and one table per document (raw HTML blocks, no blank line
    inside a block so Markdown keeps each whole)."""
    documents = sorted({row.document for row in trace.rows})
    blocks = [_summary(trace, documents), _filters(trace, documents)]
    blocks += [
        _document_table(repo_url, doc, [r for r in trace.rows if r.document == doc])
        for doc in documents
    ]
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"
