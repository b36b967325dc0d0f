"""Issue 26: non-interference.  Two fake Odoo databases differing only in blocked data (every
``email``, every ``crm.lead`` row: see ``twins``) must get identical answers from the server
through every tool, ``odoo_core_execute`` method, resource and prompt, in each mode and as
each demo user; no answer may hold one of the twins' canary values.

A fixed-seed, CI-sized run (``EXAMPLES`` call sequences of 1-3 calls per mode and user);
``bench/noninterference.py`` runs the same harness at any size.  On failure the message lists
each distinct leak class (tool, model, method, argument shape, blocked names mentioned) with
the number of leaking answers and one example call with both answers and their diff.
"""

from __future__ import annotations

from noninterference.harness import TwinServers, explore, summary
from odoo_mcp_conformance.noninterference.calls import PROBES

#: call sequences per (mode, user): about 2 calls each, 6 combinations
EXAMPLES = 25


def test_blocked_data_never_changes_an_answer(
    servers: dict[tuple[str, str], TwinServers],
) -> None:
    findings = []
    for combo in sorted(servers):
        findings += explore(servers[combo], EXAMPLES)
    calls = sum(s.calls for s in servers.values())
    assert calls >= 6 * EXAMPLES
    assert not findings, f"{calls} calls\n" + summary(findings)


def test_known_oracles_answer_alike(servers: dict[tuple[str, str], TwinServers]) -> None:
    """Hand-picked oracles (``calls.PROBES``), each call alone, in every mode and as each user."""
    findings = []
    for combo in sorted(servers):
        for probe in PROBES:
            findings += servers[combo].run_sequence([probe])
    assert not findings, summary(findings)
