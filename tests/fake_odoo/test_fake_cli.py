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
