"""REQ-02-21 (issue 37): the one rule that decides whether an Odoo call is sent again.

Every call is a read (``READ_METHODS``: it changes nothing) or not (a write, an action, a
method we do not know). Whether its request may have reached Odoo is the transport's finding
(``OdooConnectionError.request_sent``, see ``transport``): False only when no byte of it left
this process. Any answer at all, whatever its status (a 429 or a 503 too: a proxy answers them
after forwarding as well as before), a cut or half answer and a timeout mean it may have.

=======================  ===========================  ===================================
call                     request provably never left  request may have reached Odoo
=======================  ===========================  ===================================
read                     sent once more               sent once more, except after a
                                                      timeout (a slow Odoo may still run
                                                      it: a second copy doubles its load)
write, action, unknown   sent once more               never: its effect is unknown, the
                                                      caller is told what to check
=======================  ===========================  ===================================

An expired session is not a failure of this kind: Odoo refuses the call before running it, so
the connection manager re-authenticates and sends it once more (decision 7).
"""

from __future__ import annotations

from odoo_mcp.connection.errors import OdooConnectionError, OdooRateLimited
from odoo_mcp.connection.shapes import READ_METHODS

__all__ = ["is_read", "may_resend", "unconfirmed", "what_to_check"]


def is_read(method: str) -> bool:
    """REQ-02-21: a method that changes nothing, so repeating it after a lost answer is harmless."""
    return method in READ_METHODS


def may_resend(method: str, failure: OdooConnectionError) -> bool:
    """REQ-02-21: whether the call that failed with ``failure`` may be sent once more."""
    if not failure.request_sent:
        return True
    return is_read(method) and failure.kind != "timeout"


def what_to_check(model: str, method: str) -> str:
    """REQ-10-15 (issue 37): what a caller looks at before repeating a call whose effect is
    unknown, so that obeying ``retry`` never applies a change twice."""
    if method == "create":
        return (
            f"search {model} for the record you meant to create (by the values you sent, e.g. "
            "its name); create it again only if it is not there"
        )
    if method == "write":
        return f"read the {model} records you changed: if they hold the new values, it applied"
    if method == "unlink":
        return f"search {model} for the ids you deleted: the ones no longer found were deleted"
    if method == "copy":
        return f"search {model} for a new copy of the record before copying it again"
    return (
        f"read the {model} records involved (e.g. their state) to see whether {method} ran "
        "before calling it again"
    )


def unconfirmed(model: str, method: str, failure: OdooConnectionError) -> OdooConnectionError:
    """REQ-02-21: the error a caller gets for a call that was not sent again: the same failure,
    saying so and naming the call (the SPEC-10 suggestion says what to check)."""
    message = (
        f"{failure.message}. The call {model}.{method} may have reached Odoo and been applied; "
        "it was not sent again"
    )
    call = (model, method)
    if isinstance(failure, OdooRateLimited):
        return OdooRateLimited(
            message, retry_after=failure.retry_after, protocol=failure.protocol, unconfirmed=call
        )
    return OdooConnectionError(
        message,
        kind=failure.kind,
        request_sent=True,
        http_status=failure.http_status,
        protocol=failure.protocol,
        unconfirmed=call,
    )
