"""The docs site as built (issue 29, item 5): the matrix's links carry the build's commit and
lead to the site's own pages, every requirement has its anchor on its document's page, the
home page shows the latest verdict, and every link between generated pages resolves.

The site is built once (``mkdocs build --strict``, a few seconds) from a small fake kit report.
"""

from __future__ import annotations

import configparser
import importlib.util
import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from urllib.parse import unquote, urlsplit

import pytest

from docs_site import build_site
from odoo_mcp_conformance.catalogue import load_catalogue
from odoo_mcp_conformance.trace.build import build_trace
from odoo_mcp_conformance.trace.matrix import document_slug
from odoo_mcp_conformance.trace.pages import home_verdict, must_counts

ROOT = Path(__file__).resolve().parents[2]
REPO = "https://example.org/acme/odoo-mcp"
#: the fake run: one requirement passing with its scenario, one failing (with its message)
PASSING, FAILING = "REQ-04-05", "REQ-04-06"
FAILURE = "tools_read.feature: reads [stdio]: expected <ids> & got *none*"


def _git_head() -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _report(path: Path) -> Path:
    path.write_text(
        json.dumps(
            {
                "target": "fake-target",
                "requirements": [
                    {"id": PASSING, "status": "passing", "seed_status": "passing"},
                    {
                        "id": FAILING,
                        "status": "failing",
                        "seed_status": "failing",
                        "failures": [FAILURE],
                    },
                ],
                "scenarios": [
                    {
                        "feature": "normalization.feature",
                        "scenario": "a many2one is an {id, name} object, and null when empty",
                        "requirements": [PASSING],
                        "outcome": "passed",
                    }
                ],
            }
        )
    )
    return path


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("docs-site")
    return build_site(
        work / "site",
        unset=("ODOO_MCP_REPO_REF",),  # the build's own commit, not a developer's setting
        ODOO_MCP_KIT_REPORT=str(_report(work / "report.json")),
        ODOO_MCP_MUTATION_RESULTS=str(work / "no-mutation"),
        ODOO_MCP_REPO_URL=REPO,
    )


def _generated(site: Path) -> list[Path]:
    pages = [site / "index.html", site / "conformance" / "matrix" / "index.html"]
    for folder in ("requirements", "scenarios"):
        pages += sorted((site / "conformance" / folder).rglob("index.html"))
    return pages


def _hrefs(html: str) -> list[str]:
    return re.findall(r'href="([^"]+)"', html)


def test_code_links_carry_the_commit_and_the_configured_repository(site: Path) -> None:
    head = _git_head()
    # the suite runs from a checkout; a build without git is the next test's case
    assert head is not None, "no git checkout: the no-git build is tested separately"
    code = 0
    for page in _generated(site):
        html = page.read_text()
        assert "blob/main" not in html, page
        code += html.count(f'href="{REPO}/blob/{head}/')
    assert code > 500  # every docstring tag, feature file and test file, pinned
    matrix = (site / "conformance" / "matrix" / "index.html").read_text()
    assert f'href="{REPO}/blob/{head}/src/' in matrix
    assert "github.com/odoo-mcp/odoo-mcp" not in matrix  # ODOO_MCP_REPO_URL wins
    assert f"commit <code>{head[:12]}</code>" in matrix


def test_every_requirement_has_its_anchor_and_the_matrix_row_links_it(site: Path) -> None:
    catalogue = load_catalogue()
    matrix = (site / "conformance" / "matrix" / "index.html").read_text()
    pages: dict[str, str] = {}
    for req_id in catalogue:
        slug = document_slug(catalogue.document_of[req_id])
        if slug not in pages:
            pages[slug] = (site / "conformance" / "requirements" / slug / "index.html").read_text()
        assert f'<h2 id="{req_id}">' in pages[slug], req_id
        link = f'<a href="../requirements/{slug}/#{req_id}"><code>{req_id}</code></a>'
        assert link in matrix, req_id
    assert set(pages) == {doc.document.id for doc in catalogue.documents}


def test_a_requirement_section_gathers_its_code_scenarios_and_verdicts(site: Path) -> None:
    page = (site / "conformance" / "requirements" / "SPEC-04" / "index.html").read_text()
    section = page.split(f'<h2 id="{PASSING}">', 1)[1].split("<h2 ", 1)[0]
    assert '<span class="req-status req-status-passing">passing</span>' in section
    assert "MUST" in section and "seed section" in section
    assert "src/odoo_mcp/" in section  # its code, linked
    scenario = "a many2one is an {id, name} object, and null when empty"
    assert scenario in section and "../../scenarios/normalization/#L" in section
    assert '<span class="req-status req-status-passing">passed</span>' in section
    assert "Unit tests" in section and "Proof by mutation" in section
    failing = page.split(f'<h2 id="{FAILING}">', 1)[1].split("<h2 ", 1)[0]
    assert '<span class="req-status req-status-failing">failing</span>' in failing
    # its failure message, escaped (the report's failures)
    shown = "tools_read.feature: reads [stdio]: expected &lt;ids&gt; &amp; got *none*"
    assert f'<ul class="req-failures"><li>{shown}</li></ul>' in failing
    assert "req-failures" not in section


