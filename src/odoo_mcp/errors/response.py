"""SPEC-10 §3: the LLM-facing error response and the JSON object it is sent as (the MCP
adapter puts that object in a tool result or a JSON-RPC error, ``odoo_mcp.adapter.errors``).

:class:`ErrorResponse` is the REQ-10-02 structure, field for field (plus ``retry_after`` of
REQ-10-15). The full traceback travels on the model for the debug log but is excluded from
every rendering: :func:`to_payload` is the only way out, and it scrubs every string.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

from odoo_mcp.errors.categories import ErrorCategory, default_retry_after, retry_for
from odoo_mcp.errors.sanitize import scrub_text
from odoo_mcp.errors.suggestions import category_suggestion

__all__ = ["ErrorResponse", "ToolError", "to_json", "to_payload"]


class ErrorResponse(BaseModel):
    """REQ-10-02: the structure of every error response, in the spec's field order."""

    # built on its first use, not at import (issue 41: the first error, not the cold start)
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    #: REQ-10-03: always true
    error: Literal[True] = True
    category: ErrorCategory
    code: str = Field(min_length=1)
    message: str
    #: REQ-10-04: structured context (model, field, current state, ...)
    details: dict[str, JsonValue] | None = None
    suggestion: str
    #: REQ-10-15: always ``retry_for(category)``; a value given here is replaced (see
    #: :meth:`_retry_follows_category`), so no error object can disagree with its category
    retry: bool = False
    #: REQ-10-15: seconds to wait, for connection and rate-limit errors
    retry_after: float | None = Field(default=None, ge=0)
    #: REQ-10-04 / REQ-10-13: the raw error's final ``Class: message`` line, never a traceback
    original_error: str | None = None
    #: REQ-10-13: the full traceback, kept for the debug log only; never rendered
    traceback: str | None = Field(default=None, exclude=True, repr=False)

    @model_validator(mode="before")
    @classmethod
    def _retry_follows_category(cls, data: Any) -> Any:
        """REQ-10-15: the one place ``retry`` is set: SPEC-10 §8's table, by category.

        Whatever the builder passed (an Odoo error, the server's own refusal, the -32601 data
        of an unknown tool) is replaced by :func:`retry_for` of the category.
        """
        if isinstance(data, Mapping) and "category" in data:
            try:
                category = ErrorCategory(data["category"])
            except ValueError:
                return data  # the category's own validation reports it
            return {**data, "retry": retry_for(category)}
        return data

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """REQ-10-15: a copy (``model_copy`` skips validation) keeps retry on its category."""
        copied = super().model_copy(update=update, deep=deep)
        retry = retry_for(copied.category)
        if copied.retry is retry:
            return copied
        return super(ErrorResponse, copied).model_copy(update={"retry": retry})


class ToolError(Exception):
    """The server's own refusal (bad input, unknown record in a tool's own check, ...).

    Raised by tool handlers and the dispatcher; :meth:`to_response` gives the same
    ErrorResponse shape as a classified Odoo error, so the LLM sees one format.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        category: ErrorCategory = ErrorCategory.VALIDATION,
        suggestion: str | None = None,
        details: Mapping[str, JsonValue] | None = None,
        retry: bool | None = None,
        retry_after: float | None = None,
    ) -> None:
        """REQ-10-15: ``retry`` is accepted for old callers but the response's retry always
        follows ``category`` (:class:`ErrorResponse`)."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.category = category
        self.suggestion = suggestion
        self.details = dict(details) if details else None
        del retry  # REQ-10-15: the category decides
        self.retry = retry_for(category)
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"ToolError({self.code!r}, {self.message!r}, category={self.category.value!r})"

    def to_response(self) -> ErrorResponse:
        """REQ-10-03: a server-side refusal in the same structure as an Odoo error."""
        model = self.details.get("model") if self.details else None
        return ErrorResponse(
            category=self.category,
            code=self.code,
            message=self.message,
            details=self.details,
            suggestion=self.suggestion
            or category_suggestion(self.category, model if isinstance(model, str) else None),
            retry=retry_for(self.category),
            retry_after=self.retry_after
            if self.retry_after is not None
            else default_retry_after(self.category),
        )


def _scrub(value: JsonValue) -> JsonValue:
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, list):
        return [_scrub(item) for item in value]
    if isinstance(value, dict):
        return {key: _scrub(item) for key, item in value.items()}
    return value


def to_payload(response: ErrorResponse) -> dict[str, JsonValue]:
    """REQ-10-14: the JSON object sent to the client: no traceback, frame or server path.

    Absent optional fields are omitted; every string is scrubbed, including Odoo's own
    message text and the details, because Odoo messages may quote a traceback or a path.
    """
    dumped = response.model_dump(mode="json", exclude_none=True)
    return {key: _scrub(value) for key, value in dumped.items()}


def to_json(response: ErrorResponse) -> str:
    """REQ-10-04: the JSON text of a response; absent optional fields are left out."""
    return json.dumps(to_payload(response), ensure_ascii=False)
