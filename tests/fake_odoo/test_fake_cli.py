"""The ``fake-odoo`` command's arguments (serving itself is the wire tests' business)."""

from __future__ import annotations

from importlib.metadata import version

import pytest

from fake_odoo.cli import main


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    """``fake-odoo --version``: the distribution's version; nothing is served."""
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"fake-odoo {version('odoo-mcp-reference')}\n"


def test_serve_help_describes_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 29: ``fake-odoo serve --help`` says what each option does, with its default."""
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    options = [
        "--host", "--port", "--odoo-version", "--dataset", "--scale", "--database",
        "--without-module", "--log-level",
    ]  # fmt: skip
    for option in options:
        after = text.split(f"{option} ", 2)[-1]  # the option's own entry, after the usage line
        assert "(default:" in after.split(" --", 1)[0], option
