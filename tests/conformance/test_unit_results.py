"""The ``req`` marker's plugin: ``--req-results`` writes each marked test's requirements and
outcome; a malformed id stops any run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import odoo_mcp_conformance
from odoo_mcp_conformance.trace.unit import UnitResults

#: the kit package this test imports, first on the child's path (not an installed copy)
KIT_PATH = str(Path(odoo_mcp_conformance.__file__).resolve().parents[1])

TESTS = """
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("setup fails")

@pytest.mark.req("REQ-02-05", "REQ-02-06")
def test_passes():
    assert True

@pytest.mark.req("REQ-02-07")
def test_fails():
    assert False

@pytest.mark.req("REQ-02-08")
def test_setup_error(broken):
    pass

@pytest.mark.req("REQ-02-09")
def test_skipped():
    pytest.skip("not here")

@pytest.mark.req("REQ-02-10")
@pytest.mark.xfail(reason="known", strict=True)
def test_xfails():
    assert False

@pytest.mark.req("REQ-02-12")
@pytest.mark.parametrize("n", [1, 2])
def test_param(n):
    assert n == 1

@pytest.mark.req("REQ-04-01")
class TestGroup:
    @pytest.mark.req("REQ-04-02", "REQ-04-01")
    def test_inner(self):
        pass

def test_unmarked():
    pass
"""


def _pytest(directory: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (directory / "conftest.py").write_text(
        'pytest_plugins = ["odoo_mcp_conformance.unit_results"]\n'
    )
    (directory / "pytest.ini").write_text("[pytest]\naddopts = --strict-markers -p no:randomly\n")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *args],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([KIT_PATH, os.environ.get("PYTHONPATH", "")]),
        },
    )


def test_marked_tests_are_written_with_their_outcome(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(TESTS)
    out = tmp_path / "reports" / "unit.json"
    run = _pytest(tmp_path, "--req-results", str(out))
    assert run.returncode == 1, run.stdout  # two failures and a setup error
    results = UnitResults.model_validate_json(out.read_text()).results
    found = {r.nodeid: (r.requirements, r.outcome) for r in results}
    assert found == {
        "test_x.py::test_passes": (("REQ-02-05", "REQ-02-06"), "passed"),
        "test_x.py::test_fails": (("REQ-02-07",), "failed"),
        "test_x.py::test_setup_error": (("REQ-02-08",), "failed"),
        "test_x.py::test_skipped": (("REQ-02-09",), "skipped"),
        "test_x.py::test_xfails": (("REQ-02-10",), "xfailed"),
        "test_x.py::test_param[1]": (("REQ-02-12",), "passed"),
        "test_x.py::test_param[2]": (("REQ-02-12",), "failed"),
        # the closest marker first, the class's after, each id once
        "test_x.py::TestGroup::test_inner": (("REQ-04-02", "REQ-04-01"), "passed"),
    }
    assert [r.nodeid for r in results] == sorted(found)  # deterministic order


def test_only_the_tests_that_ran_are_written(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(TESTS)
    out = tmp_path / "unit.json"
    run = _pytest(tmp_path, "-k", "passes or unmarked", "--req-results", str(out))
    assert run.returncode == 0, run.stdout
    results = UnitResults.model_validate_json(out.read_text()).results
    assert [(r.nodeid, r.outcome) for r in results] == [("test_x.py::test_passes", "passed")]


def test_a_malformed_id_is_a_usage_error_in_any_run(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(
        'import pytest\n\n@pytest.mark.req("REQ-2-5")\ndef test_typo():\n    pass\n'
    )
    run = _pytest(tmp_path)  # no --req-results: the marker is still checked
    assert run.returncode == 4, run.stdout + run.stderr
    assert "test_typo: @pytest.mark.req takes REQ ids only" in run.stdout + run.stderr
    assert not list(tmp_path.glob("*.json"))
