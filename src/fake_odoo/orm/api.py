"""Method decorators, shaped like ``odoo.api``.

``@api.model`` marks a method that works on the model, not on records: RPC
calls pass no ids to it (``service.call_kw`` and JSON-2's "ids passed to an
@api.model method" check read the mark).  ``@api.constrains(*fields)`` marks a
check run after create/write when one of the fields was set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def model(method: F) -> F:
    """Mark ``method`` as a model method (``self`` is an empty recordset)."""
    method._api_model = True  # type: ignore[attr-defined]
    return method


def constrains(*field_names: str) -> Callable[[F], F]:
    """Mark a method checked after create/write touching one of ``field_names``."""

    def decorate(method: F) -> F:
        method._constrains = tuple(field_names)  # type: ignore[attr-defined]
        return method

    return decorate


def is_model_method(method: Any) -> bool:
    """Whether a function (or bound method) carries ``@api.model``."""
    func = getattr(method, "__func__", method)
    return bool(getattr(func, "_api_model", False))


def constrained_fields(method: Any) -> tuple[str, ...]:
    """The field names of an ``@api.constrains`` method (empty when not one)."""
    func = getattr(method, "__func__", method)
    names: tuple[str, ...] = getattr(func, "_constrains", ())
    return names


def private(method: F) -> F:
    """Mark a public-looking method as not callable over RPC (Odoo 18's ``api.private``)."""
    method._api_private = True  # type: ignore[attr-defined]
    return method


def is_private(method: Any) -> bool:
    func = getattr(method, "__func__", method)
    return bool(getattr(func, "_api_private", False))


def ondelete(*, at_uninstall: bool) -> Callable[[F], F]:
    """Mark a business rule run by ``unlink`` after the access checks (Odoo's ``@api.ondelete``).

    ``at_uninstall`` is kept for Odoo's signature; the fake has no module uninstallation.
    """

    def decorate(method: F) -> F:
        method._ondelete = True  # type: ignore[attr-defined]
        return method

    return decorate


def is_ondelete(method: Any) -> bool:
    func = getattr(method, "__func__", method)
    return bool(getattr(func, "_ondelete", False))
