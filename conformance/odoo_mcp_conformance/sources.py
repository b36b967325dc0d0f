"""Where an expectation comes from: a seed, one of our decisions, or the reference server.

The kit judges other implementations of the specification, so every check it makes says where
its expectation comes from. A scenario is *seed*-sourced unless tagged ``@decision-N`` (it rests
on decision N of ``spec/decisions.md``) or ``@reference`` (behaviour of the reference server
that neither a seed nor a decision requires). A single check step may carry its own source as
a prefix of its text: ``Then [decision 11] the call fails ...``, ``And [reference] ...`` or
``And [seed] ...``. In the *spec* profile only seed checks decide a verdict; the others are
reported as notes ("differs from the reference"). In the *reference* profile every check counts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

__all__ = [
    "PROFILES",
    "REFERENCE_CODES",
    "SEED_CODES",
    "Check",
    "Profile",
    "Source",
    "StepPrefix",
    "code_category",
    "parse_step_prefix",
    "scenario_source",
    "split_step_source",
]

Profile = Literal["spec", "reference"]
PROFILES: Final[tuple[Profile, ...]] = ("spec", "reference")

_DECISION_TAG = re.compile(r"decision-(\d+)")
_STEP_PREFIX = re.compile(
    r"^\[(?:(seed|reference|decisions? (\d+(?:\s*,\s*\d+)*))\s*)?"
    r"(?:(for|needs) (REQ-[\w-]+(?:\s*,\s*REQ-[\w-]+)*))?\]\s+"
)


class Source(BaseModel):
    """The origin of one expectation."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["seed", "decision", "reference"]
    decisions: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        if self.kind == "decision":
            return "decision " + ", ".join(str(n) for n in self.decisions)
        return self.kind

    def counts_in(self, profile: Profile) -> bool:
        """Whether a failure of this expectation fails a verdict in ``profile``."""
        return profile == "reference" or self.kind == "seed"


class Check(BaseModel):
    """One verdict inside a scenario: a step (or one part of it), its source and outcome."""

    model_config = ConfigDict(frozen=True)

    step: str
    source: Source
    #: ``inconclusive``: the step got no answer to judge (inconclusive.py): no verdict
    outcome: Literal["passed", "failed", "inconclusive"]
    message: str = ""
    #: the requirements this check judges (``[for REQ-x]``); empty: every requirement of
    #: its scenario
    requirements: tuple[str, ...] = ()
    #: ``[needs REQ-x]``: a prerequisite owned by ``requirements``; when it fails, the
    #: scenario's other requirements are blocked by it, not failed
    prerequisite: bool = False
    #: a seed rule judged on every answer of the scenario (issue 36, ``invariants/``): it
    #: counts for its requirement even in a scenario tagged with others
    invariant: bool = False

    def judges(self, req_id: str) -> bool:
        return not self.requirements or req_id in self.requirements


SEED: Final = Source(kind="seed")
REFERENCE: Final = Source(kind="reference")


def scenario_source(tags: Iterable[str]) -> Source:
    """The default source of a scenario's checks, from its tags."""
    tags = set(tags)  # read twice below: a generator would be empty the second time
    decisions = sorted(
        int(match.group(1)) for tag in tags if (match := _DECISION_TAG.fullmatch(tag))
    )
    if decisions:
        return Source(kind="decision", decisions=tuple(decisions))
    if "reference" in tags:
        return REFERENCE
    return SEED


class StepPrefix(BaseModel):
    """What a step's ``[...]`` prefix says: its source, and which requirements it judges."""

    model_config = ConfigDict(frozen=True)

    source: Source | None = None
    requirements: tuple[str, ...] = ()
    prerequisite: bool = False


def parse_step_prefix(text: str) -> tuple[StepPrefix, str]:
    """A step's prefix and its text without it.

    ``[seed]``, ``[reference]``, ``[decision 11]`` set the source; ``[for REQ-10-02]`` makes
    the check judge that requirement alone (issue 27: a structure check inside a traceback
    scenario never fails the traceback requirement); ``[needs REQ-04-22]`` makes it a
    prerequisite owned by REQ-04-22. Both parts combine: ``[decision 15 for REQ-04-27]``.
    """
    match = _STEP_PREFIX.match(text)
    if match is None or not (match.group(1) or match.group(3)):
        return StepPrefix(), text
    rest = text[match.end() :]
    source: Source | None = None
    if match.group(1) == "seed":
        source = SEED
    elif match.group(1) == "reference":
        source = REFERENCE
    elif match.group(1):
        numbers = tuple(int(n) for n in re.split(r"\s*,\s*", match.group(2)))
        source = Source(kind="decision", decisions=numbers)
    requirements = tuple(re.split(r"\s*,\s*", match.group(4))) if match.group(4) else ()
    return StepPrefix(
        source=source, requirements=requirements, prerequisite=match.group(3) == "needs"
    ), rest


def split_step_source(text: str) -> tuple[Source | None, str]:
    """A step's own source prefix, if any, and its text without the prefix."""
    prefix, rest = parse_step_prefix(text)
    return prefix.source, rest


