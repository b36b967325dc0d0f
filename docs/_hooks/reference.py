"""mkdocs hook: pages generated at build time, never committed.

- ``reference/configuration.md`` from the settings model (``OdooMcpConfig``) and its variables;
- ``reference/tools.md`` from the tool specs (input models = inputSchema, annotations);
- ``reference/errors.md`` from the categories, codes and the pattern database;
- ``conformance/matrix.md``: the REQ coverage matrix, from the latest kit run's report
  (``reports/conformance/report.json``, written by ``tox -e docs``) joined with the
  traceability scan and, when present, the marked unit tests' results
  (``reports/unit-results.json``, written by ``tox -e tests`` and ``tox -e conformance``).
  Without a run, the page says so and shows the scan alone;
- ``conformance/requirements/<document>.md``: a section per requirement (``#REQ-04-05``) with
  its code, scenarios, unit tests and verdicts (a failing one's messages from the runs'
  ``failures``), where the matrix's ids link; its seed file links to the repository;
  ``conformance/scenarios/<feature>.md``: a section per scenario (``#L12``);
- the home page's ``<!-- verdict -->`` (the MUST requirements' counts in the latest run) and
  ``<!-- mutation-score -->``; the decisions page's anchors (``decisions.md#decision-11``).

Code links go to ``ODOO_MCP_REPO_URL`` (else mkdocs.yml's ``repo_url``) at the commit the site
is built from (``git rev-parse HEAD``; ``ODOO_MCP_REPO_REF`` overrides it; without git the
pages say so and link ``main``).
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

if TYPE_CHECKING:
    from odoo_mcp_conformance.trace.build import Trace
    from odoo_mcp_conformance.trace.matrix import Links

ROOT = Path(__file__).resolve().parents[2]
REPORT = Path(
    os.environ.get("ODOO_MCP_KIT_REPORT", ROOT / "reports" / "conformance" / "report.json")
)
#: the same kit over streamable HTTP (``tox -e docs`` runs both), merged when present
HTTP_REPORT = Path(
    os.environ.get(
        "ODOO_MCP_KIT_HTTP_REPORT", ROOT / "reports" / "conformance-http" / "report.json"
    )
)
#: the mutant and variant verdicts (``tox -e docs`` / ``tox -e mutation`` write them with
#: ``ODOO_MCP_MUTATION_RESULTS``), when present: the matrix's proof by mutation (issue 27)
MUTATION = Path(os.environ.get("ODOO_MCP_MUTATION_RESULTS", ROOT / "reports" / "mutation"))
#: the outcomes of the unit tests marked ``@pytest.mark.req`` (``--req-results``), when present
UNIT_RESULTS = Path(os.environ.get("ODOO_MCP_UNIT_RESULTS", ROOT / "reports" / "unit-results.json"))


def _cell(text: object) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def configuration_page() -> str:
    """REQ-11-25: one row per setting, from its declaration (``odoo_mcp.config.SETTINGS``)."""
    from odoo_mcp.config import CONFIG_PATH_VAR, SETTINGS, OdooMcpConfig, setting_descriptions

    lines = [
        "---",
        "hide:",
        "  - toc",
        "---",
        "",
        "# Configuration reference",
        "",
        "Generated from the settings model. Precedence: command-line flags > environment "
        f"variables > JSON file (`--config` or `{CONFIG_PATH_VAR}`) > defaults. Every setting "
        "is also a JSON key and can be given as `--set KEY=VALUE`. Lists are comma-separated "
        "in the environment; booleans are `true/1/yes` or `false/0/no`. An invalid "
        "configuration stops start-up with one message per problem.",
        "",
        # docs/stylesheets/site.css: names stay whole, the table takes the page's width
        '<div class="config-reference" markdown>',
        "",
        "| Setting (JSON key) | Environment variable | Flag | Default | Description |",
        "|---|---|---|---|---|",
    ]
    descriptions = setting_descriptions()
    for name, setting in SETTINGS.items():
        field = OdooMcpConfig.model_fields[name]
        key = "<br>".join([f"`{name}`", *(f"file: `{alias}`" for alias in setting.aliases)])
        env = ", ".join(f"`{n}`" for n in setting.env) or "file only"
        flag = f"`{setting.flag}`" if setting.flag else ""
        default = "required" if field.is_required() else f"`{json.dumps(_plain(field.default))}`"
        lines.append(f"| {key} | {env} | {flag} | {default} | {_cell(descriptions[name])} |")
    lines += ["", "</div>"]
    return "\n".join(lines) + "\n"


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if hasattr(value, "value"):
        return value.value
    return value


def _schema_type(prop: dict[str, Any]) -> str:
    if "type" in prop:
        kind = prop["type"]
        if kind == "array" and isinstance(prop.get("items"), dict) and "type" in prop["items"]:
            return f"array of {prop['items']['type']}"
        return str(kind)
    if "anyOf" in prop:
        return " or ".join(_schema_type(p) for p in prop["anyOf"])
    return "any"


def tools_page() -> str:
    from odoo_mcp.toolsets import ALL_TOOLSETS

    lines = [
        "# Tools reference",
        "",
        "Generated from the tool input models: the tables are the tools' `inputSchema`.",
        "Which tools a client sees depends on the mode (see [Safety](../safety.md)).",
        "",
    ]
    owners = {spec.name: t.metadata().name for t in ALL_TOOLSETS for spec in t.tools()}
    specs = [spec for t in ALL_TOOLSETS for spec in t.tools()]
    for spec in sorted(specs, key=lambda s: s.name):
        hints = spec.hints  # openWorld is always true (REQ-11-18)
        schema = spec.input_model.model_json_schema()
        required = set(schema.get("required", []))
        lines += [
            f"## `{spec.name}`",
            "",
            f"**{spec.title}**: {spec.kind} tool of toolset `{owners[spec.name]}`. Annotations: "
            f"readOnlyHint={hints.read_only}, destructiveHint={hints.destructive}, "
            f"idempotentHint={hints.idempotent}, openWorldHint=True.",
            "",
            "```text",
            spec.description,
            "```",
            "",
            "| Parameter | Type | Required | Default | Description |",
            "|---|---|---|---|---|",
        ]
        for name, prop in schema.get("properties", {}).items():
            default = f"`{json.dumps(prop['default'])}`" if "default" in prop else ""
            lines.append(
                f"| `{name}` | {_schema_type(prop)} | {'yes' if name in required else 'no'} "
                f"| {default} | {_cell(prop.get('description', ''))} |"
            )
        outputs = spec.result_model.model_json_schema().get("properties", {})
        lines += ["", "Result fields: " + ", ".join(f"`{n}`" for n in outputs) + ".", ""]
    return "\n".join(lines)


def errors_page() -> str:
    from odoo_mcp.errors import ERROR_PATTERNS, ErrorCategory, ErrorCode, retry_for
    from odoo_mcp.errors.categories import CATEGORY_CODES, default_retry_after

    lines = [
        "# Errors reference",
        "",
        "Every Odoo, safety or validation error is a tool result with `isError: true` whose "
        "text is one JSON object: `error` (always true), `category`, `code`, `message`, "
        "`details`, `suggestion`, `retry`, and `retry_after` when waiting helps. No "
        "traceback is ever sent. An unknown tool is JSON-RPC error -32601, invalid "
        "arguments -32602, a server bug -32603.",
        "",
        "## Categories",
        "",
        "| Category | Default code | Retry | Retry after (s) |",
        "|---|---|---|---|",
    ]
    for category in ErrorCategory:
        code = CATEGORY_CODES.get(category)
        after = default_retry_after(category)
        lines.append(
            f"| `{category.value}` | `{code.value if code else ''}` | {retry_for(category)} "
            f"| {after if after is not None else ''} |"
        )
    lines += ["", "## Codes", "", ", ".join(f"`{code.value}`" for code in ErrorCode), ""]
    lines += [
        "## Pattern database",
        "",
        "Odoo's error message is matched against these patterns in order; the first match "
        "gives the code and the suggestion. Extensions register more without touching the "
        "classifier.",
        "",
        "| # | Pattern id | Category | Code | Exception classes | Regex |",
        "|---|---|---|---|---|---|",
    ]
    for number, pattern in enumerate(ERROR_PATTERNS, 1):
        classes = ", ".join(pattern.error_classes) or "any"
        lines.append(
            f"| {number} | `{pattern.id}` | `{pattern.category.value}` | `{pattern.code}` "
            f"| {_cell(classes)} | `{_cell(pattern.pattern)}` |"
        )
    return "\n".join(lines) + "\n"


#: where code links go when mkdocs.yml names no ``repo_url`` and ``ODOO_MCP_REPO_URL`` is unset
REPO_URL = "https://github.com/odoo-mcp/odoo-mcp"
#: the repository the pages link code to (overrides mkdocs.yml's ``repo_url``), and the commit
#: or branch (default: the checkout's ``git rev-parse HEAD``, else ``main``)
REPO_URL_VAR = "ODOO_MCP_REPO_URL"
REPO_REF_VAR = "ODOO_MCP_REPO_REF"


def _inputs() -> tuple[list[Path], list[Path], list[Path]]:
    """The kit reports, unit-test results and mutation results present for this build."""
    results = [path for path in (REPORT, HTTP_REPORT) if path.exists()]
    units = [UNIT_RESULTS] if UNIT_RESULTS.exists() else []
    mutation = [MUTATION] if MUTATION.is_dir() and any(MUTATION.glob("*.json")) else []
    return results, units, mutation


@functools.cache
def _trace() -> Trace:
    """The trace the matrix and the home page show (built once per site build)."""
    from odoo_mcp_conformance.trace.build import build_trace

    results, units, mutation = _inputs()
    return build_trace(results=results, unit_results=units, mutation_results=mutation)


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@functools.cache
def _commit() -> tuple[str, str]:
    """The ref code links point at, and the sentence the pages show about it: the commit the
    site is built from, so that a line number stays right after later commits."""
    given = os.environ.get(REPO_REF_VAR)
    if given:
        return given, f"Code links point at `{given}` (`{REPO_REF_VAR}`)."
    sha = _git("rev-parse", "HEAD")
    if not sha:
        return "main", (
            "git was not available when this site was built: code links point at the branch "
            "`main`, whose lines may have moved since."
        )
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    said = f"Code links point at commit `{sha[:12]}`, the one this site was built from"
    if dirty:
        said += " (its working tree had uncommitted changes: a line may have moved)"
    return sha, said + "."


def _repo_url(config: MkDocsConfig) -> str:
    return os.environ.get(REPO_URL_VAR) or config.repo_url or REPO_URL


def _links(config: MkDocsConfig) -> Links:
    from odoo_mcp_conformance.trace.matrix import Links

    return Links(
        _repo_url(config), ref=_commit()[0], directory_urls=bool(config.use_directory_urls)
    )


def _run() -> str | None:
    """What the latest kit runs were (``None``: no run was found)."""
    results, _, _ = _inputs()
    if not results:
        return None
    shown = ", ".join(
        f"`{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}`" for path in results
    )
    return f"`{_trace().target}` (fake Odoo, {shown})"


def mutation_score() -> str:
    """The home page's proof line: the mutation score per document and overall."""
    from odoo_mcp_conformance.trace.matrix import mutation_table

    table = mutation_table(_trace())
    if not table:
        return "*No mutation run was found when this site was built (`tox -e docs` runs it).*\n"
    return (
        "How strong the kit's verdicts are, measured: the mutants (the reference server with "
        "one defect against one seed sentence) the kit's spec profile killed, and the seed "
        "requirements a killed mutant proves ([matrix](conformance/matrix.md)).\n\n" + table
    )


