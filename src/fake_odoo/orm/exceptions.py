"""Exceptions the fake ORM raises, named exactly as real Odoo's.

The wire layers turn these into faults and error objects the way Odoo 19 does
(see ``fake_odoo.wire``).  Each class carries the dotted name Odoo reports
(``data.name`` in JSON-RPC, ``name`` in JSON-2, the last traceback line in
XML-RPC): we set ``__module__`` so ``traceback.format_exception`` prints the
same ``odoo.exceptions.UserError: ...`` line real Odoo prints.

Hierarchy (as in ``odoo/exceptions.py``)::

    Exception
    ├── UserError                      XML-RPC fault 2, JSON-2 422
    │   ├── ValidationError            fault 2, 422
    │   ├── MissingError               fault 2, 404
    │   ├── RedirectWarning            fault 2, 422
    │   └── AccessError                fault 4, 403
    ├── AccessDenied                   fault 3 "Access Denied", JSON-2 401
    ├── NotFound (werkzeug)            JSON-2 404 / JSON-RPC code 404
    ├── Unauthorized (werkzeug)        JSON-2 401
    ├── BadRequest (werkzeug)          JSON-2 400
    └── psycopg2 errors                fault 1, 500
        ├── OperationalError
        └── IntegrityError -> UniqueViolation, ForeignKeyViolation

Python builtins (ValueError, TypeError, KeyError, AttributeError) are raised
as themselves: Odoo reports them as ``builtins.ValueError`` and so on.
"""

from __future__ import annotations

import builtins


class UserError(Exception):
    """A business rule refused the operation (fault 2, HTTP 422)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ValidationError(UserError):
    """A constraint failed (fault 2, HTTP 422)."""


class MissingError(UserError):
    """The record does not exist or was deleted (fault 2, HTTP 404)."""


class RedirectWarning(UserError):
    """A warning with a suggested action (fault 2, HTTP 422)."""


class AccessError(UserError):
    """The user lacks the rights for the operation (fault 4, HTTP 403)."""


class AccessDenied(Exception):
    """Bad credentials (fault 3, HTTP 401).  The message is always 'Access Denied'."""

    def __init__(self, message: str = "Access Denied") -> None:
        super().__init__(message)
        self.message = message


for _cls in (UserError, ValidationError, MissingError, RedirectWarning, AccessError, AccessDenied):
    _cls.__module__ = "odoo.exceptions"


class HTTPException(Exception):
    """A werkzeug HTTP exception: carries its status code and description."""

    code = 500
    title = "Internal Server Error"
    default_description = "The server encountered an internal error."

    def __init__(self, description: str | None = None) -> None:
        # Raised bare (``NotFound()``), werkzeug has no args and Odoo reports ``str(exc)``.
        self.bare = description is None
        self.description = self.default_description if description is None else description
        super().__init__(*([] if self.bare else [description]))
        text = f"{self.code} {self.title}: {self.description}"
        self.message = text if self.bare else self.description

    def __str__(self) -> str:
        return f"{self.code} {self.title}: {self.description}"


class NotFound(HTTPException):
    code = 404
    title = "Not Found"
    default_description = (
        "The requested URL was not found on the server. If you entered the URL manually please"
        " check your spelling and try again."
    )


class Unauthorized(HTTPException):
    code = 401
    title = "Unauthorized"


class BadRequest(HTTPException):
    code = 400
    title = "Bad Request"


class UnprocessableEntity(HTTPException):
    code = 422
    title = "Unprocessable Entity"


for _http_cls in (HTTPException, NotFound, Unauthorized, BadRequest, UnprocessableEntity):
    _http_cls.__module__ = "werkzeug.exceptions"


class OperationalError(Exception):
    """psycopg2.OperationalError, e.g. an unknown database."""


class IntegrityError(Exception):
    """psycopg2.IntegrityError, the base of constraint violations."""


class UniqueViolation(IntegrityError):
    """psycopg2.errors.UniqueViolation: a UNIQUE constraint failed."""


class ForeignKeyViolation(IntegrityError):
    """psycopg2.errors.ForeignKeyViolation: a referenced row cannot be deleted."""


class CheckViolation(IntegrityError):
    """psycopg2.errors.CheckViolation: a CHECK constraint failed."""


class DataError(Exception):
    """psycopg2.DataError: a value PostgreSQL cannot store in its column."""


class InvalidTextRepresentation(DataError):
    """psycopg2.errors.InvalidTextRepresentation: e.g. a name given for an integer column."""


OperationalError.__module__ = "psycopg2"
DataError.__module__ = "psycopg2"
InvalidTextRepresentation.__module__ = "psycopg2.errors"
IntegrityError.__module__ = "psycopg2"
UniqueViolation.__module__ = "psycopg2.errors"
ForeignKeyViolation.__module__ = "psycopg2.errors"
CheckViolation.__module__ = "psycopg2.errors"

_KNOWN: tuple[type[Exception], ...] = (
    UserError, ValidationError, MissingError, RedirectWarning, AccessError, AccessDenied,
    NotFound, Unauthorized, BadRequest, UnprocessableEntity, OperationalError, IntegrityError,
    UniqueViolation, ForeignKeyViolation, CheckViolation, DataError, InvalidTextRepresentation,
)  # fmt: skip
_MADE: dict[str, type[Exception]] = {}


def odoo_exception(name: str, message: str) -> Exception:
    """An instance of the class Odoo reports as ``name`` (``odoo.exceptions.UserError``,
    ``psycopg2.errors.CheckViolation``, ``builtins.ValueError``) carrying ``message``.

    Odoo's and psycopg2's classes are the fake's own (so each protocol renders them with
    their fault code and HTTP status); any other dotted name gets a plain Exception subclass
    of that module and name, which Odoo would report like any unexpected exception.
    """
    module, _, cls_name = name.rpartition(".")
    if not module or not cls_name.isidentifier():
        raise ValueError(f"expected a dotted exception class name, got {name!r}")
    known = {f"{cls.__module__}.{cls.__qualname__}": cls for cls in _KNOWN}
    cls = known.get(name)
    if cls is None and module == "builtins":
        candidate = getattr(builtins, cls_name, None)
        if isinstance(candidate, type) and issubclass(candidate, Exception):
            cls = candidate
    if cls is None:
        cls = _MADE.get(name)
        if cls is None:
            cls = type(cls_name, (Exception,), {"__module__": module})
            _MADE[name] = cls
    return cls(message)


def qualified_name(exc: BaseException) -> str:
    """The dotted class name Odoo reports for an exception (``builtins.ValueError``)."""
    cls = type(exc)
    return f"{cls.__module__}.{cls.__qualname__}"


def message_of(exc: BaseException) -> str:
    """The message Odoo reports: ``.message`` when set, else ``str(exc)``.

    KeyError's ``str()`` adds quotes (``'no_such_field'``) while Odoo's JSON
    ``message`` carries the bare key, so it is unwrapped here.
    """
    message = getattr(exc, "message", None)
    if isinstance(message, str):
        return message
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    return str(exc)
