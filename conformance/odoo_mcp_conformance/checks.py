"""Independent checks: every ``Then`` step is its own verdict, with its own source.

pytest-bdd stops a scenario at the first step that raises, so one over-fitted expectation used
to hide every later one (a blocked field refused in ``fields`` on the wrong code never reached
the domain and order checks where the field really leaked). Steps declared with :func:`check`
record a failed assertion and let the scenario go on; the plugin turns the recorded checks into
the scenario's verdict for the run's profile. A step may record several checks with different
sources (:meth:`CheckRecorder.expect`), e.g. an error category required by a seed and the
reference server's own error code.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from pytest_bdd import then
from pytest_bdd.parsers import StepParser

from odoo_mcp_conformance.inconclusive import Inconclusive, cause_of
from odoo_mcp_conformance.real_odoo import NeedsFake
from odoo_mcp_conformance.sources import (
    Check,
    Source,
    StepPrefix,
    parse_step_prefix,
    split_step_source,
)

__all__ = ["CheckRecorder", "SourcedParser", "check", "in_words"]

F = TypeVar("F", bound=Callable[..., None])


class CheckRecorder:
    """The checks of one scenario, and which step is running (set by the plugin)."""

    def __init__(self, default: Source) -> None:
        self.default = default
        self.checks: list[Check] = []
        self.step_text = ""
        self.prefix = StepPrefix()

    def begin_step(self, text: str) -> None:
        self.prefix, self.step_text = parse_step_prefix(text)

    @property
    def step_source(self) -> Source | None:
        return self.prefix.source

    @property
    def source(self) -> Source:
        """The source of the running step: its own prefix, else the scenario's."""
        return self.prefix.source or self.default

    def record(self, passed: bool, message: str = "", *, source: Source | None = None,
               label: str = "", requirements: tuple[str, ...] = (),
               anywhere: bool = False) -> None:  # fmt: skip
        """One check; ``requirements`` (else the step's ``[for REQ-x]``) are the only ones
        it judges (issue 36: a check of one requirement never fails another); ``anywhere``:
        it counts for them even in a scenario tagged with others (a seed rule that holds for
        every answer, as the invariants' checks do)."""
        step = self.step_text + (f" ({label})" if label else "")
        self.checks.append(
            Check(
                step=step,
                source=source or self.source,
                outcome="passed" if passed else "failed",
                message=message,
                requirements=requirements or self.prefix.requirements,
                prerequisite=self.prefix.prerequisite and not requirements,
                invariant=anywhere,
            )
        )

    def inconclusive(self, cause: str) -> None:
        """The running step got no answer to judge (issue 38): the scenario has no verdict."""
        self.checks.append(
            Check(step=self.step_text, source=self.source, outcome="inconclusive", message=cause)
        )

    def expect(self, passed: bool, message: str, *, source: Source | None = None,
               label: str = "", requirements: tuple[str, ...] = (),
               anywhere: bool = False) -> None:  # fmt: skip
        """Record one check of the running step without stopping the scenario."""
        self.record(
            passed, "" if passed else message, source=source, label=label,
            requirements=requirements, anywhere=anywhere,
        )  # fmt: skip


class SourcedParser(StepParser):
    """Match a step with or without a ``[source]`` prefix (the recorder reads the prefix)."""

    def __init__(self, inner: StepParser) -> None:
        super().__init__(inner.name)
        self.inner = inner

    def parse_arguments(self, name: str) -> dict[str, Any] | None:
        return self.inner.parse_arguments(split_step_source(name)[1])

    def is_matching(self, name: str) -> bool:
        return self.inner.is_matching(split_step_source(name)[1])


def _recorder(kwargs: dict[str, Any]) -> CheckRecorder:
    world = kwargs.get("world")
    recorder = getattr(world, "checks", None)
    if not isinstance(recorder, CheckRecorder):
        raise TypeError("a check step must take the `world` fixture")
    return recorder


def check(parser: StepParser) -> Callable[[F], F]:
    """``@then`` for a check: a failed assertion is recorded and the scenario goes on.

    A step that recorded its own checks through ``world.checks.expect`` records nothing more
    when it returns; a step that returns silently passed one check under the step's source.
    """

    def decorator(func: F) -> F:
        @functools.wraps(func)
        def soft(*args: Any, **kwargs: Any) -> None:
            recorder = _recorder(kwargs)
            before = len(recorder.checks)
            try:
                func(*args, **kwargs)
            except (AssertionError, pytest.fail.Exception) as exc:
                recorder.record(False, in_words(exc))
                return
            except NeedsFake:
                raise  # not a check: the scenario is not applicable to a real Odoo
            except Exception as exc:
                cause = cause_of(exc)
                if cause is not None:
                    recorder.inconclusive(cause)
                else:
                    recorder.record(False, unreadable(exc, kwargs.get("world")))
                return
            if len(recorder.checks) == before:
                recorder.record(True)

        then(SourcedParser(parser), stacklevel=2)(soft)
        return func

    return decorator


def shown(value: Any, limit: int = 300) -> str:
    """A value as JSON text for a message (never a Python repr), cut at ``limit``."""
    try:
        text = json.dumps(value, default=str, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def unreadable(exc: BaseException, world: Any = None) -> str:
    """A step that met an answer it cannot read (a list where a number is due, an object
    where a list is): a failed check in words, with what came, never the kit's own error."""
    if isinstance(exc, Inconclusive):  # judged after all: a server that exits at start-up
        return str(exc)
    message = "the answer does not have the shape this step reads"
    outcome = None
    if world is not None and getattr(world, "outcomes", None):
        outcome = world.last()
    if outcome is not None:
        if outcome.error is not None:
            return (
                f"{message}: a JSON-RPC error came ({outcome.error.code} {outcome.error.message})"
            )
        data = outcome.structured
        return f"{message}: {shown(data if data is not None else outcome.text)}"
    return f"{message} ({type(exc).__name__})"


def in_words(exc: BaseException) -> str:
    """The failure in words: the assertion's message, never an object repr alone."""
    # drop pytest's assertion rewriting detail ("assert False" ...) after the message
    text = str(exc).strip().split("\nassert ")[0].strip()
    return text or f"{type(exc).__name__} without a message"