def home_verdict() -> str:
    """The home page's ``<!-- verdict -->``: the MUST requirements' counts in the latest run."""
    from odoo_mcp_conformance.trace.pages import home_verdict as render

    ref = _commit()[0]
    built = f"commit `{ref[:12]}`" if ref != "main" else "a checkout without git"
    return render(_trace(), run=_run(), built=built)


#: ``| 11 | ...``: a decision's row in spec/decisions.md (the first row of each number)
_DECISION_ROW = re.compile(r"^\| (\d+) \|", re.MULTILINE)
_DECISIONS_SNIPPET = '--8<-- "spec/decisions.md"'


def decisions_with_anchors() -> str:
    """spec/decisions.md with an anchor per decision (``#decision-11``), where the matrix and
    the requirement pages link."""
    seen: set[str] = set()

    def anchor(match: re.Match[str]) -> str:
        number = match.group(1)
        if number in seen:  # a later table (the variants) names the decision again
            return match.group(0)
        seen.add(number)
        return f'| <span class="req-anchor" id="decision-{number}"></span>{number} |'

    return _DECISION_ROW.sub(anchor, (ROOT / "spec" / "decisions.md").read_text())


def on_page_markdown(markdown: str, page: Any, config: MkDocsConfig, files: Files) -> str:
    """The home page's ``<!-- mutation-score -->`` and ``<!-- verdict -->`` markers become the
    score table and the latest verdict; the decisions page gets an anchor per decision."""
    if "<!-- mutation-score -->" in markdown:
        markdown = markdown.replace("<!-- mutation-score -->", mutation_score())
    if "<!-- verdict -->" in markdown:
        markdown = markdown.replace("<!-- verdict -->", home_verdict())
    if page.file.src_uri == "decisions.md" and _DECISIONS_SNIPPET in markdown:
        markdown = markdown.replace(_DECISIONS_SNIPPET, decisions_with_anchors())
    return markdown


