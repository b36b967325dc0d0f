"""The public ORM methods every model has, with Odoo 19's names and signatures.

They are gathered on ``BaseMethods`` (a base of ``BaseModel``) and renamed
``BaseModel.<name>`` so that Python's own ``TypeError`` for an unexpected
keyword reads exactly as Odoo's (``BaseModel._read_format() got an unexpected
keyword argument 'bogus_kwarg'``).  The work is done in sibling modules.
"""

from __future__ import annotations

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

#: methods that exist only in some versions: name -> (first major, last major)
METHOD_VERSIONS: dict[str, tuple[int | None, int | None]] = {
    "name_get": (None, 16),
    "has_access": (18, None),
    "formatted_read_group": (19, None),
}


def _check_fields(model: BaseModel, fnames: Any) -> list[str]:
    if not fnames:
        return list(model._fields)
    for name in fnames:
        if name not in model._fields:
            raise ValueError(f"Invalid field {name!r} on {model._name!r}")
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
        default = dict(default or {})
        rec_name = self._rec_name_field()
        vals_list = []
        for record in self:
            vals: dict[str, Any] = {}
            for name, field in record._fields.items():
                if name in crud.MAGIC or not field.copy or name in default:
                    continue
                if field.compute is not None and not field.store:
                    continue
                raw = record._raw(name)
                if field.type == "many2many":
                    vals[name] = [(6, 0, list(raw))]
                elif field.type == "one2many":
                    inverse = field.inverse_name
                    lines = self.env[field.comodel_name].browse(raw)
                    vals[name] = [
                        (0, 0, {k: v for k, v in data.items() if k != inverse})
                        for data in lines.copy_data()
                    ]
                else:
                    vals[name] = raw
            copied_name = vals.get(rec_name) if rec_name and rec_name not in default else None
            if isinstance(copied_name, str) and record._fields[str(rec_name)].type == "char":
                vals[str(rec_name)] = f"{copied_name} (copy)"
            vals_list.append({**vals, **default})
        return vals_list

    def copy(self: Any, default: dict[str, Any] | None = None) -> Any:
        if self.env.major < 18:
            self.ensure_one()
        crud.check_existing(self)
        access.check_acl(self, "read")
        access.check_rules(self, "read")
        return self.create(self.copy_data(default)) if self else self.browse()

    @api_model
    def name_create(self: Any, name: str) -> Any:
        rec_name = self._rec_name_field()
        if not rec_name:
            raise ValueError(f"Cannot execute name_create, no _rec_name defined on {self._name}")
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
    def check_access_rights(self: Any, operation: str, raise_exception: bool = True) -> Any:
        allowed = access.check_acl(self, operation, raise_exception)
        if raise_exception:
            return None if self.env.major >= 18 else True
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


def name_search_v16(
    self: Any,
    name: str = "",
    args: Any = None,
    operator: str = "ilike",
    limit: int | None = 100,
) -> list[list[Any]]:
    """Odoo <= 16's signature of name_search (``args`` instead of ``domain``)."""
    result: list[list[Any]] = self.name_search(name, args, operator, limit)
    return result


name_search_v16.__qualname__ = "BaseModel.name_search"
name_search_v16._api_model = True  # type: ignore[attr-defined]

for _name, _member in list(vars(BaseMethods).items()):
    if callable(_member) and not _name.startswith("__"):
        _member.__qualname__ = f"BaseModel.{_name}"
