"""Issue 38: a claimed capability cannot be dodged by leaving a setting out of the target.

A scenario whose setting the target cannot express is not applicable (``Target.render``): the
kit cannot configure the server for it. For a capability the target claims, that would turn its
scenarios into "not applicable" and a run that exits 0: one claiming ``subscriptions`` but
mapping no ``subscription_poll_interval`` had all nine subscription scenarios N/A. So before a
run starts, the settings the claimed capabilities' scenarios name (``Given the server setting
"<name>" is ...``, read from the features being run) must each be mapped by the target or be
one of the spec's own variables (``SPEC_ENV_NAMES``, sent under its REQ-11-25 name); a target
that leaves one out is a target error, named with the capability and the setting.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from gherkin.parser import Parser

from odoo_mcp_conformance.settings import SPEC_ENV_NAMES
from odoo_mcp_conformance.target import Target

__all__ = ["settings_by_capability", "unmapped_claimed_settings"]

_SETTING_STEP: Final = re.compile(r'^the server setting "([a-z_]+)" is ')
_NEEDS: Final = "@needs_"


def _tags(node: Mapping[str, Any]) -> set[str]:
    return {
        str(tag["name"]).removeprefix(_NEEDS)
        for tag in node.get("tags", ())
        if str(tag["name"]).startswith(_NEEDS)
    }


def _settings(steps: Iterable[Mapping[str, Any]]) -> set[str]:
    return {found.group(1) for step in steps if (found := _SETTING_STEP.match(step["text"]))}


def _scenarios(
    children: Iterable[Mapping[str, Any]], needs: set[str], background: set[str]
) -> Iterator[tuple[set[str], set[str]]]:
    """(capabilities it needs, settings it names) of each scenario, a rule's own included."""
    children = list(children)
    for child in children:
        if "background" in child:
            background = background | _settings(child["background"]["steps"])
    for child in children:
        if "rule" in child:
            rule = child["rule"]
            yield from _scenarios(rule["children"], needs | _tags(rule), background)
        elif "scenario" in child:
            scenario = child["scenario"]
            example_tags: set[str] = set()
            for examples in scenario.get("examples", ()):
                example_tags |= _tags(examples)
            yield needs | _tags(scenario) | example_tags, background | _settings(scenario["steps"])


def settings_by_capability(features: Path) -> dict[str, set[str]]:
    """For each capability a scenario needs (``@needs_<name>``), the settings those
    scenarios name, over every feature file under ``features``."""
    found: dict[str, set[str]] = {}
    for path in sorted(features.rglob("*.feature")):
        feature = Parser().parse(path.read_text(encoding="utf-8")).get("feature")
        if not feature:
            continue
        for needs, settings in _scenarios(feature["children"], _tags(feature), set()):
            for capability in needs:
                found.setdefault(capability, set()).update(settings)
    return found


def unmapped_claimed_settings(target: Target, features: Path) -> list[str]:
    """Issue 38: one line per capability the target claims whose scenarios name a
    setting the target cannot express; empty when every claim can be judged."""
    problems = []
    for capability, settings in sorted(settings_by_capability(features).items()):
        if capability not in target.capabilities.features:
            continue
        missing = sorted(
            s for s in settings if s not in target.settings and s not in SPEC_ENV_NAMES
        )
        if missing:
            problems.append(
                f"target {target.name} claims {capability!r} but maps no "
                f"{', '.join(missing)} (its [settings] table): the scenarios of a claimed "
                "capability are judged, never left not applicable"
            )
    return problems