def matrix_page(links: Links | str = REPO_URL) -> str:
    from odoo_mcp_conformance.trace.matrix import MATRIX_PAGE, Links, mutation_table, render_matrix

    if isinstance(links, str):
        links = Links(links, ref=_commit()[0])
    _, units, _ = _inputs()
    trace = _trace()
    run = _run()
    header = (
        f"Results of the latest kit runs against {run}; "
        "a requirement fails if any run fails it, and passes if a run passes it."
        if run
        else '!!! warning "No kit run"\n    No kit run was found when this site was built '
        "(`tox -e docs` runs the kit first): the statuses below come from the scan alone."
    )
    lines = [
        "---",
        "hide:",
        "  - toc",
        "---",
        "",
        "# REQ coverage matrix",
        "",
        header,
        "",
        "For every requirement of the catalogue: its seed section, where the reference server "
        "implements it (docstring tags, linked to the line), which scenarios prove it (linked "
        "to the scenario on its [feature file's page](scenarios/index.md)), and the verdict. "
        "Each id links to the requirement's own section ([requirements](requirements/index.md)), "
        "which gathers all of it. " + _commit()[1] + " In the *Checks* column, *seed* is the "
        "verdict of the expectations taken from the specification's own text: the only ones "
        "that judge another implementation (the kit's `spec` profile). The decision / reference "
        "line is the verdict of the expectations that rest on one of our decisions "
        "([decisions](../decisions.md)) or on the reference server's own behaviour: they pin "
        "our server (profile `reference`) and are notes, never failures, for anyone else. "
        "*Unit tests* are the tests marked with the requirement and their outcome "
        + (
            f"(`{UNIT_RESULTS.name}`): a requirement no scenario passed is **unit-tested** "
            "when they pass."
            if units
            else "(no unit-test results were found when this site was built)."
        ),
        "",
        "The filters below hide rows by document, status and source: *seed* rows come from "
        "the specification's text alone, *decision* rows rest on one of our decisions.",
        "",
        "## Proof by mutation",
        "",
        "A passing check proves little until it has failed a server that breaks its "
        "sentence. Each *mutant* is the reference server with one defect against one seed "
        "sentence (`conformance/mutants/`, `conformance/broken_servers/`): the kit's `spec` "
        "profile must fail exactly its requirements. Each *variant* makes another legal "
        "choice where the seeds are silent (`conformance/conformant_servers/`) and must "
        "pass. A seed requirement whose checks pass but that no killed mutant proves is "
        "**unproven**, not passing.",
        "",
        mutation_table(trace)
        or '!!! warning "No mutation run"\n    No mutant results were found when this site '
        "was built (`tox -e docs` runs them): the *Checks* column's *mutants* say `not_run`.",
        "",
        render_matrix(trace, links.on(MATRIX_PAGE)),
    ]
    return "\n".join(lines)


