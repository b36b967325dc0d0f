"""Issue 29: every install command the README and the docs give installs this project.

``odoo-mcp`` on the package index is another project (decision 42): a ``pip install`` line
must name a checkout (``.`` or ``-e .``, with extras) or the wheel the checkout builds, under
the distribution's name (pyproject.toml) and version (``odoo_mcp.__version__``).
``bench/package_check.py`` (run by ``.ci/run``) installs that wheel in a clean environment as
the docs say.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import odoo_mcp

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
INSTALL = re.compile(r"pip install ([^`\n#;&]+)")


def _targets() -> list[tuple[str, str]]:
    found = []
    for path in DOCUMENTS:
        for match in INSTALL.finditer(path.read_text(encoding="utf-8")):
            words = [w for w in shlex.split(match.group(1)) if not w.startswith("-")]
            found.extend((path.name, word) for word in words)
    return found


def test_the_distribution_name_is_ours() -> None:
    assert PROJECT["name"] == "odoo-mcp-reference"


def test_every_install_command_names_this_project() -> None:
    # the version pyproject.toml reads from the package ([tool.hatch.version])
    wheel = f"dist/{PROJECT['name'].replace('-', '_')}-{odoo_mcp.__version__}-py3-none-any.whl"
    extras = set(PROJECT["optional-dependencies"])
    targets = _targets()
    assert any(target.startswith(wheel) for _, target in targets)
    for document, target in targets:
        base, _, extra = target.partition("[")
        if base in (".", wheel):
            assert not extra or extra.rstrip("]") in extras, (document, target)
        else:
            # tools the docs install beside the project, never a distribution of ours by name
            assert base in ("build", "mkdocs-material") or base.startswith("build>="), (
                document,
                target,
            )
            assert not base.startswith("odoo-mcp"), (document, target)


def test_every_npx_command_runs_without_a_prompt() -> None:
    """``npx`` asks "Ok to proceed?" before installing: without ``-y`` a copied command stops
    in a non-interactive shell (issue 29); and the package is pinned to a checked version."""
    for path in DOCUMENTS:
        for line in path.read_text(encoding="utf-8").splitlines():
            found = re.match(r"\s*npx\s+(.*)", line)  # a command line of a code block
            if found:
                after = found.group(1).split()
                assert after[:1] == ["-y"], (path.name, line)
                assert "@" in after[1][1:], (path.name, line)  # @scope/name@version
