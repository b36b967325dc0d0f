"""Model classes and recordsets, imitating ``odoo.models.BaseModel``.

A model class declares fields (``fields.*`` class attributes, collected by the
metaclass) and business methods.  An *instance* is a recordset: an
Environment plus a tuple of ids, as in Odoo.  Field values are read from the
Database store on attribute access; the generic ORM methods (create, read,
search, ...) live in sibling modules and are bound here under their Odoo
names and signatures, so Python's own ``TypeError`` for a bad keyword reads
``BaseModel.read() got an unexpected keyword argument 'x'`` as in Odoo.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from fake_odoo.orm import fields as F
from fake_odoo.orm.exceptions import MissingError
from fake_odoo.orm.metamodel import REGISTRY as REGISTRY
from fake_odoo.orm.metamodel import MetaModel as MetaModel
from fake_odoo.orm.metamodel import Rule as Rule
from fake_odoo.orm.metamodel import build_registry as build_registry
from fake_odoo.orm.methods import BaseMethods
from fake_odoo.orm.modules import field_hidden

if TYPE_CHECKING:
    from fake_odoo.orm.database import Environment


class BaseModel(BaseMethods, metaclass=MetaModel):
    """A recordset of one model.  Subclass ``Model`` (or ``TransientModel``) to declare one."""

    _name: ClassVar[str] = ""
    _description: ClassVar[str | None] = None
    _order: ClassVar[str] = "id"
    _rec_name: ClassVar[str | None] = None
    #: fields searched by name_search / ('display_name', 'ilike', x); default [_rec_name]
    _rec_names_search: ClassVar[list[str] | None] = None
    _parent_name: ClassVar[str] = "parent_id"
    _transient: ClassVar[bool] = False
    _min_version: ClassVar[int | None] = None
    _max_version: ClassVar[int | None] = None
    _sql_constraints: ClassVar[list[tuple[str, str, str]]] = []
    #: group xml id -> letters of "rwcu"; "" as key = every user; None = no ACL (all allowed)
    _access: ClassVar[dict[str, str] | None] = None
    _rules: ClassVar[list[Rule]] = []
    _register: ClassVar[bool] = True
    #: the ValidationError text of a parent loop; default "You cannot create recursive
    #: <_description> hierarchies."
    _recursion_error: ClassVar[str | None] = None
    _fold_name: ClassVar[str] = "fold"
    _declared_fields: ClassVar[dict[str, F.Field]] = {}
    #: fields by ``Database.fields_key``: the major version, with the uninstalled modules
    _fields_cache: ClassVar[dict[int | tuple[int, frozenset[str]], dict[str, F.Field]]] = {}

    env: Environment
    _ids: tuple[int, ...]

    def __init__(self, env: Environment, ids: Iterable[int] = ()) -> None:
        # Straight into the instance dict: ``__setattr__`` writes fields (and this is hot).
        attrs = self.__dict__
        attrs["env"] = env
        attrs["_ids"] = tuple(ids)

    # -- model metadata ----------------------------------------------------------------------
    @property
    def _fields(self) -> dict[str, F.Field]:
        # Read on every field access: the cached dict first, without the classmethod call.
        db = self.env.db
        fields = type(self)._fields_cache.get(db.fields_key)
        return fields if fields is not None else type(self).fields_for(db.major, db.uninstalled)

    @classmethod
    def fields_for(
        cls, major: int, uninstalled: frozenset[str] = frozenset()
    ) -> dict[str, F.Field]:
        """The fields this model has at ``major`` with the ``uninstalled`` modules left out."""
        cache = cls._fields_cache
        key = (major, uninstalled) if uninstalled else major
        if key not in cache:
            cache[key] = {
                name: field
                for name, field in cls._declared_fields.items()
                if field.exists_in(major)
                and not (
                    uninstalled
                    and field_hidden(
                        cls._name, name, getattr(field, "comodel_name", None), uninstalled
                    )
                )
            }
        return cache[key]

    @classmethod
    def model_label(cls) -> str:
        return cls._description or cls._name

    @property
    def _table(self) -> str:
        return self._name.replace(".", "_")

    def _rec_name_field(self) -> str | None:
        if self._rec_name:
            return self._rec_name
        return "name" if "name" in self._fields else None

    # -- recordset protocol --------------------------------------------------------------------
    @property
    def ids(self) -> list[int]:
        return list(self._ids)

    @property
    def id(self) -> Any:
        return self._ids[0] if len(self._ids) == 1 else False

    def browse(self, ids: Any = ()) -> Any:
        if ids is None or ids is False:
            ids = ()
        elif isinstance(ids, int):
            ids = (ids,)
        elif isinstance(ids, BaseModel):
            ids = ids._ids
        return type(self)(self.env, tuple(ids))

    def _with_env(self, env: Environment) -> Any:
        return type(self)(env, self._ids)

    def sudo(self, flag: bool = True) -> Any:
        return self._with_env(self.env(su=flag))

    def with_user(self, user: Any) -> Any:
        uid = user.id if isinstance(user, BaseModel) else int(user)
        return self._with_env(self.env(user=uid, su=False))

    def with_context(self, *args: dict[str, Any], **kwargs: Any) -> Any:
        context = dict(args[0]) if args else dict(self.env.context)
        context.update(kwargs)
        return self._with_env(self.env(context=context))

    def ensure_one(self) -> Any:
        if len(self._ids) != 1:
            raise ValueError(f"Expected singleton: {self!r}")
        return self

    def exists(self) -> Any:
        rows = self.env.db.rows(self._name)
        return self.browse([i for i in self._ids if i in rows])

    def filtered(self, func: Callable[[Any], Any] | str) -> Any:
        if isinstance(func, str):
            name = func
            return self.browse([r.id for r in self if any(r.mapped(name))])
        return self.browse([r.id for r in self if func(r)])

    def mapped(self, func: Callable[[Any], Any] | str) -> Any:
        if callable(func):
            return [func(rec) for rec in self]
        current: Any = self
        for part in func.split("."):
            field = current._fields[part]
            if field.relational:
                ids: list[int] = []
                for rec in current:
                    for rid in rec[part]._ids:
                        if rid not in ids:
                            ids.append(rid)
                current = self.env[field.comodel_name].browse(ids)._with_env(self.env)
            else:
                return [rec[part] for rec in current]
        return current

    def sorted(self, key: Callable[[Any], Any] | str | None = None, reverse: bool = False) -> Any:
        from fake_odoo.orm.search import order_ids

        if key is None:
            ids = order_ids(self, list(self._ids), None)
            return self.browse(ids[::-1] if reverse else ids)
        if isinstance(key, str):
            fname = key
            return self.browse(
                [r.id for r in sorted(self, key=lambda r: r[fname], reverse=reverse)]
            )
        return self.browse([r.id for r in sorted(self, key=key, reverse=reverse)])

    def __iter__(self) -> Iterator[Any]:
        for rid in self._ids:
            yield type(self)(self.env, (rid,))

    def __len__(self) -> int:
        return len(self._ids)

    def __bool__(self) -> bool:
        return bool(self._ids)

    def __contains__(self, item: Any) -> bool:
        return isinstance(item, BaseModel) and set(item._ids) <= set(self._ids)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseModel):
            return NotImplemented
        return self._name == other._name and set(self._ids) == set(other._ids)

    def __hash__(self) -> int:
        return hash((self._name, frozenset(self._ids)))

    def __or__(self, other: Any) -> Any:
        return self.browse(list(dict.fromkeys([*self._ids, *other._ids])))

    def __and__(self, other: Any) -> Any:
        keep = set(other._ids)
        return self.browse([i for i in self._ids if i in keep])

    def __sub__(self, other: Any) -> Any:
        drop = set(other._ids)
        return self.browse([i for i in self._ids if i not in drop])

    def __add__(self, other: Any) -> Any:
        return self.browse([*self._ids, *other._ids])

    def __repr__(self) -> str:
        inner = ", ".join(str(i) for i in self._ids)
        return f"{self._name}({inner},)" if len(self._ids) == 1 else f"{self._name}({inner})"

    # -- field access --------------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        if not name.startswith("__") and "env" in self.__dict__:
            field = self._fields.get(name)
            if field is not None:
                return self._get_value(name, field)
        raise AttributeError(f"'{self._name}' object has no attribute '{name}'")

    def __getitem__(self, key: str | int) -> Any:
        if isinstance(key, int):
            return self.browse([self._ids[key]])
        if key not in self._fields:
            raise KeyError(f"Invalid field {key!r} on model {self._name!r}")
        return self._get_value(key)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._fields:
            self.write({name: value})
        else:
            object.__setattr__(self, name, value)

    def _get_value(self, fname: str, field: F.Field | None = None) -> Any:
        if field is None:
            field = self._fields[fname]
        ids = self._ids
        if not ids:
            raw: Any = [] if field.type in ("one2many", "many2many") else False
            if field.type in ("integer", "float", "monetary"):
                raw = 0
        elif len(ids) == 1 and field.store and field.type != "one2many" and fname != "id":
            # A stored column (the common case, a hot path): what ``_raw`` reads, inlined.
            row = self.env.db.store[self._name].get(ids[0])
            if row is None:
                row = self._row()  # raises MissingError
            raw = row.get(fname, [] if field.type == "many2many" else False)
        else:
            self.ensure_one()
            raw = self._raw(fname)
        if field.relational:
            # What ``env[comodel].browse(raw)`` gives, built in one step (a hot path).
            comodel = self.env.db.registry[getattr(field, "comodel_name", "")]
            return comodel(self.env, raw if isinstance(raw, list) else ((raw,) if raw else ()))
        return raw

    def _row(self) -> dict[str, Any]:
        row = self.env.db.row(self._name, self._ids[0])
        if row is None:
            raise MissingError(
                "Record does not exist or has been deleted.\n"
                f"(Record: {self!r}, User: {self.env.uid})"
            )
        return row

    def _raw(self, fname: str) -> Any:
        """The raw value of one field of this single record (see ``fields``)."""
        field = self._fields[fname]
        if fname == "id":
            return self._ids[0]
        if field.type == "one2many":
            self._row()
            assert isinstance(field, F.One2many)
            index = self.env.db.o2m_index(field.comodel_name, field.inverse_name)
            ids = list(index.get(self._ids[0], ()))
            comodel = self.env.db.registry[field.comodel_name](self.env, ())
            if "active" in comodel._fields and self.env.context.get("active_test", True):
                rows = self.env.db.rows(field.comodel_name)
                ids = [i for i in ids if rows[i].get("active")]
            from fake_odoo.orm.search import order_ids

            return order_ids(comodel, ids, None)
        if field.compute is not None and not field.store:
            return self._compute_raw(field)
        row = self._row()
        if fname in row:
            return row[fname]
        return [] if field.type == "many2many" else False

    def _compute_raw(self, field: F.Field) -> Any:
        method = field.compute
        value = getattr(self, method)() if isinstance(method, str) else method(self)  # type: ignore[misc]
        return to_raw(field, value)

    def _recompute(self) -> None:
        """Recompute the stored computed fields of these records (after their inputs changed)."""
        from fake_odoo.orm.recompute import recompute

        recompute(self)

    def _compute_display_name(self) -> Any:
        """The display name of this single record (override to customise)."""
        rec_name = self._rec_name_field()
        if rec_name:
            value = self._raw(rec_name)
            field = self._fields[rec_name]
            if field.type == "many2one":
                comodel = self.env[getattr(field, "comodel_name", "")]
                return comodel.sudo().browse(value).display_name
            return value if value else False
        return f"{self._name},{self._ids[0]}"


def to_raw(field: F.Field, value: Any) -> Any:
    """Turn a Python value (recordset, None, ...) into the raw stored form of ``field``."""
    if isinstance(value, BaseModel):
        return value.ids if field.type in ("one2many", "many2many") else (value.id or False)
    if value is None:
        return [] if field.type in ("one2many", "many2many") else False
    return value


class Model(BaseModel):
    """A regular (stored) model."""


class TransientModel(Model):
    """A wizard model (``_transient = True``)."""

    _transient = True


class AbstractModel(BaseModel):
    """A model holding no records (mixins)."""