def trace_pages(links: Links) -> dict[str, str]:
    """The requirement pages and the feature pages (``trace/pages.py``), by source path."""
    from odoo_mcp_conformance.catalogue import load_catalogue
    from odoo_mcp_conformance.paths import features_dir
    from odoo_mcp_conformance.trace.pages import (
        feature_pages,
        requirement_failures,
        requirement_pages,
        scenario_verdicts,
    )

    results, _, _ = _inputs()
    verdicts = scenario_verdicts(results)
    trace = _trace()
    note = _commit()[1]
    pages = requirement_pages(
        trace,
        load_catalogue(),
        links,
        verdicts,
        note,
        failures=requirement_failures(results),
        # the site does not publish the seeds: their text is linked in the repository, which
        # must have the file (a link to a missing one would be dead)
        in_repository=lambda source: (ROOT / source).is_file(),
    )
    features = features_dir()
    shown = features.relative_to(ROOT).as_posix() if features.is_relative_to(ROOT) else "features"
    pages.update(feature_pages(features, shown, trace, links, verdicts, note))
    return pages


EXAMPLES = {
    "orders.get": {"orderId": "S00038", "includeLines": True},
    "customers.search": {"query": "Juan Pérez"},
    "products.list": {"categoryId": "5", "available": True, "limit": 2},
    "deliveries.track": {"deliveryId": "WH/OUT/00021"},
}


