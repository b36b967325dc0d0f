"""Record ids across a replay: captured ids (real Odoo) mapped to the ids the fake returned.

A capture step creates sale.order 53 and later steps use 53; the fake creates its own id.
``IdMap.learn`` walks a captured result and the fake's result side by side (create, copy,
search, read records, many2one pairs, x2many lists, act_window ``res_id``, default_get
commands) and records ``(model, captured id) -> fake id``; ``IdMap.request`` rewrites the ids
of a later request: the ids a method is called on, domain leaves on relational fields,
relational values and x2many commands in ``vals``, and ``active_id(s)`` / ``default_*`` in
the context.  The relation of each field comes from the fake's ``fields_get`` (``relations``).
Ids nobody created (demo records, 999999) are left alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Methods whose first positional argument is not a list of record ids (@api.model).
MODEL_METHODS = frozenset(
    {
        "create",
        "search",
        "search_read",
        "search_count",
        "read_group",
        "formatted_read_group",
        "fields_get",
        "default_get",
        "name_search",
        "name_create",
        "check_access_rights",
        "context_get",
        "get_param",
        "set_param",
    }
)
GROUP_METHODS = ("read_group", "formatted_read_group")
# Context keys naming records of a known model (besides active_id/active_ids/default_*).
CONTEXT_MODELS = {"button_validate_picking_ids": "stock.picking"}

Relations = Callable[[str], dict[str, str]]  # model -> {field: comodel} (relational fields)


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_pair(value: Any) -> bool:
    """A many2one value as read returns it: ``[id, display_name]``."""
    if not (isinstance(value, list) and len(value) == 2):
        return False
    return _is_id(value[0]) and isinstance(value[1], str)


def _is_id_list(value: Any) -> bool:
    return isinstance(value, list) and all(_is_id(v) for v in value)


class IdMap:
    """``(model, captured id) -> fake id`` for the records created during one replay."""

    def __init__(self, relations: Relations) -> None:
        self.relations = relations
        self.ids: dict[tuple[str, int], int] = {}

    # -- learning from results ---------------------------------------------------------------
    def add(self, model: str | None, captured: Any, fake: Any) -> None:
        if model and _is_id(captured) and _is_id(fake) and captured != fake:
            self.ids[(model, captured)] = fake
        elif model and _is_id(captured) and _is_id(fake):
            self.ids.pop((model, captured), None)

    def add_list(self, model: str | None, captured: Any, fake: Any) -> None:
        if _is_id_list(captured) and _is_id_list(fake) and len(captured) == len(fake):
            for c, f in zip(captured, fake, strict=True):
                self.add(model, c, f)

    def learn(self, model: str | None, method: str, captured: Any, fake: Any) -> None:
        """Record the ids a step's result reveals (captured and fake results side by side)."""
        if model is None:
            return
        if method in ("create", "copy", "search", "name_create"):
            if _is_id(captured):
                self.add(model, captured, fake)
            elif method == "name_create" and isinstance(captured, list) and captured:
                if isinstance(fake, list) and fake:
                    self.add(model, captured[0], fake[0])
            else:
                self.add_list(model, captured, fake)
        elif isinstance(captured, list) and isinstance(fake, list):
            if method != "read" and len(captured) + len(fake) != 2:
                return  # several searched records: their order may differ, pairing is unsafe
            for crec, frec in zip(captured, fake, strict=False):
                if isinstance(crec, dict) and isinstance(frec, dict):
                    self.learn_record(model, crec, frec)
                elif (
                    method == "name_search"
                    and isinstance(crec, list)
                    and isinstance(frec, list)
                    and crec
                    and frec
                ):
                    self.add(model, crec[0], frec[0])
        elif isinstance(captured, dict) and isinstance(fake, dict):
            if captured.get("type") == "ir.actions.act_window":
                self.learn_action(captured, fake)
            else:
                self.learn_record(model, captured, fake)

    def learn_action(self, captured: dict[str, Any], fake: dict[str, Any]) -> None:
        res_model = captured.get("res_model")
        if isinstance(res_model, str):
            self.add(res_model, captured.get("res_id"), fake.get("res_id"))
        cctx, fctx = captured.get("context"), fake.get("context")
        if isinstance(cctx, dict) and isinstance(fctx, dict):
            for key, model in CONTEXT_MODELS.items():
                self.add_list(model, cctx.get(key), fctx.get(key))

    def learn_record(self, model: str, captured: dict[str, Any], fake: dict[str, Any]) -> None:
        """A read record, default_get values or vals: ids, many2one pairs, x2many, commands."""
        self.add(model, captured.get("id"), fake.get("id"))
        relations = self.relations(model)
        for name, cvalue in captured.items():
            comodel = relations.get(name)
            if comodel is None or name not in fake:
                continue
            fvalue = fake[name]
            if _is_id(cvalue):
                self.add(comodel, cvalue, fvalue)
            elif _is_pair(cvalue) and isinstance(fvalue, list) and fvalue:
                self.add(comodel, cvalue[0], fvalue[0])  # many2one [id, name]
            elif _is_id_list(cvalue):
                self.add_list(comodel, cvalue, fvalue)
            elif isinstance(cvalue, list) and isinstance(fvalue, list):
                for ccmd, fcmd in zip(cvalue, fvalue, strict=False):
                    self.learn_command(comodel, ccmd, fcmd)

    def learn_command(self, comodel: str, captured: Any, fake: Any) -> None:
        if not (isinstance(captured, list) and isinstance(fake, list) and captured and fake):
            return
        if captured[0] == 6 and len(captured) == 3 and len(fake) == 3:
            self.add_list(comodel, captured[2], fake[2])
        elif captured[0] == 0 and len(captured) == 3 and len(fake) == 3:
            if isinstance(captured[2], dict) and isinstance(fake[2], dict):
                self.learn_record(comodel, captured[2], fake[2])
        elif captured[0] in (1, 2, 3, 4) and len(fake) >= 2:
            self.add(comodel, captured[1], fake[1])

    # -- rewriting requests ------------------------------------------------------------------
    def one(self, model: str | None, value: Any) -> Any:
        if not _is_id(value):
            return value
        if model is not None:
            return self.ids.get((model, value), value)
        candidates = {fid for (_, cid), fid in self.ids.items() if cid == value}
        return candidates.pop() if len(candidates) == 1 else value

    def many(self, model: str | None, value: Any) -> Any:
        if _is_id(value):
            return self.one(model, value)
        if _is_id_list(value):
            return [self.one(model, v) for v in value]
        return value

    def call(
        self, model: str, method: str, args: list[Any], kwargs: dict[str, Any]
    ) -> tuple[list[Any], dict[str, Any]]:
        """The positional and keyword arguments of ``model.method`` with ids rewritten."""
        args = list(args)
        if args and method not in MODEL_METHODS and (_is_id(args[0]) or _is_id_list(args[0])):
            args[0] = self.many(model, args[0])
            if method == "write" and len(args) > 1:
                args[1] = self.vals(model, args[1])
        elif method in ("search", "search_read", "search_count", *GROUP_METHODS) and args:
            args[0] = self.domain(model, args[0])
        elif method == "create" and args:
            args[0] = self.vals(model, args[0])
        elif method == "name_search" and len(args) > 1:
            args[1] = self.domain(model, args[1])
        return args, self.kwargs(model, kwargs)

    def kwargs(self, model: str, kwargs: dict[str, Any]) -> dict[str, Any]:
        out = dict(kwargs)
        if "ids" in out:
            out["ids"] = self.many(model, out["ids"])
        for key in ("domain", "args"):
            if key in out:
                out[key] = self.domain(model, out[key])
        for key in ("vals", "vals_list", "default"):
            if key in out:
                out[key] = self.vals(model, out[key])
        if isinstance(out.get("context"), dict):
            out["context"] = self.context(model, out["context"])
        return out

    def domain(self, model: str, domain: Any) -> Any:
        if not isinstance(domain, list):
            return domain
        out: list[Any] = []
        for leaf in domain:
            if isinstance(leaf, list) and len(leaf) == 3 and isinstance(leaf[0], str):
                target = self.path_model(model, leaf[0])
                out.append([leaf[0], leaf[1], self.many(target, leaf[2])])
            else:
                out.append(leaf)
        return out

    def path_model(self, model: str, path: str) -> str | None:
        """The model whose ids a domain leaf on ``path`` compares with (None: not ids)."""
        current: str | None = model
        for name in path.split("."):
            if current is None:
                return None
            if name == "id":
                return current
            current = self.relations(current).get(name)
        return current

    def vals(self, model: str, vals: Any) -> Any:
        if isinstance(vals, list):
            return [self.vals(model, v) for v in vals]
        if not isinstance(vals, dict):
            return vals
        relations = self.relations(model)
        out: dict[str, Any] = {}
        for name, value in vals.items():
            comodel = relations.get(name)
            if comodel is None:
                out[name] = value
            elif _is_id(value) or _is_id_list(value):
                out[name] = self.many(comodel, value)
            elif isinstance(value, list):
                out[name] = [self.command(comodel, cmd) for cmd in value]
            else:
                out[name] = value
        return out

    def command(self, comodel: str, cmd: Any) -> Any:
        if not (isinstance(cmd, list) and cmd and isinstance(cmd[0], int)):
            return cmd
        cmd = list(cmd)
        if cmd[0] in (1, 2, 3, 4) and len(cmd) >= 2:
            cmd[1] = self.one(comodel, cmd[1])
        if cmd[0] in (0, 1) and len(cmd) == 3:
            cmd[2] = self.vals(comodel, cmd[2])
        if cmd[0] == 6 and len(cmd) == 3:
            cmd[2] = self.many(comodel, cmd[2])
        return cmd

    def context(self, model: str, context: dict[str, Any]) -> dict[str, Any]:
        out = dict(context)
        active = out.get("active_model")
        active_model = active if isinstance(active, str) else None
        for key in ("active_id", "active_ids"):
            if key in out:
                out[key] = self.many(active_model, out[key])
        for key, target in CONTEXT_MODELS.items():
            if key in out:
                out[key] = self.many(target, out[key])
        for key, value in context.items():
            if key.startswith("default_"):
                out[key] = self.vals(model, {key[8:]: value})[key[8:]]
        return out
