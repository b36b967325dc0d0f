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


def _child(code: str) -> list[str]:
    return subprocess.check_output([sys.executable, "-c", code], text=True).split()


def test_the_console_script_loads_the_cli_with_the_collector_paused() -> None:
    # issue 41: no collection runs while the SDK and our modules load, then they are frozen
    code = (
        "import gc\n"
        "runs = []\n"
        "gc.callbacks.append(lambda phase, info: runs.append(phase))\n"
        "from odoo_mcp.adapter.gc_tuning import collector_paused\n"
        "with collector_paused():\n"
        "    runs.clear()\n"
        "    import odoo_mcp.cli\n"
        "    inside = len(runs)\n"
        "print(inside, gc.isenabled(), gc.get_freeze_count(), gc.get_count()[0])\n"
    )
    runs, enabled, frozen, young = _child(code)
    assert (runs, enabled) == ("0", "True")
    assert int(frozen) > 100_000  # the SDK's models and ours
    assert int(young) < 700  # the first collection after the import does not traverse it
    # the same import with the collector running collects, so the check above can fail
    unpaused = code.replace("with collector_paused():", "if True:")
    assert int(_child(unpaused)[0]) > 0


def test_the_entry_point_imports_nothing_of_the_server_before_pausing() -> None:
    # the console script and ``python -m odoo_mcp`` import ``odoo_mcp.launch`` first: were it
    # to import the SDK, the pause would come after the import it is for
    code = "import sys, odoo_mcp.launch; print('mcp' in sys.modules, 'odoo_mcp.cli' in sys.modules)"
    assert _child(code) == ["False", "False"]


def test_a_paused_block_that_fails_leaves_the_collector_running() -> None:
    code = (
        "import gc\n"
        "from odoo_mcp.adapter.gc_tuning import collector_paused\n"
        "try:\n"
        "    with collector_paused():\n"
        "        import no_such_module_here\n"
        "except ImportError:\n"
        "    print(gc.isenabled())\n"
    )
    assert _child(code) == ["True"]