def contracts_page() -> str:
    from odoo_mcp.contracts import contract_mocks, contract_schemas, contract_version

    lines = [
        "# Storefront contracts",
        "",
        "Each contract has its own semantic version (a required field or a type changes the "
        "major version, an optional field or a new operation the minor one; a deprecated "
        "operation stays for two releases); clients see it in the tool listing as the tool's "
        "`_meta.contractVersion` (decision 31). The tools are on when "
        "`ODOO_MCP_ENABLED_TOOLSETS` names `contracts` (decision 28). Each schema is also "
        "published as a file next to this page.",
        "",
    ]
    mocks = contract_mocks()
    for operation, schemas in contract_schemas().items():
        lines += [
            f"## `{operation}`",
            "",
            f"Version **{contract_version(operation)}**.",
            "",
            f"Request schema: [`{operation}.request.json`](schemas/{operation}.request.json), "
            f"response schema: [`{operation}.response.json`](schemas/{operation}.response.json).",
            "",
            "Example call (MCP `tools/call`):",
            "",
            "```json",
            json.dumps({"name": operation, "arguments": EXAMPLES[operation]}, ensure_ascii=False),
            "```",
            "",
            "Response schema:",
            "",
            "```json",
            json.dumps(schemas["response"], indent=2, ensure_ascii=False),
            "```",
            "",
            "Mock response (it validates against the response schema):",
            "",
            "```json",
            json.dumps(mocks[operation], indent=2, ensure_ascii=False),
            "```",
            "",
        ]
    return "\n".join(lines)


PAGES = {
    "reference/configuration.md": configuration_page,
    "reference/tools.md": tools_page,
    "reference/errors.md": errors_page,
    "contracts/index.md": contracts_page,
}


def _nav_sections() -> list[dict[str, Any]]:
    """The generated requirement and scenario pages, as the nav's sections."""
    from odoo_mcp_conformance.paths import features_dir
    from odoo_mcp_conformance.trace.matrix import (
        FEATURES_DIR,
        REQUIREMENTS_DIR,
        document_slug,
        feature_slug,
    )

    documents = sorted({row.document for row in _trace().rows})
    features = sorted(features_dir().rglob("*.feature"))
    return [
        {
            "Requirements": [
                f"{REQUIREMENTS_DIR}/index.md",
                *({doc: f"{REQUIREMENTS_DIR}/{document_slug(doc)}.md"} for doc in documents),
            ]
        },
        {
            "Scenarios": [
                f"{FEATURES_DIR}/index.md",
                *({path.name: f"{FEATURES_DIR}/{feature_slug(path.name)}.md"} for path in features),
            ]
        },
    ]


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """``ODOO_MCP_REPO_URL`` overrides ``repo_url``; the generated requirement and scenario
    pages join the nav's *Conformance* section."""
    if os.environ.get(REPO_URL_VAR):
        config.repo_url = os.environ[REPO_URL_VAR]
    for entry in config.nav or []:
        if isinstance(entry, dict) and isinstance(entry.get("Conformance"), list):
            entry["Conformance"] = [*entry["Conformance"], *_nav_sections()]
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for path, render in PAGES.items():
        files.append(File.generated(config, path, content=render()))
    links = _links(config)
    files.append(File.generated(config, "conformance/matrix.md", content=matrix_page(links)))
    for path, content in trace_pages(links).items():
        files.append(File.generated(config, path, content=content))
    from odoo_mcp.contracts import contract_schemas

    for operation, schemas in contract_schemas().items():
        for kind, schema in schemas.items():
            files.append(
                File.generated(
                    config,
                    f"contracts/schemas/{operation}.{kind}.json",
                    content=json.dumps(schema, indent=2, ensure_ascii=False),
                )
            )
    return files
