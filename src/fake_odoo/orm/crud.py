"""create / write / unlink, imitating ``BaseModel.create``, ``write`` and ``unlink``.

Order of events per record as in Odoo: access check, unknown field (19's KeyError, 17's
ValueError), defaults, conversion, the row is written, x2many commands run, stored
computed fields are recomputed, then the database-level checks (required -> the
version's NOT NULL ValidationError, foreign keys and UNIQUE constraints -> psycopg2
errors) and the Python ones (parent loops, ``@api.constrains``).  Everything runs in a
transaction: a failure undoes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fake_odoo.orm import access
from fake_odoo.orm import convert as C
from fake_odoo.orm import fields as F
from fake_odoo.orm.api import constrained_fields, is_ondelete
from fake_odoo.orm.exceptions import (
    ForeignKeyViolation,
    InvalidTextRepresentation,
    MissingError,
    UniqueViolation,
    ValidationError,
)

if TYPE_CHECKING:
    from fake_odoo.orm.model import BaseModel

MAGIC = ("id", "display_name", "create_uid", "create_date", "write_uid", "write_date")
X2MANY = ("one2many", "many2many")


def _split(
    model: BaseModel, vals: dict[str, Any], *, creating: bool = False
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Check field names and convert: (raw column values, x2many values)."""
    fields = model._fields
    columns: dict[str, Any] = {}
    relations: dict[str, Any] = {}
    for name, value in vals.items():
        field = fields.get(name)
        if field is None:
            raise unknown_field(model, name)
        if name == "id" or (field.compute is not None and not field.store):
            continue  # Odoo ignores values of computed fields without inverse
        if field.type in X2MANY:
            relations[name] = value
        elif creating and field.type == "many2one" and isinstance(value, str) and value:
            # create sends the value to PostgreSQL as it is (err_json2_create_m2o_string);
            # write goes through the cache, where a name becomes False (to_cache)
            raise InvalidTextRepresentation(f'invalid input syntax for type integer: "{value}"')
        else:
            columns[name] = C.to_cache(model, field, value)
    return columns, relations


def _defaults(model: BaseModel, vals: dict[str, Any]) -> dict[str, Any]:
    context = model.env.context
    result = {}
    for name, field in model._fields.items():
        if name in vals or name in MAGIC:
            continue
        key = f"default_{name}"
        if key in context:
            result[name] = context[key]
        elif field.default is not None:
            result[name] = C.default_value(model, field)
    return result


def create(model: BaseModel, vals_list: Any) -> BaseModel:
    if isinstance(vals_list, dict):
        vals_list = [vals_list]
    access.check_acl(model, "create")
    env, db = model.env, model.env.db
    now, ids = db.now_str(), []
    for vals in vals_list:
        vals = dict(vals)
        for name in vals:
            if name not in model._fields:
                raise unknown_field(model, name)
        vals.update(_defaults(model, vals))
        columns, relations = _split(model, vals, creating=True)
        row = {
            name: C.empty_raw(field)
            for name, field in model._fields.items()
            if field.store and field.type != "one2many" and name not in MAGIC
        }
        row.update(columns)
        row.update(create_uid=env.uid, create_date=now, write_uid=env.uid, write_date=now)
        rid = db.insert(model._name, row)
        record = model.browse(rid)
        _apply_relations(record, relations)
        record._recompute()
        _check_database(record, set(vals) | set(row))
        ids.append(rid)
    records: BaseModel = model.browse(ids)
    access.check_rules(records, "create")
    _check_python(records, None)
    return records


def check_existing(records: BaseModel, *, first_only: bool = False) -> None:
    """MissingError naming the records that do not exist (``first_only``: the first one)."""
    rows = records.env.db.rows(records._name)
    missing = [i for i in records._ids if i not in rows]
    if missing and first_only:
        missing = missing[:1]
    if missing:
        raise MissingError(
            "Record does not exist or has been deleted.\n"
            f"(Record: {records.browse(missing)!r}, User: {records.env.uid})"
        )


def write(records: BaseModel, vals: dict[str, Any]) -> bool:
    if not records:
        return True
    access.check_acl(records, "write")
    check_existing(records)
    access.check_rules(records, "read")
    access.check_rules(records, "write")
    columns, relations = _split(records, dict(vals))
    db = records.env.db
    columns.update(write_uid=records.env.uid, write_date=db.now_str())
    for rid in records._ids:
        db.update(records._name, rid, columns)
    for record in records:
        _apply_relations(record, relations)
    records._recompute()
    for record in records:
        _check_database(record, set(vals))
    _check_python(records, set(vals))
    return True


def _apply_relations(record: BaseModel, relations: dict[str, Any]) -> None:
    for name, value in relations.items():
        field = record._fields[name]
        if field.type == "many2many":
            _apply_m2m(record, field, value)
        else:
            _apply_o2m(record, field, value)


