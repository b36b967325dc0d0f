"""Issue 30: ``odoo-mcp serve`` sets its own process's garbage collector, and only its own."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from odoo_mcp import cli
from odoo_mcp.adapter.gc_tuning import YOUNG_THRESHOLD


def test_tuning_freezes_the_loaded_objects_and_raises_the_young_threshold() -> None:
    # in a child process: the test session's own collector is not ours to change
    code = (
        "import gc, odoo_mcp.cli; from odoo_mcp.adapter.gc_tuning import tune_gc; tune_gc(); "
        "print(gc.get_freeze_count(), gc.get_threshold()[0])"
    )
    frozen, young = map(int, subprocess.check_output([sys.executable, "-c", code]).split())
    assert frozen > 10_000  # the modules, models and schemas loaded
    assert young == YOUNG_THRESHOLD


@pytest.mark.parametrize("own_process", [True, False])
def test_serve_tunes_only_a_process_of_its_own(
    monkeypatch: pytest.MonkeyPatch, own_process: bool
) -> None:
    tuned: list[bool] = []
    monkeypatch.setattr(cli, "tune_gc", lambda: tuned.append(True))
    monkeypatch.setattr(cli.anyio, "run", lambda *_a, **_k: 0)  # no server started
    environ = {"ODOO_URL": "http://127.0.0.1:9", "ODOO_DB": "d", "ODOO_API_KEY": "k"}
    threshold = gc.get_threshold()
    assert cli.main(["serve"], environ=environ, own_process=own_process) == 0
    assert tuned == ([True] if own_process else [])
    assert gc.get_threshold() == threshold
