"""Issue 38: the kit against a real Odoo (``--odoo-url``), here the fake without its control
API. Every scenario it runs gets the verdict the fake run gives it; the others are not
applicable, each saying what of the fake it needs; the database is left as it was found."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from kit_runs import KIT, ROOT, KitRun

from conftest import REAL_ODOO_FEATURES, ServedOdoo
from odoo_mcp_conformance.real_odoo import ENVIRONMENT, NEEDS_FAKE_PREFIX

REFERENCE = ROOT / "conformance" / "targets" / "reference.toml"


def _outcomes(run: KitRun) -> dict[str, tuple[str, str]]:
    return {
        f"{s['feature']}::{s['id']}": (s["outcome"], s["message"])
        for s in run.report["scenarios"]
        if s["feature"] in REAL_ODOO_FEATURES
    }


def test_what_runs_on_a_real_odoo_gets_the_fakes_verdict(
    real_odoo_run: KitRun, reference_run: KitRun
) -> None:
    assert real_odoo_run.returncode == 0, real_odoo_run.output[-3000:]
    real, fake = _outcomes(real_odoo_run), _outcomes(reference_run)
    assert real.keys() == fake.keys()
    ran = {key for key, (outcome, _) in real.items() if outcome != "not_applicable"}
    assert len(ran) >= 30  # reads, creates, the demo user's refusals
    assert {key: real[key][0] for key in ran} == {key: fake[key][0] for key in ran}
    needs_fake = {
        key: message
        for key, (outcome, message) in real.items()
        if outcome == "not_applicable" and fake[key][0] != "not_applicable"
    }
    assert needs_fake, "every scenario ran: the subset no longer shows the n/a side"
    assert all(message.startswith(NEEDS_FAKE_PREFIX) for message in needs_fake.values())
    reasons = {message.removeprefix(NEEDS_FAKE_PREFIX) for message in needs_fake.values()}
    assert {"changes records the kit did not create", "needs the fake's call log"} <= reasons


def test_the_real_odoo_is_left_as_it_was_found(
    real_odoo_run: KitRun, real_odoo: ServedOdoo
) -> None:
    """What the scenarios created (through the kit, through the server under test, and on
    the side of a create: a company's partner) is gone; no record they found was changed."""
    assert real_odoo_run.returncode == 0
    for model, before in real_odoo.snapshot.items():
        assert real_odoo.records(model) == before, model


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "ODOO_MCP_KIT_ADMIN_LOGIN"),
        (
            {ENVIRONMENT["admin"]["login"]: "admin", ENVIRONMENT["admin"]["password"]: "wrong",
             ENVIRONMENT["demo"]["login"]: "demo", ENVIRONMENT["demo"]["password"]: "demo"},
            "admin cannot log in",
        ),
    ],
)  # fmt: skip
def test_a_real_odoo_the_kit_cannot_use_stops_the_run_in_one_line(
    tmp_path: Path, real_odoo: ServedOdoo, env: dict[str, str], expected: str
) -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ODOO_MCP_KIT_")}
    done = subprocess.run(
        [*KIT, "run", "--target", str(REFERENCE), "--report-dir", str(tmp_path),
         "--odoo-url", real_odoo.url, "--odoo-db", real_odoo.db],
        capture_output=True, text=True, timeout=120, cwd=ROOT, check=False,
        env={**clean, **env},
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert expected in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