def test_a_requirement_page_links_its_seed_file_when_the_repository_has_it(site: Path) -> None:
    """The site does not publish the seeds: a page links its seed file in the repository at
    the build's commit, as code links go, and only names a file the repository lacks."""
    page = (site / "conformance" / "requirements" / "SPEC-04" / "index.html").read_text()
    seed = next(d.document.source for d in load_catalogue().documents if d.document.id == "SPEC-04")
    head = _git_head() or "main"
    if (ROOT / seed).is_file():
        assert f'From <a href="{REPO}/blob/{head}/{seed}"><code>{seed}</code></a>' in page
    else:
        assert f"From <code>{seed}</code> (" in page
        assert "its text is not in this repository" in page


def test_the_home_page_shows_the_latest_verdict(site: Path) -> None:
    home = (site / "index.html").read_text()
    expected = must_counts(build_trace(results=[_report(site.parent / "again.json")]))
    shown = dict(re.findall(r'data-status="(\w[\w-]*)" data-count="(\d+)"', home))
    assert {k: int(v) for k, v in shown.items()} == expected
    assert expected["passing"] >= 1 and expected["failing"] >= 1
    assert "The latest kit run, against <code>fake-target</code>" in home


def test_the_home_page_without_a_run_stays_readable() -> None:
    text = home_verdict(build_trace(), run=None, built="commit `abc`")
    assert '!!! warning "No kit run"' in text
    assert 'data-status="untested"' in text and 'data-status="failing" data-count="0"' in text


def test_decisions_have_anchors(site: Path) -> None:
    decisions = (site / "decisions" / "index.html").read_text()
    numbers = {n for row in load_catalogue().values() for n in row.decisions}
    for number in numbers:
        assert decisions.count(f'id="decision-{number}"') == 1, number


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids |= {value for name, value in attrs if name == "id" and value}


def test_every_link_between_generated_pages_resolves(site: Path) -> None:
    """The matrix's links are raw HTML (MkDocs checks none of them): each relative link of
    the generated pages must name an existing page and anchor."""
    ids: dict[Path, set[str]] = {}
    broken = []
    for page in _generated(site):
        for href in set(_hrefs(page.read_text())):
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith("#") or not parts.path:
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{page.relative_to(site)}: {href}")
                continue
            if parts.fragment:
                if target not in ids:
                    parser = _Ids()
                    parser.feed(target.read_text())
                    ids[target] = parser.ids
                if parts.fragment not in ids[target]:
                    broken.append(f"{page.relative_to(site)}: {href} (no such anchor)")
    assert not broken, broken[:20]


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_docs_hook", ROOT / "docs/_hooks/reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_git_the_pages_say_so_and_link_main(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ODOO_MCP_REPO_REF", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")  # no git to run
    ref, said = _hook()._commit()
    assert ref == "main" and "git was not available" in said
    monkeypatch.setenv("ODOO_MCP_REPO_REF", "v1.2.0")
    ref, said = _hook()._commit()
    assert ref == "v1.2.0" and "v1.2.0" in said


def test_a_feature_page_anchors_each_scenario_and_shows_an_outlines_examples(
    tmp_path: Path,
) -> None:
    from odoo_mcp_conformance.trace.build import Trace
    from odoo_mcp_conformance.trace.matrix import Links
    from odoo_mcp_conformance.trace.pages import feature_pages

    (tmp_path / "x.feature").write_text(
        "@SPEC-04\nFeature: X\n\n  @REQ-04-05\n  Scenario: plain <b> & *bold*\n    Given a\n\n"
        "  Scenario Outline: <signal> stops it\n    Given <signal>\n\n"
        "    Examples:\n      | signal |\n      | SIGINT |\n      | SIGTERM |\n"
    )
    trace = Trace(target="t", counts={}, rows=(), untagged_scenarios=())
    verdicts = {"x.feature: SIGINT stops it": ["passed"], "x.feature: SIGTERM stops it": ["failed"]}
    page = feature_pages(tmp_path, "features", trace, Links(REPO, ref="abc"), verdicts)[
        "conformance/scenarios/x.md"
    ]
    assert "## plain &lt;b&gt; &amp; \\*bold\\* {#L5}" in page
    assert "## &lt;signal&gt; stops it {#L8}" in page
    outline = page.split("{#L8}", 1)[1]
    assert "1 passed</span>" in outline and "1 failed</span>" in outline
    assert f"({REPO}/blob/abc/features/x.feature#L8)" in outline


def test_the_published_site_never_follows_a_failed_kit_step() -> None:
    """Issue 38: `tox -e docs` stops at a kit step that fails (no leading "-", which let a
    red run reach the published matrix), and builds the site only after every kit step."""
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini")
    commands = [
        line.strip()
        for line in tox["testenv:docs"]["commands"].splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    ignored = [command for command in commands if command.startswith("-")]
    assert ignored == []
    build = next(i for i, command in enumerate(commands) if command.startswith("mkdocs build"))
    kit = [i for i, command in enumerate(commands) if "odoo-mcp-conformance run" in command]
    assert kit and max(kit) < build