def _apply_m2m(record: BaseModel, field: F.Field, value: Any) -> None:
    comodel = record.env[field.comodel_name]  # type: ignore[attr-defined]
    current: list[int] = list(record._raw(field.name))
    for cmd in C.x2many_commands(value):
        code, rid, arg = cmd[0], cmd[1], cmd[2]
        if code == 0:
            current.append(comodel.create(arg).id)
        elif code == 1:
            comodel.browse(rid).write(arg)
        elif code == 2:
            current = [i for i in current if i != rid]
            comodel.browse(rid).unlink()
        elif code == 3:
            current = [i for i in current if i != rid]
        elif code == 4:
            if rid not in current:
                current.append(rid)
        elif code == 5:
            current = []
        elif code == 6:
            current = list(dict.fromkeys(arg or []))
    record.env.db.update(record._name, record.id, {field.name: current})


def _apply_o2m(record: BaseModel, field: F.Field, value: Any) -> None:
    assert isinstance(field, F.One2many)
    comodel = record.env[field.comodel_name]
    inverse = field.inverse_name
    inverse_field = comodel._fields[inverse]
    drop_deletes = inverse_field.required or getattr(inverse_field, "ondelete", "") == "cascade"

    def detach(ids: list[int]) -> None:
        lines = comodel.browse(ids)
        if drop_deletes:
            lines.unlink()
        else:
            lines.write({inverse: False})

    for cmd in C.x2many_commands(value):
        code, rid, arg = cmd[0], cmd[1], cmd[2]
        if code == 0:
            comodel.create({**(arg or {}), inverse: record.id})
        elif code == 1:
            comodel.browse(rid).write(arg)
        elif code == 2:
            comodel.browse(rid).unlink()
        elif code == 3:
            detach([rid])
        elif code == 4:
            comodel.browse(rid).write({inverse: record.id})
        elif code in (5, 6):
            current = list(record.with_context(active_test=False)._raw(field.name))
            keep = set(arg or []) if code == 6 else set()
            gone = [i for i in current if i not in keep]
            if gone:
                detach(gone)
            new = [i for i in (arg or []) if i not in current] if code == 6 else []
            if new:
                comodel.browse(new).write({inverse: record.id})


def _check_database(record: BaseModel, touched: set[str]) -> None:
    """NOT NULL, foreign keys and UNIQUE constraints of one written record."""
    row = record._row()
    for name, field in record._fields.items():
        if not field.store or field.type in X2MANY or name not in row:
            continue
        value = row[name]
        if field.required and field.type != "boolean" and (value is None or value is False):
            raise ValidationError(_missing_required(record, field.label, name))
        if field.type == "many2one" and value and name in touched:
            comodel = field.comodel_name  # type: ignore[attr-defined]
            if comodel in record.env.db.store and record.env.db.row(comodel, value) is None:
                table = record._table
                raise ForeignKeyViolation(
                    f'insert or update on table "{table}" violates foreign key constraint '
                    f'"{table}_{name}_fkey"\nDETAIL:  Key ({name})=({value}) is not present in '
                    f'table "{comodel.replace(".", "_")}".\n'
                )
    for cname, definition, _message in record._sql_constraints:
        match = re.match(r"\s*unique\s*\(([^)]*)\)", definition, re.IGNORECASE)
        if not match:
            continue
        columns = [c.strip() for c in match.group(1).split(",")]
        key = tuple(row.get(c, False) for c in columns)
        if any(v is None or v is False for v in key):
            continue  # NULLs are distinct in a PostgreSQL UNIQUE index
        for rid, other in _same_key_rows(record, columns, key):
            if rid != record.id and tuple(other.get(c, False) for c in columns) == key:
                shown = ", ".join(str(v) for v in key)
                raise UniqueViolation(
                    f'duplicate key value violates unique constraint "{record._table}_{cname}"\n'
                    f"DETAIL:  Key ({', '.join(columns)})=({shown}) already exists.\n"
                )


def _missing_required(record: BaseModel, label: str, name: str) -> str:
    """The text ``odoo.service.model`` gives a NOT NULL violation, per version."""
    model = f"{record.model_label()} ({record._name})"
    if record.env.major <= 17:  # err_xmlrpc_create_sale_order_no_partner of the 17 batch
        return (
            "The operation cannot be completed:\n"
            "- Create/update: a mandatory field is not set.\n"
            "- Delete: another model requires the record being deleted. If possible, archive "
            f"it instead.\n\nModel: {model}\nField: {label} ({name})\n"
        )
    return (
        "The operation cannot be completed: Missing required value for the field "
        f"'{label}' ({name}).\nModel: '{record.model_label()}' ({record._name})\n"
        "- create/update: a mandatory field is not set\n"
        "- delete: another model requires the record being deleted, you can archive "
        "it instead\n"
    )


