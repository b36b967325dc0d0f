"""The public ORM methods every model has, and in which Odoo versions they exist.

They are gathered on ``BaseMethods`` (a base of ``BaseModel``) and renamed
``BaseModel.<name>`` (``Base.<name>`` for the web module's ``web_*``) so that
Python's own ``TypeError`` for an unexpected keyword reads exactly as Odoo's
(``BaseModel._read_format() got an unexpected keyword argument 'bogus_kwarg'``).
``METHOD_VERSIONS`` holds every version fact about them: which majors have a
method, and the signature shim of a version whose parameter names differ.  The
work is done in sibling modules.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fake_odoo.orm import access, crud
from fake_odoo.orm import convert as C
from fake_odoo.orm import domain as D
from fake_odoo.orm import search as S
from fake_odoo.orm.api import model as api_model
from fake_odoo.orm.api import private
from fake_odoo.orm.exceptions import AccessError

if TYPE_CHECKING:
    from fake_odoo.orm.database import Environment
    from fake_odoo.orm.model import BaseModel

#: the last major whose ``copy`` takes one record and answers its id (later: any, ids)
COPY_SINGLETON_UNTIL = 17  # capture flow_copy_partner (17: int, "Expected singleton")
#: the last major whose ``check_access_rights(op)`` answers True when allowed (later: None)
CHECK_ACCESS_RIGHTS_TRUE_UNTIL = 17  # capture meta_check_access_rights step 27


def _check_fields(model: BaseModel, fnames: Any) -> list[str]:
    if not fnames:
        return list(model._fields)
    for name in fnames:
        if name not in model._fields:
            # 17: "... on model 'res.partner'" (err_xmlrpc_invalid_fields_list)
            where = "model " if model.env.major <= 17 else ""
            raise ValueError(f"Invalid field {name!r} on {where}{model._name!r}")
    return list(fnames)


class BaseMethods:
    """Mixin of ``BaseModel``: ``self`` is always a recordset."""

    if TYPE_CHECKING:
        env: Environment

    @api_model
    def create(self: Any, vals_list: Any) -> Any:
        return crud.create(self, vals_list)

    def write(self: Any, vals: dict[str, Any]) -> bool:
        return crud.write(self, vals)

    def unlink(self: Any) -> bool:
        return crud.unlink(self)

    def read(self: Any, fields: list[str] | None = None, load: str = "_classic_read") -> Any:
        fnames = _check_fields(self, fields)
        access.check_acl(self, "read")
        existing = self.exists()
        access.check_rules(existing, "read")
        return existing._read_format(fnames, load)

    def _read_format(self: Any, fnames: Any, load: str = "_classic_read") -> list[dict[str, Any]]:
        fnames = _check_fields(self, fnames)
        result = []
        for record in self:
            values: dict[str, Any] = {"id": record.id}
            for name in fnames:
                if name != "id":
                    field = self._fields[name]
                    values[name] = C.to_read(record, field, record._raw(name), load)
            result.append(values)
        return result

    @api_model
    def search(
        self: Any,
        domain: Any = None,
        offset: int = 0,
        limit: int | None = None,
        order: str | None = None,
    ) -> Any:
        return self.browse(S.search_ids(self, domain, offset, limit, order))

    @api_model
    def search_read(
        self: Any,
        domain: Any = None,
        fields: list[str] | None = None,
        offset: int = 0,
        limit: int | None = None,
        order: str | None = None,
        **read_kwargs: Any,
    ) -> list[dict[str, Any]]:
        if self.env.major <= 17:  # 17 searches first: the domain's error wins (batch 4,
            # flow_sale_order_invoice_payment step 28); 19 checks the field names first
            records = self.search(domain, offset=offset, limit=limit, order=order)
            fnames = _check_fields(self, fields)
        else:
            fnames = _check_fields(self, fields)
            records = self.search(domain, offset=offset, limit=limit, order=order)
        result: list[dict[str, Any]] = records._read_format(fnames=fnames, **read_kwargs)
        return result

    @api_model
    def search_count(self: Any, domain: Any = None, limit: int | None = None) -> int:
        return len(S.search_ids(self, domain, 0, limit, None, ordered=False))

    @api_model
    def fields_get(self: Any, allfields: Any = None, attributes: Any = None) -> Any:
        from fake_odoo.orm.fields_get import fields_get

        return fields_get(self, allfields, attributes)

    @api_model
    def default_get(self: Any, fields_list: list[str]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        context = self.env.context
        for name in fields_list:
            field = self._fields.get(name)
            if field is None or name in crud.MAGIC:
                continue
            if f"default_{name}" in context:
                value = context[f"default_{name}"]
            elif field.default is not None:
                value = C.default_value(self, field)
            else:
                continue
            if field.type in ("one2many", "many2many"):
                if isinstance(value, list) and all(isinstance(v, int) for v in value):
                    value = [[6, 0, value]]
            elif field.type != "many2one" or not isinstance(value, int):
                value = C.to_cache(self, field, value)
            result[name] = value
        return result

    def copy_data(self: Any, default: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The values ``copy`` would create, one dict per record (Odoo's base ``copy_data``,
        odoo/odoo ``odoo/models.py`` 17.0 and ``odoo/orm/models.py`` @ 5f49ea73): the
        ``default`` keys first, then every copiable field not in ``default`` (not the magic
        columns nor ``parent_path``); a many2many as ``[(6, 0, ids)]``, a one2many as one
        ``(0, 0, values)`` per line, in id order, the line's own ``copy_data`` (its inverse
        many2one still naming the original parent). 17 takes one record (``ensure_one``);
        over RPC it answers the one dict (``@api.returns(None, lambda value: value[0])``,
        see ``service.to_jsonable``). The `` (copy)`` suffix on the name is the fake's
        stand-in for the models that add one (res.partner does, from 17.2 in copy_data);
        base adds none, so one2many lines get none."""
        if self.env.major <= COPY_SINGLETON_UNTIL:
            self.ensure_one()
        vals_list = _copy_data_values(self, default)
        rec_name = self._rec_name_field()
        if not rec_name or rec_name in (default or {}):
            return vals_list
        for vals in vals_list:
            copied = vals.get(rec_name)
            if isinstance(copied, str) and self._fields[rec_name].type == "char":
                vals[rec_name] = f"{copied} (copy)"
        return vals_list

    def copy(self: Any, default: dict[str, Any] | None = None) -> Any:
        if self.env.major <= COPY_SINGLETON_UNTIL:
            self.ensure_one()
        crud.check_existing(self)
        access.check_acl(self, "read")
        access.check_rules(self, "read")
        return self.create(self.copy_data(default)) if self else self.browse()

    @api_model
    def name_create(self: Any, name: str) -> Any:
        """``create({_rec_name: name})`` answering ``(id, display_name)`` (a list on the
        wire); a model without ``_rec_name`` logs a warning and answers False, it raises
        nothing (odoo/odoo ``odoo/models.py`` 17.0, ``odoo/orm/models.py`` @ 5f49ea73)."""
        rec_name = self._rec_name_field()
        if not rec_name:
            logging.getLogger("odoo.models").warning(
                "Cannot execute name_create, no _rec_name defined on %s", self._name
            )
            return False
        record = self.create({rec_name: name})
        return [record.id, record.display_name]

    @api_model
    def name_search(
        self: Any,
        name: str = "",
        domain: Any = None,
        operator: str = "ilike",
        limit: int | None = 100,
    ) -> list[list[Any]]:
        domain = list(domain or [])
        if name or operator not in ("ilike", "like", "=ilike", "=like"):
            domain = D.and_lists(domain, [("display_name", operator, name)])
        records = self.search(domain, limit=limit)
        return [[rec.id, rec.display_name] for rec in records]

    def name_get(self: Any) -> list[list[Any]]:
        if self.env.major >= 17:  # in the log only, nothing on the wire (ok_*_partner_name_get)
            logging.getLogger("py.warnings").warning(
                "DeprecationWarning: Since 17.0, deprecated method, read display_name instead"
            )
        return [[rec.id, rec.display_name] for rec in self.exists()]

    @api_model
    def read_group(
        self: Any,
        domain: Any,
        fields: list[str],
        groupby: Any,
        offset: int = 0,
        limit: int | None = None,
        orderby: str | bool = False,
        lazy: bool = True,
    ) -> list[dict[str, Any]]:
        from fake_odoo.orm.read_group import read_group

        return read_group(self, domain, fields, groupby, offset, limit, orderby, lazy)

    @api_model
    def formatted_read_group(
        self: Any,
        domain: Any,
        groupby: Any = (),
        aggregates: Any = (),
        having: Any = (),
        offset: int = 0,
        limit: int | None = None,
        order: str | None = None,
    ) -> list[dict[str, Any]]:
        from fake_odoo.orm.read_group import formatted_read_group

        return formatted_read_group(self, domain, groupby, aggregates, having, offset, limit, order)

    @api_model
    def web_search_read(
        self: Any,
        domain: Any,
        specification: dict[str, Any],
        offset: int = 0,
        limit: int | None = None,
        order: str | None = None,
        count_limit: int | None = None,
    ) -> dict[str, Any]:
        records = self.search(domain, offset=offset, limit=limit, order=order)
        values = records.web_read(specification)
        if not values:
            return {"length": 0, "records": []}
        length = len(values) + offset
        # a full page may hide more records: count them, up to count_limit
        if limit and len(values) == limit and not (count_limit and count_limit <= length):
            length = self.search_count(domain, limit=count_limit)
        return {"length": length, "records": values}

    def web_read(self: Any, specification: dict[str, Any]) -> list[dict[str, Any]]:
        fnames = list(specification) or ["id"]
        if fnames == ["id"]:
            return [{"id": id_} for id_ in self.ids]
        values_list: list[dict[str, Any]] = self.read(fnames, load=None)
        for fname, spec in specification.items():
            field = self._fields.get(fname)
            if field is not None and "fields" in (spec or {}):
                _web_read_relational(self, values_list, fname, field.type, spec)
        return values_list

    @api_model
    def check_access_rights(self: Any, operation: str, raise_exception: bool = True) -> Any:
        allowed = access.check_acl(self, operation, raise_exception)
        if raise_exception:
            return True if self.env.major <= CHECK_ACCESS_RIGHTS_TRUE_UNTIL else None
        return allowed

    def has_access(self: Any, operation: str) -> bool:
        if not access.check_acl(self, operation, raise_exception=False):
            return False
        try:
            access.check_rules(self.exists(), operation)
        except AccessError:
            return False
        return True

    @private
    def check_access(self: Any, operation: str) -> None:
        access.check_acl(self, operation)
        access.check_rules(self.exists(), operation)


