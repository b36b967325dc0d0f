"""Fixtures of the connection tests."""

from __future__ import annotations

import pytest
from scripted_odoo import Harness, ScriptedOdoo


@pytest.fixture
def harness() -> Harness:
    return Harness(ScriptedOdoo(), [], [0.0])