#: Error codes the seeds define, with their category and where. SPEC-10 REQ-10-01 (one code per
#: category), REQ-10-05/07/08 (classification tables), L2/10a's 28 patterns, L2/04a REQ-04a-14
#: (INVALID_DOMAIN), SPEC-11 REQ-11-20 (RATE_LIMITED) and the storefront contracts' codes.
SEED_CODES: Final[Mapping[str, tuple[str, str]]] = {
    "VALIDATION_ERROR": ("validation", "SPEC-10 REQ-10-01"),
    "ACCESS_DENIED": ("access", "SPEC-10 REQ-10-01"),
    "NOT_FOUND": ("not_found", "SPEC-10 REQ-10-01"),
    "CONSTRAINT_ERROR": ("constraint", "SPEC-10 REQ-10-01"),
    "STATE_ERROR": ("state", "SPEC-10 REQ-10-01"),
    "WIZARD_REQUIRED": ("wizard", "SPEC-10 REQ-10-01"),
    "CONNECTION_ERROR": ("connection", "SPEC-10 REQ-10-01"),
    "RATE_LIMITED": ("rate_limit", "SPEC-10 REQ-10-01, SPEC-11 REQ-11-20"),
    "CONFIG_ERROR": ("configuration", "SPEC-10 REQ-10-01"),
    "UNKNOWN_ERROR": ("unknown", "SPEC-10 REQ-10-01"),
    "USER_ERROR": ("validation", "SPEC-10 REQ-10-05/07"),
    "REDIRECT_WARNING": ("validation", "SPEC-10 REQ-10-07"),
    "VALUE_ERROR": ("validation", "SPEC-10 REQ-10-07"),
    "UNIQUE_VIOLATION": ("constraint", "SPEC-10 REQ-10-05/07"),
    "CHECK_CONSTRAINT": ("constraint", "SPEC-10 REQ-10-05/07"),
    "FK_VIOLATION": ("constraint", "SPEC-10 REQ-10-05/07"),
    "CONNECTION_REFUSED": ("connection", "SPEC-10 REQ-10-08"),
    "TIMEOUT": ("connection", "SPEC-10 REQ-10-08"),
    "SESSION_EXPIRED": ("access", "SPEC-10 REQ-10-08"),
    "ENDPOINT_NOT_FOUND": ("connection", "SPEC-10 REQ-10-08"),
    "SERVER_ERROR": ("connection", "SPEC-10 REQ-10-08"),
    "MISSING_REQUIRED_FIELD": ("validation", "L2/10a VAL-001"),
    "INVALID_FIELD": ("validation", "L2/10a VAL-002"),
    "WRONG_VALUE": ("validation", "L2/10a VAL-003"),
    "SINGLETON_EXPECTED": ("validation", "L2/10a VAL-004"),
    "INVALID_SELECTION": ("validation", "L2/10a VAL-005"),
    "TYPE_MISMATCH": ("validation", "L2/10a VAL-006"),
    "INVALID_INTEGER": ("validation", "L2/10a VAL-007"),
    "OPERATION_NOT_ALLOWED": ("access", "L2/10a ACC-002"),
    "RECORD_RULE_VIOLATION": ("access", "L2/10a ACC-003"),
    "MODEL_ACCESS_DENIED": ("access", "L2/10a ACC-004"),
    "RECORD_NOT_FOUND": ("not_found", "L2/10a NF-001"),
    "MODEL_NOT_FOUND": ("not_found", "L2/10a NF-002"),
    "INVALID_STATE_TRANSITION": ("state", "L2/10a ST-001"),
    "DRAFT_REQUIRED": ("state", "L2/10a ST-002"),
    "ALREADY_PROCESSED": ("state", "L2/10a ST-003"),
    "MISSING_ACCOUNTING_CONFIG": ("validation", "L2/10a BIZ-001"),
    "INSUFFICIENT_STOCK": ("validation", "L2/10a BIZ-002"),
    "MISSING_LINES": ("validation", "L2/10a BIZ-003"),
    "ALREADY_RECONCILED": ("state", "L2/10a BIZ-004"),
    "CANNOT_DELETE_PROCESSED": ("state", "L2/10a BIZ-005"),
    "INVALID_DOMAIN": ("validation", "L2/04a REQ-04a-14"),
    # the storefront contracts' Odoo error codes (lujanita-contracts, "Errores de Odoo")
    "INVALID_PARAMS": ("validation", "lujanita contracts"),
    "UNAUTHORIZED": ("access", "lujanita contracts"),
    "INTERNAL_ERROR": ("unknown", "lujanita contracts"),
}

#: Codes only the reference server uses: a check naming one is judged, on the seed side, on
#: the category alone (any code of that category with the SPEC-10 body passes).
REFERENCE_CODES: Final[Mapping[str, str]] = {
    "MODEL_BLOCKED": "access",
    "FIELD_BLOCKED": "access",
    "METHOD_BLOCKED": "access",
    "MODE_VIOLATION": "access",
    "PRIVATE_METHOD": "access",
    "METHOD_NOT_FOUND": "not_found",
    "INVALID_ARGUMENT": "validation",
    "INVALID_ORDER": "validation",
    "INVALID_X2MANY_COMMAND": "validation",
    "CANNOT_MODIFY_PROCESSED": "state",
    "STATE_REQUIRED": "state",
    "DATABASE_NOT_FOUND": "configuration",
    "UNMARSHALLABLE_RESULT": "configuration",
    "TOO_MANY_MODELS": "validation",
}


def code_category(code: str) -> str | None:
    """The category a code belongs to (seed codes first), None if the kit does not know it."""
    if code in SEED_CODES:
        return SEED_CODES[code][0]
    return REFERENCE_CODES.get(code)