def unknown_field(model: BaseModel, name: str) -> Exception:
    """What create/write raise for a field the model does not have: Odoo 17's ValueError
    (err_xmlrpc_write_unknown_field of the 17 batch), 19's KeyError of ``_fields[name]``."""
    if model.env.major <= 17:
        return ValueError(f"Invalid field {name!r} on model {model._name!r}")
    return KeyError(name)


#: field types whose raw values are hashable, so the store's value index can serve them
INDEXABLE = ("char", "selection", "many2one", "integer")


def _same_key_rows(
    record: BaseModel, columns: list[str], key: tuple[Any, ...]
) -> Iterable[tuple[int, dict[str, Any]]]:
    """The rows that may hold ``key``: those sharing its first column, read from the value
    index when that column can be indexed (a scan per check is quadratic on big tables)."""
    db = record.env.db
    rows = db.rows(record._name)
    field = record._fields.get(columns[0])
    if field is None or not field.store or field.type not in INDEXABLE or not key[0]:
        return rows.items()
    ids = db.value_index(record._name, columns[0]).get(key[0], ())
    return [(rid, rows[rid]) for rid in sorted(ids)]


def _constraint_methods(cls: type) -> list[tuple[str, frozenset[str]]]:
    """The ``@api.constrains`` methods of a model class and their fields (cached: ``dir``
    of a model class on every create/write was a hot spot)."""
    cached = _CONSTRAINTS.get(cls)
    if cached is None:
        cached = []
        for name in dir(cls):
            fnames = constrained_fields(getattr(cls, name, None))
            if fnames:
                cached.append((name, frozenset(fnames)))
        _CONSTRAINTS[cls] = cached
    return cached


_CONSTRAINTS: dict[type, list[tuple[str, frozenset[str]]]] = {}


def _ondelete_methods(cls: type) -> list[str]:
    """The ``@api.ondelete`` methods of a model class (cached, as the constraints are)."""
    cached = _ONDELETE.get(cls)
    if cached is None:
        cached = [name for name in dir(cls) if is_ondelete(getattr(cls, name, None))]
        _ONDELETE[cls] = cached
    return cached


_ONDELETE: dict[type, list[str]] = {}


def _check_python(records: BaseModel, touched: set[str] | None) -> None:
    parent = records._parent_name
    field = records._fields.get(parent)
    if field is not None and field.type == "many2one" and (touched is None or parent in touched):
        rows = records.env.db.rows(records._name)
        for rid in records._ids:
            seen, current = {rid}, rows[rid].get(parent)
            while current:
                if current in seen:
                    raise ValidationError(
                        records._recursion_error
                        or f"You cannot create recursive {records.model_label()} hierarchies."
                    )
                seen.add(current)
                current = rows.get(current, {}).get(parent)
    for name, fnames in _constraint_methods(type(records)):
        if touched is None or touched & fnames:
            for record in records:
                getattr(record, name)()


def unlink(records: BaseModel) -> bool:
    if not records:
        return True
    access.check_acl(records, "unlink")
    # 17's unlink stops at the first missing record (flow_copy_partner step 9)
    check_existing(records, first_only=records.env.major <= 17)
    access.check_rules(records, "unlink")
    # Odoo runs its @api.ondelete business rules only once the rights are known to allow it.
    for name in _ondelete_methods(type(records)):
        getattr(records, name)()
    env, db = records.env, records.env.db
    doomed = set(records._ids)
    for model_name, cls in env.registry.items():
        for fname, field in cls.fields_for(env.major, db.uninstalled).items():
            if not field.store or getattr(field, "comodel_name", None) != records._name:
                continue
            rows = db.rows(model_name)
            if field.type == "many2many":
                for rid, row in list(rows.items()):
                    if doomed & set(row.get(fname) or []):
                        kept = [i for i in row[fname] if i not in doomed]
                        db.update(model_name, rid, {fname: kept})
                continue
            if field.type != "many2one":
                continue
            refs = [rid for rid, row in rows.items() if row.get(fname) in doomed]
            if model_name == records._name:
                refs = [r for r in refs if r not in doomed]
            if not refs:
                continue
            assert isinstance(field, F.Many2one)
            ondelete = field.ondelete_policy(cls._transient)
            if ondelete == "cascade":
                env[model_name].sudo().browse(refs).unlink()
            elif ondelete == "restrict":
                table, target = model_name.replace(".", "_"), records._table
                key = rows[refs[0]][fname]
                raise ForeignKeyViolation(
                    f'update or delete on table "{target}" violates foreign key constraint '
                    f'"{table}_{fname}_fkey" on table "{table}"\n'
                    f'DETAIL:  Key (id)=({key}) is still referenced from table "{table}".\n'
                )
            else:
                for rid in refs:
                    db.update(model_name, rid, {fname: False})
    for rid in records._ids:
        db.delete(records._name, rid)
    return True