def _web_read_relational(
    records: Any, values_list: list[dict[str, Any]], fname: str, ftype: str, spec: Any
) -> None:
    """Nest the comodel's ``web_read`` in place of many2one / x2many ids (``limit``: only the
    first ids of each x2many are read, the others stay ``{"id": n}``, ok_callkw_web_read)."""
    co_records = records.mapped(fname)
    subspec = dict(spec["fields"])
    if ftype == "many2one":
        want_name = subspec.pop("display_name", None) is not None
        data = {vals["id"]: vals for vals in co_records.web_read(subspec)}
        if want_name:
            for rec in co_records.sudo():
                data[rec.id]["display_name"] = rec.display_name
        for values in values_list:
            if values[fname]:
                values[fname] = data[values[fname]]
    elif ftype in ("one2many", "many2many"):
        limit = spec.get("limit")
        if limit is not None:
            wanted = dict.fromkeys(i for values in values_list for i in values[fname][:limit])
            co_records = co_records.browse(list(wanted))
        data = {vals["id"]: vals for vals in co_records.web_read(subspec)}
        for values in values_list:
            values[fname] = [data.get(i) or {"id": i} for i in values[fname]]


def _copy_data_values(records: Any, default: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Base ``copy_data`` of ``records``: no name suffix (see ``BaseMethods.copy_data``)."""
    default = dict(default or {})
    vals_list: list[dict[str, Any]] = []
    for record in records:
        vals = dict(default)
        for name, field in record._fields.items():
            if name in crud.MAGIC or name == "parent_path" or not field.copy or name in default:
                continue
            if field.compute is not None and not field.store:
                continue
            raw = record._raw(name)
            if field.type == "many2many":
                vals[name] = [(6, 0, list(raw))]
            elif field.type == "one2many":
                lines = records.env[field.comodel_name].browse(sorted(raw))
                vals[name] = [(0, 0, data) for data in _copy_data_values(lines, None) if data]
            else:
                vals[name] = raw
        vals_list.append(vals)
    return vals_list


def name_search_args(
    self: Any,
    name: str = "",
    args: Any = None,
    operator: str = "ilike",
    limit: int | None = 100,
) -> list[list[Any]]:
    """Odoo <= 18.0's signature of name_search (``args``; saas~18.3 renamed it ``domain``)."""
    result: list[list[Any]] = self.name_search(name, args, operator, limit)
    return result


def default_get_fields(self: Any, fields: list[str]) -> dict[str, Any]:
    """Odoo 19's signature of default_get (``fields``; ``fields_list`` before)."""
    result: dict[str, Any] = self.default_get(fields)
    return result


def read_group_20(
    self: Any,
    domain: Any,
    groupby: Any = (),
    aggregates: Any = (),
    having: Any = (),
    offset: int = 0,
    limit: int | None = None,
    order: str | None = None,
) -> list[list[Any]]:
    """Odoo 20's read_group (odoo/odoo odoo/orm/models.py @ 00649da4): the formatted
    signature, one tuple per group (groupby values, many2one as its id, then aggregates),
    groups in the groupby fields' order unless ``order``. From source, not a capture."""
    from fake_odoo.orm.read_group import read_group_tuples

    return read_group_tuples(self, domain, groupby, aggregates, having, offset, limit, order)


name_search_args.__qualname__ = "BaseModel.name_search"
read_group_20.__qualname__ = "BaseModel.read_group"
read_group_20._api_model = True  # type: ignore[attr-defined]
default_get_fields.__qualname__ = "BaseModel.default_get"
name_search_args._api_model = True  # type: ignore[attr-defined]
default_get_fields._api_model = True  # type: ignore[attr-defined]

for _name, _member in list(vars(BaseMethods).items()):
    if callable(_member) and not _name.startswith("__"):
        # the web module adds web_* on its ``Base`` (err_callkw_web_search_read_fields_kwarg)
        owner = "Base" if _name.startswith("web_") else "BaseModel"
        _member.__qualname__ = f"{owner}.{_name}"


@dataclass(frozen=True)
class Versions:
    """The majors in which a public method exists, and its signature where it changed.

    ``shims``: (first major, last major, function with that version's parameter names,
    forwarding to the implementation); ``None`` bounds are open.
    """

    first: int | None = None
    last: int | None = None
    shims: tuple[tuple[int | None, int | None, Callable[..., Any]], ...] = ()

    def exists_in(self, major: int) -> bool:
        return _within(major, self.first, self.last)

    def shim_for(self, major: int) -> Callable[..., Any] | None:
        return next((f for lo, hi, f in self.shims if _within(major, lo, hi)), None)


def _within(major: int, first: int | None, last: int | None) -> bool:
    return (first is None or major >= first) and (last is None or major <= last)


#: the version facts of the public methods: absent here = in every version, as implemented
METHOD_VERSIONS: dict[str, Versions] = {
    # deprecated in 17 (ok_xmlrpc_partner_name_get), removed in 18
    "name_get": Versions(last=17),
    # Odoo 18's access API: unknown on 17 (meta_check_access_rights steps 28-31)
    "has_access": Versions(first=18),
    "check_access": Versions(first=18),
    # unknown on 17 (flow_read_group steps 10-11)
    "formatted_read_group": Versions(first=19),
    # 17 takes args= and refuses domain= (flow_name_search steps 3 and 6); 18.0 still does:
    # the rename came with saas~18.3 (odoo/odoo#198154), a 19 feature for an 18.0 server
    "name_search": Versions(shims=((None, 18, name_search_args),)),
    # Odoo 20 (from its source, odoo/odoo odoo/orm/models.py @ 00649da4): read_group takes
    # (domain, groupby, aggregates, having, offset, limit, order) and answers tuples;
    # check_access_rights is gone (has_access stays)
    "read_group": Versions(shims=((20, None, read_group_20),)),
    "check_access_rights": Versions(last=19),
    # fields_list up to 18, fields on 19 (ok_json2_default_get_fields)
    "default_get": Versions(shims=((19, None, default_get_fields),)),
}
