"""The package as a user gets it: build the sdist and the wheel, install the wheel with the
``conformance`` extra into a new virtual environment, and run it from a directory outside the
checkout, so nothing is imported from the source tree (``tox -e package``).

1. ``odoo-mcp --version``, ``fake-odoo --version`` and ``odoo-mcp-conformance --version``, and
   the core tools' catalogue shipped;
2. ``odoo-mcp demo`` over stdio through the MCP SDK's client (``package_client.py``);
3. the installed kit against its shipped reference target, on a few features, and against
   the shipped example target (another server's names, its server shipped beside it).

Prints each step's duration; exits non-zero at the first failure.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: where the version is written
INIT = "src/odoo_mcp/__init__.py"
#: a small, quick part of the kit (pytest -k on scenario names): 13 of its 456 scenarios
KIT_SELECT = "search_read"


def _step(name: str, command: Sequence[str | Path], cwd: Path, env: dict[str, str]) -> str:
    started = time.perf_counter()
    print(f"--- {name}: {' '.join(map(str, command))}", flush=True)
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    print(done.stdout, end="")
    print(done.stderr, end="", file=sys.stderr)
    elapsed = time.perf_counter() - started
    print(f"--- {name}: exit {done.returncode} in {elapsed:.1f} s", flush=True)
    if done.returncode != 0:
        raise SystemExit(f"package check failed at: {name}")
    return done.stdout


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", help="working directory (default: a temporary one, removed)")
    parser.add_argument("--select", default=KIT_SELECT, help="the kit's -k expression")
    args = parser.parse_args(argv)
    # pyproject.toml takes it from there ([tool.hatch.version])
    declared = re.search(r'^__version__ = "([^"]+)"$', (ROOT / INIT).read_text(), re.MULTILINE)
    if declared is None:
        raise SystemExit(f"no __version__ in {INIT}")
    version = declared.group(1)
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="odoo-mcp-package-"))
    work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    try:
        dist = work / "dist"
        shutil.rmtree(dist, ignore_errors=True)
        _step("build", [sys.executable, "-m", "build", "--outdir", dist, ROOT], ROOT, env)
        wheels = sorted(dist.glob("*.whl"))
        sdists = sorted(dist.glob("*.tar.gz"))
        if len(wheels) != 1 or len(sdists) != 1:
            raise SystemExit(f"expected one wheel and one sdist in {dist}, got {wheels + sdists}")
        if not wheels[0].name.startswith("odoo_mcp_reference-"):  # decision 42
            raise SystemExit(f"the wheel is not odoo-mcp-reference's: {wheels[0].name}")
        venv = work / "venv"
        shutil.rmtree(venv, ignore_errors=True)
        _step("venv", [sys.executable, "-m", "venv", venv], work, env)
        bin_dir = venv / "bin"
        pip = [bin_dir / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        _step("install", [*pip, f"{wheels[0]}[conformance]"], work, env)

        outside = work / "outside"  # no checkout here: imports come from the venv only
        shutil.rmtree(outside, ignore_errors=True)
        outside.mkdir()
        env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
        for command in ("odoo-mcp", "fake-odoo", "odoo-mcp-conformance"):
            out = _step(f"{command} --version", [bin_dir / command, "--version"], outside, env)
            if out.strip() != f"{command} {version}":
                raise SystemExit(f"{command} --version printed {out.strip()!r}")

        # issue 41: the core tools' catalogue is shipped (without it a start still works, by
        # importing the tool modules: only this check would notice it missing)
        listed = "from odoo_mcp.tools.catalogue import CATALOGUE; print(CATALOGUE.is_file())"
        shipped = _step("the tool catalogue", [bin_dir / "python", "-c", listed], outside, env)
        if shipped.strip() != "True":
            raise SystemExit("the wheel does not ship odoo_mcp/tools/catalogue.json")

        client = outside / "package_client.py"
        shutil.copy(Path(__file__).with_name("package_client.py"), client)
        _step("demo over stdio", [bin_dir / "python", client, bin_dir / "odoo-mcp"], outside, env)

        kit = [bin_dir / "odoo-mcp-conformance", "run", "--target", "reference"]
        kit += ["--report-dir", outside / "kit", "-q", "--workers", "1", "-k", args.select]
        _step("kit", kit, outside, env)
        if not (outside / "kit" / "report.json").is_file():
            raise SystemExit("the kit wrote no report.json")
        # issue 38: the example target the docs point to is shipped, with its server
        example = [bin_dir / "odoo-mcp-conformance", "run", "--target", "example-other"]
        example += ["--report-dir", outside / "example", "-q", "--workers", "1", "-k", args.select]
        _step("kit on the example target", example, outside, env)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    print(f"package check passed in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
