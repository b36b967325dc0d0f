"""Web sessions (``session_id`` cookie) and the session info of ``/web/session/authenticate``.

Imitates ``odoo.http.Session`` / ``FilesystemSessionStore`` (an opaque id in a cookie,
server-side state holding db, uid and login) and ``ir.http.session_info()`` of Odoo 19
(the dict the web client boots from).  Sessions live in memory; the control API can
expire them all, after which Odoo answers JSON-RPC error 100 "Odoo Session Expired".
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fake_odoo.orm.access import user_groups
from fake_odoo.orm.database import SUPERUSER_ID

if TYPE_CHECKING:
    from fake_odoo.handle import FakeOdoo

__all__ = ["SESSION_COOKIE", "SESSION_MAX_AGE", "Session", "SessionStore", "session_info"]

SESSION_COOKIE = "session_id"
SESSION_MAX_AGE = 7 * 24 * 3600  # Odoo's default session lifetime (one week)


@dataclass
class Session:
    """What Odoo keeps server-side for a logged-in browser."""

    sid: str
    db: str
    uid: int
    login: str
    context: dict[str, Any] = field(default_factory=dict)


class SessionStore:
    """Thread-safe in-memory session store."""

    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def new(self, db: str, uid: int, login: str, context: dict[str, Any]) -> Session:
        # Odoo 17+ session ids are 84 url-safe characters; the length does not matter here.
        session = Session(secrets.token_urlsafe(63), db, uid, login, dict(context))
        with self._lock:
            self._sessions[session.sid] = session
        return session

    def get(self, sid: str | None) -> Session | None:
        if not sid:
            return None
        with self._lock:
            return self._sessions.get(sid)

    def drop(self, sid: str | None) -> None:
        with self._lock:
            self._sessions.pop(sid or "", None)

    def clear(self) -> None:
        with self._lock:
            self._sessions.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)


def session_info(fake: FakeOdoo, session: Session) -> dict[str, Any]:
    """``ir.http.session_info()`` for the session's user, keys in Odoo 19's order."""
    uid = session.uid
    wanted = ["name", "login", "partner_id", "company_id", "company_ids", "share"]
    known = fake.db.registry["res.users"].fields_for(fake.db.major, fake.db.uninstalled)
    fields = [name for name in wanted if name in known]
    user = fake.call_kw(SUPERUSER_ID, "res.users", "read", [[uid]], {"fields": fields})[0]
    user_context = fake.call_kw(uid, "res.users", "context_get", [], {})
    partner = user.get("partner_id") or [False, ""]
    company = user.get("company_id") or [False, ""]
    company_ids = user.get("company_ids") or []
    companies = (
        fake.call_kw(SUPERUSER_ID, "res.company", "read", [company_ids], {"fields": ["name"]})
        if company_ids
        else []
    )
    version = fake.db.version_info
    with fake.db.lock:
        groups = user_groups(fake.db.env(su=True), uid)
    is_system = "base.group_system" in groups
    internal = not user.get("share", False)
    info: dict[str, Any] = {
        "uid": uid,
        "is_system": is_system,
        "is_admin": is_system or "base.group_erp_manager" in groups,
        "is_public": False,
        "is_internal_user": internal,
        "user_context": user_context,
        "db": session.db,
        "user_settings": {"id": uid, "user_id": {"id": uid}},
        "server_version": version["server_version"],
        "server_version_info": version["server_version_info"],
        "support_url": "https://www.odoo.com/help",
        "name": user.get("name"),
        "username": user.get("login"),
        "quick_login": True,
        "partner_write_date": fake.db.now_str(),
        "partner_display_name": partner[1],
        "partner_id": partner[0] or None,
        "web.base.url": fake.url or "http://localhost:8069",
        "active_ids_limit": 20000,
        "profile_session": None,
        "profile_collectors": None,
        "profile_params": None,
        "max_file_upload_size": 134217728,
        "home_action_id": False,
        "cache_hashes": {"translations": "0" * 40},
        "currencies": {},
        "bundle_params": {"lang": user_context.get("lang", "en_US")},
        "test_mode": False,
        "view_info": {},
        "groups": {"base.group_allow_export": True},
    }
    if internal:
        info["user_companies"] = {
            "current_company": company[0],
            "allowed_companies": {
                str(c["id"]): {
                    "id": c["id"],
                    "name": c["name"],
                    "sequence": c.get("sequence", 10),
                    "child_ids": [],
                    "parent_id": False,
                }
                for c in companies
            },
            "disallowed_ancestor_companies": {},
        }
        info["show_effect"] = True
        info["display_switch_company_menu"] = len(company_ids) > 1
    return info
