"""The ``odoo-mcp-conformance`` command without a kit run: its version, the extra it needs,
and the targets it ships."""

from __future__ import annotations

import builtins
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from fake_odoo.handle import FakeOdoo
from odoo_mcp_conformance import cli
from odoo_mcp_conformance.cli import main
from odoo_mcp_conformance.paths import find_target, targets_dir


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"odoo-mcp-conformance {version('odoo-mcp-reference')}\n"


@pytest.mark.parametrize("module", ["pytest", "pytest_bdd", "jsonschema"])
def test_run_without_the_extra_names_it(
    module: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """After ``pip install odoo-mcp-reference`` (no extra) ``run`` says what to install, in
    one line, and exits 2, before touching the target."""
    monkeypatch.setitem(sys.modules, module, None)  # what an absent module looks like
    code = main(["run", "--target", "no-such-target.toml", "--report-dir", "unused"])
    assert code == 2
    err = capsys.readouterr().err
    assert err == (
        "odoo-mcp-conformance needs the 'conformance' extra: "
        f"pip install 'odoo-mcp-reference[conformance]' (missing: {module})\n"
    )


def test_run_catches_a_failing_import_of_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A module of the extra that is found but fails to import is reported the same way."""
    monkeypatch.setattr(cli, "missing_extra", list)
    monkeypatch.delitem(sys.modules, "odoo_mcp_conformance.runner", raising=False)
    real_import = builtins.__import__

    def no_pytest(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pytest":
            raise ModuleNotFoundError("No module named 'pytest'", name="pytest")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pytest)
    code = main(["run", "--target", "reference", "--report-dir", "unused"])
    assert code == 2
    assert "(missing: pytest)" in capsys.readouterr().err


def test_help_without_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for module in cli.EXTRA_MODULES:
        monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(SystemExit) as exited:
        main(["run", "--help"])
    assert exited.value.code == 0
    assert "--target" in capsys.readouterr().out


def test_shipped_targets_by_name(tmp_path: Path) -> None:
    """An installed kit has no checkout: ``--target reference`` finds the shipped file (the
    wheel bundles conformance/targets/); a path that exists is taken as given."""
    assert find_target("reference") == targets_dir() / "reference.toml"
    assert find_target("reference-http.toml") == targets_dir() / "reference-http.toml"
    assert (targets_dir() / "reference.toml").is_file()
    own = tmp_path / "reference.toml"
    own.write_text("")
    assert find_target(str(own)) == own
    assert find_target("nowhere.toml") == Path("nowhere.toml")


def test_trace_without_source_code_says_so_instead_of_an_empty_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An installed kit has no checkout's ``src/``: a trace that read no code would show every
    requirement as unimplemented and exit 0."""
    missing = tmp_path / "no-such-src"
    assert main(["trace", "--code", str(missing)]) == 2
    assert capsys.readouterr().err == f"error: no source directory at {missing}: pass --code DIR\n"


def test_trace_reads_the_code_it_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "server.py").write_text('def read():\n    """REQ-04-01: read records."""\n')
    assert main(["trace", "--code", str(source)]) == 0
    assert capsys.readouterr().out.startswith("traceability: ")


@pytest.mark.wire
def test_a_fake_url_that_is_not_the_fake_is_refused_in_one_line(
    fake_odoo_served: FakeOdoo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 38: an Odoo without the fake's control API (here Odoo's own pages, where
    ``/odoo/__fake__/info`` is its 404) is refused before any scenario, in one line, exit 2;
    every scenario used to fail in set-up and the run reported 17 failing requirements."""
    assert fake_odoo_served.url is not None
    url = f"{fake_odoo_served.url}/odoo"
    argv = ["run", "--target", "reference", "--report-dir", str(tmp_path), "--fake-url", url]
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"error: --fake-url {url} is not a fake Odoo: GET /__fake__/info ")
    assert "HTTP 404" in line
    assert not (tmp_path / "report.json").exists()
