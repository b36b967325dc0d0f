"""The docs site's pages around the matrix (``docs/_hooks/reference.py`` adds them):

- one page per catalogue document (``conformance/requirements/SPEC-04.md``), one section per
  requirement, anchored by its id (``#REQ-04-05``): its summary, keyword, seed section,
  status, the code that implements it, the scenarios with their verdicts, the unit tests and
  their outcome, the proof by mutation, the decisions it rests on and, when it fails, the
  latest run's failure messages; the page names its seed file, linked to its text in the
  repository (at the build's commit) when the repository has it;
- one page per feature file (``conformance/scenarios/tools_read.md``), one section per
  scenario anchored by its line (``#L12``), which the matrix and the requirement pages link;
- the home page's verdict: the latest run's counts of the MUST requirements.

The output is Markdown: links to other pages are ``.md`` paths MkDocs resolves and checks;
texts from the catalogue and the feature files are escaped.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Final

from odoo_mcp_conformance.catalogue import Catalogue
from odoo_mcp_conformance.trace.build import Trace, TraceRow
from odoo_mcp_conformance.trace.matrix import (
    FEATURES_DIR,
    MATRIX_PAGE,
    REQUIREMENTS_DIR,
    STATUS_ORDER,
    Links,
    document_slug,
    feature_slug,
    status_class,
)

__all__ = [
    "MUST_GROUPS",
    "ScenarioVerdicts",
    "feature_pages",
    "home_verdict",
    "must_counts",
    "requirement_failures",
    "requirement_pages",
    "scenario_verdicts",
]

#: a scenario's label (``tools_read.feature: reads``) -> its outcome in each run and example
ScenarioVerdicts = Mapping[str, Sequence[str]]

#: the home page's groups of MUST requirements, and the statuses each counts
MUST_GROUPS: Final = (
    ("passing", ("passing", "unit-tested")),
    ("unproven", ("unproven",)),
    ("failing", ("failing", "inconclusive")),
    ("untested", ("untested", "not_run", "not_applicable")),
)

#: a scenario's outcome (report.json) as the status class that colours it
_OUTCOME_CLASS: Final = {
    "passed": "passing",
    "failed": "failing",
    "not_applicable": "not_applicable",
    "noted": "noted",
    "inconclusive": "failing",
}


def scenario_verdicts(reports: Sequence[Path]) -> dict[str, list[str]]:
    """Each scenario's outcomes in the kit runs' ``report.json`` (an outline: one per example)."""
    found: dict[str, list[str]] = {}
    for path in reports:
        data = json.loads(path.read_text())
        for scenario in data.get("scenarios", ()):
            label = f"{scenario['feature']}: {scenario['scenario']}"
            found.setdefault(label, []).append(str(scenario["outcome"]))
    return found


def requirement_failures(reports: Sequence[Path]) -> dict[str, list[str]]:
    """Each requirement's failure messages in the kit runs' ``report.json`` (its
    ``failures``), in the order found, each once."""
    found: dict[str, list[str]] = {}
    for path in reports:
        data = json.loads(path.read_text())
        for requirement in data.get("requirements", ()):
            messages = [str(m) for m in requirement.get("failures", ()) if str(m).strip()]
            if not messages:
                continue
            known = found.setdefault(str(requirement["id"]), [])
            for message in messages:
                if message not in known:
                    known.append(message)
    return found


_PLACEHOLDER = re.compile(r"<[^<>]+>")


def _outcomes_of(label: str, verdicts: ScenarioVerdicts) -> list[str]:
    """A scenario's outcomes; an outline's (``<signal> lets ...``) are its examples' (``SIGINT
    lets ...``), which the report names with the placeholders filled in."""
    if label in verdicts:
        return list(verdicts[label])
    if not _PLACEHOLDER.search(label):
        return []
    pattern = re.compile(".+?".join(re.escape(part) for part in _PLACEHOLDER.split(label)))
    return [o for shown, found in verdicts.items() if pattern.fullmatch(shown) for o in found]


def _md(text: str) -> str:
    """A plain text as Markdown that shows it as it is (no emphasis, link, tag or attribute)."""
    text = escape(" ".join(text.split()), quote=False)
    for char in "\\`*_[]{}#|":
        text = text.replace(char, "\\" + char)
    return text


def _badge(status: str, shown: str | None = None) -> str:
    return f'<span class="req-status {status_class(status)}">{escape(shown or status)}</span>'


def _outcomes(outcomes: Sequence[str]) -> str:
    """``passed``, or ``2 passed`` ``1 not_applicable`` for several runs or examples."""
    if not outcomes:
        return _badge("not_run")
    counted = Counter(outcomes)
    if len(outcomes) == 1:
        return _badge(_OUTCOME_CLASS.get(outcomes[0], outcomes[0]), outcomes[0])
    return " ".join(
        _badge(_OUTCOME_CLASS.get(outcome, outcome), f"{n} {outcome}")
        for outcome, n in sorted(counted.items())
    )


def _code_item(links: Links, location: str) -> str:
    where, _, name = location.partition(" ")
    path, _, line = where.rpartition(":")
    if not line.isdigit():
        path, line = where, ""
    shown = f" `{name}`" if name else ""
    return f"- [`{where}`]({links.blob(path, line)}){shown}"


def _test_item(links: Links, label: str) -> str:
    """``tests/a.py::test_x (passed)``: the test file linked, the outcome coloured."""
    nodeid, _, outcome = label.rpartition(" (")
    outcome = outcome.rstrip(")")
    path, _, name = nodeid.partition("::")
    shown = " ".join(
        _badge("passing" if o.endswith("passed") else _test_class(o), o)
        for o in outcome.split(", ")
    )
    return f"- [`{path}`]({links.blob(path)})`::{name}` {shown}"


def _test_class(outcome: str) -> str:
    word = outcome.split()[-1]
    return {"failed": "failing", "error": "failing"}.get(word, "not_run")


def _failures(messages: Sequence[str]) -> list[str]:
    """The failure messages of a requirement: a raw HTML list (Markdown is not read in it),
    every message escaped, long ones wrapping (``.req-failures`` in matrix.css)."""
    if not messages:
        return []
    items = "".join(f"<li>{escape(' '.join(m.split()))}</li>" for m in messages)
    return [
        f"**Failures** ({len(messages)}), from the latest run's report:",
        "",
        f'<ul class="req-failures">{items}</ul>',
        "",
    ]


def _requirement_section(
    links: Links,
    row: TraceRow,
    catalogue: Catalogue,
    verdicts: ScenarioVerdicts,
    failures: Sequence[str] = (),
) -> list[str]:
    entry = catalogue.get(row.id)
    section = _md(row.section) if row.section else "none"
    lines = [
        f"## {row.id} {{#{row.id}}}",
        "",
        f"{_badge(row.status)} **{_md(row.keyword)}** · seed section: *{section}* · "
        f"[its row in the matrix]({links.to_page(MATRIX_PAGE, row.id)})",
        "",
        f'<p class="req-text">{escape(row.summary)}</p>',
        "",
    ]
    if entry is not None and entry.reason:
        lines += [f'<p class="req-text"><em>Excluded:</em> {escape(entry.reason)}</p>', ""]
    checks = f"- **Seed checks**: {_badge(row.seed_status)}"
    if row.other_sources:
        others = ", ".join(_md(s) for s in row.other_sources)
        checks += f"; **decision / reference checks** ({others}): {_badge(row.other_status)}"
    lines.append(checks)
    proof = f"- **Proof by mutation**: {_badge(row.proof)}"
    if row.mutants:
        proof += " " + ", ".join(_md(m) for m in row.mutants)
    lines.append(proof)
    if entry is not None and entry.unobservable:
        lines.append(f"- **Unobservable on the wire**: {_md(entry.unobservable)}")
    if entry is not None and entry.not_in_seed:
        lines.append(f"- **Not in the seed**: {_md(entry.not_in_seed)}")
    if row.decisions:
        decisions = ", ".join(f"[decision {n}]({links.decision(n)})" for n in row.decisions)
        lines.append(f"- **Decisions**: {decisions}")
    if entry is not None and entry.note:
        lines.append(f"- **Note**: {_md(entry.note)}")
    lines.append("")
    lines += _failures(failures)
    lines += [f"**Code** ({len(row.code)})", ""]
    lines += [_code_item(links, c) for c in row.code] or ["- none: no docstring names it"]
    lines += ["", f"**Scenarios** ({len(row.scenarios)})", ""]
    locations = [*row.scenario_locations, *[""] * len(row.scenarios)][: len(row.scenarios)]
    for label, location in zip(row.scenarios, locations, strict=True):
        shown = f"[{_md(label)}]({links.scenario(location)})" if location else _md(label)
        lines.append(f"- {shown} {_outcomes(_outcomes_of(label, verdicts))}")
    if not row.scenarios:
        lines.append("- none")
    lines += ["", f"**Unit tests** ({len(row.tests)})", ""]
    lines += [_test_item(links, t) for t in row.tests] or ["- none marked with it"]
    lines.append("")
    return lines


def requirement_pages(
    trace: Trace,
    catalogue: Catalogue,
    links: Links,
    verdicts: ScenarioVerdicts,
    note: str = "",
    *,
    failures: Mapping[str, Sequence[str]] | None = None,
    in_repository: Callable[[str], bool] | None = None,
) -> dict[str, str]:
    """Source path -> Markdown: an index and one page per document, a section per row.
    ``links``: code links (the repository at the build's commit); ``note``: a line every page
    shows under its title (e.g. that git was not available); ``failures``: each requirement's
    failure messages (:func:`requirement_failures`); ``in_repository``: whether the
    repository has a file (the document's seed text is linked only then, as code links are:
    the site does not publish the seeds; ``None``: assume it has)."""
    failures = failures or {}
    titles = {doc.document.id: doc.document for doc in catalogue.documents}
    documents = sorted({row.document for row in trace.rows})
    pages: dict[str, str] = {}
    index = [
        "# Requirements",
        "",
        "One page per document of the catalogue (`spec/*.toml`), one section per requirement: "
        "its text, where the reference server implements it, the scenarios and unit tests "
        "that prove it and their verdicts, and the proof by mutation. The "
        f"[matrix]({posixpath.relpath(MATRIX_PAGE, REQUIREMENTS_DIR)}) shows them all at once.",
        "",
        *([note, ""] if note else []),
        "| Document | Title | Requirements | Statuses |",
        "|---|---|---|---|",
    ]
    for document in documents:
        rows = [r for r in trace.rows if r.document == document]
        source = f"{REQUIREMENTS_DIR}/{document_slug(document)}.md"
        here = links.on(source, markdown=True)
        info = titles.get(document)
        title = info.title if info else "ids outside the catalogue"
        lines = [f"# {_md(document)}: {_md(title)}", ""]
        if info is not None:
            lines += [
                f"From {_source(here, info.source, in_repository, len(rows))}.",
                "",
            ]
        if note:
            lines += [note, ""]
        lines += [_status_line(rows), ""]
        for row in rows:
            lines += _requirement_section(here, row, catalogue, verdicts, failures.get(row.id, ()))
        pages[source] = "\n".join(lines)
        index.append(
            f"| [{_md(document)}]({document_slug(document)}.md) | {_md(title)} | {len(rows)} "
            f"| {_status_line(rows)} |"
        )
    pages[f"{REQUIREMENTS_DIR}/index.md"] = "\n".join(index) + "\n"
    return pages


def _source(
    links: Links, source: str, in_repository: Callable[[str], bool] | None, count: int
) -> str:
    """The document's seed file, linked to its text in the repository at the build's commit
    (the site does not publish the seeds); named only when the repository lacks it."""
    shown = f"`{source}`"
    if in_repository is not None and not in_repository(source):
        return f"{shown} ({count} requirements; its text is not in this repository)"
    return f"[{shown}]({links.blob(source)}) ({count} requirements)"


def _status_line(rows: Sequence[TraceRow]) -> str:
    counts: Counter[str] = Counter(r.status for r in rows)
    order = [s for s in STATUS_ORDER if s in counts] + sorted(set(counts) - set(STATUS_ORDER))
    return " ".join(_badge(s, f"{counts[s]} {s}") for s in order)


@dataclass(frozen=True)
class _Chunk:
    start: int  # the first line shown (1-based): the scenario's tags, else its keyword
    line: int  # the line of the ``Scenario:`` keyword (the anchor and the trace's location)
    name: str
    text: list[str]


def _chunks(lines: Sequence[str]) -> tuple[list[str], list[_Chunk]]:
    """A feature file cut into its header (feature, description, background) and scenarios,
    each with the tag lines and comments right above its keyword."""
    keywords = ("Scenario:", "Scenario Outline:", "Example:")
    starts: list[tuple[int, int, str]] = []
    for number, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if stripped.startswith(keywords):
            start = number
            while start > 1 and lines[start - 2].strip().startswith(("@", "#")):
                start -= 1
            starts.append((start, number, stripped.split(":", 1)[1].strip()))
    header = list(lines[: starts[0][0] - 1]) if starts else list(lines)
    chunks = []
    for index, (start, line, name) in enumerate(starts):
        end = starts[index + 1][0] - 1 if index + 1 < len(starts) else len(lines)
        text = list(lines[start - 1 : end])
        while text and not text[-1].strip():
            text.pop()
        chunks.append(_Chunk(start, line, name, text))
    return header, chunks


def _gherkin(lines: Sequence[str]) -> list[str]:
    fence = "````"
    while any(fence in line for line in lines):
        fence += "`"
    return [f"{fence}gherkin", *_dedent(lines), fence]


def _dedent(lines: Sequence[str]) -> list[str]:
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] for line in lines]


def feature_pages(
    features: Path,
    shown_dir: str,
    trace: Trace,
    links: Links,
    verdicts: ScenarioVerdicts,
    note: str = "",
) -> dict[str, str]:
    """Source path -> Markdown: an index and one page per feature file of ``features``
    (``shown_dir``: the directory as the repository names it), one section per scenario
    anchored ``#L<line>``, with its requirements linked and its verdicts."""
    document_of = {row.id: row.document for row in trace.rows}
    pages: dict[str, str] = {}
    index = [
        "# Scenarios",
        "",
        "The kit's Gherkin feature files, one page each, one section per scenario with the "
        "requirements it proves and its verdicts in the latest run.",
        "",
        *([note, ""] if note else []),
        "| Feature file | Feature | Scenarios | Verdicts |",
        "|---|---|---|---|",
    ]
    for path in sorted(features.rglob("*.feature")):
        lines = path.read_text(encoding="utf-8").splitlines()
        header, chunks = _chunks(lines)
        source = f"{FEATURES_DIR}/{feature_slug(path.name)}.md"
        here = links.on(source, markdown=True)
        title = next(
            (
                line.strip().split(":", 1)[1].strip()
                for line in lines
                if line.strip().startswith("Feature:")
            ),
            path.name,
        )
        repository = f"{shown_dir}/{path.relative_to(features).as_posix()}"
        page = [
            f"# {_md(path.name)}",
            "",
            f"{_md(title)} ([`{repository}`]({here.blob(repository)}), {len(chunks)} scenarios).",
            "",
            *([note, ""] if note else []),
            *_gherkin(header),
            "",
        ]
        all_outcomes: list[str] = []
        for chunk in chunks:
            label = f"{path.name}: {chunk.name}"
            outcomes = _outcomes_of(label, verdicts)
            all_outcomes += outcomes
            tags = {
                tag.lstrip("@")
                for line in chunk.text
                if line.strip().startswith("@")
                for tag in line.split()
            }
            requirements = [t for t in sorted(tags) if t in document_of] + [
                r for r in sorted(_feature_tags(lines) & set(document_of)) if r not in tags
            ]
            linked = ", ".join(
                f"[{r}]({here.requirement(r, document_of[r])})" for r in requirements
            )
            page += [
                f"## {_md(chunk.name)} {{#L{chunk.line}}}",
                "",
                f"{_outcomes(outcomes)} · requirements: {linked or 'none'} · "
                f"[line {chunk.line}]({here.blob(repository, chunk.line)})",
                "",
                *_gherkin(chunk.text),
                "",
            ]
        pages[source] = "\n".join(page)
        index.append(
            f"| [`{_md(path.name)}`]({feature_slug(path.name)}.md) | {_md(title)} "
            f"| {len(chunks)} | {_outcomes(all_outcomes) if all_outcomes else _badge('not_run')} |"
        )
    pages[f"{FEATURES_DIR}/index.md"] = "\n".join(index) + "\n"
    return pages


def _feature_tags(lines: Sequence[str]) -> set[str]:
    """The tags above ``Feature:``: they apply to every scenario."""
    tags: set[str] = set()
    for raw in lines:
        stripped = raw.strip()
        if stripped.startswith("Feature:"):
            return tags
        if stripped.startswith("@"):
            tags |= {t.lstrip("@") for t in stripped.split() if t.startswith("@")}
    return set()


def must_counts(trace: Trace) -> dict[str, int]:
    """The testable MUST requirements of the catalogue, per group of :data:`MUST_GROUPS`."""
    rows = [r for r in trace.rows if r.keyword == "MUST" and r.testable]
    return {group: sum(r.status in statuses for r in rows) for group, statuses in MUST_GROUPS}


def home_verdict(trace: Trace, *, run: str | None, built: str) -> str:
    """The home page's verdict: the MUST requirements passing, unproven, failing and untested
    in the latest run (Markdown: a raw HTML block, then a line); ``run``: what was run (None:
    no run was found), ``built``: where the site was built from."""
    counts = must_counts(trace)
    total = sum(counts.values())
    excluded = sum(r.keyword == "MUST" and not r.testable for r in trace.rows)
    boxes = "".join(
        f'<div class="req-verdict-box {status_class(group)}" data-status="{group}" '
        f'data-count="{count}"><span class="req-verdict-count">{count}</span>'
        f'<span class="req-verdict-label">{group}</span></div>'
        for group, count in counts.items()
    )
    matrix = MATRIX_PAGE
    if run is None:
        head = (
            '!!! warning "No kit run"\n    No kit run was found when this site was built '
            "(`tox -e docs` runs the kit first): the counts below come from the scan alone, "
            "so a requirement with scenarios is *untested* here.\n"
        )
    else:
        head = f"The latest kit run, against {run}, on the {total} testable MUST requirements:\n"
    return (
        f"{head}\n"
        f'<div class="req-verdict">{boxes}</div>\n\n'
        f"*Passing*: a scenario passed (or, with none, the unit tests marked with it); "
        f"*unproven*: its checks pass but no mutant showed they can fail; *untested*: no "
        f"scenario judged it. {excluded} MUST requirements are excluded as untestable. "
        f"Every requirement, with its code, scenarios and tests: the "
        f"[REQ coverage matrix]({matrix}) (site built from {built}).\n"
    )
