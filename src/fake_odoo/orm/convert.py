"""Value conversions, imitating ``Field.convert_to_cache`` / ``convert_to_read``.

Writing: values sent by a client become raw stored values, with Odoo's errors
(``int('abc')``'s ValueError, "Wrong value for res.partner.type: 'bogus'") and
quirks (a string written to a many2one silently becomes False).
Reading: raw values become the wire form of ``read`` (many2one
``[id, display_name]``, x2many lists of ids, empty values ``False``).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from fake_odoo.orm import fields as F

if TYPE_CHECKING:
    from fake_odoo.orm.model import BaseModel


def selection_values(model: BaseModel, field: F.Field) -> list[tuple[str, str]]:
    selection = getattr(field, "selection", [])
    if callable(selection):
        selection = selection(model)
    return [(str(k), str(v)) for k, v in selection]


def empty_raw(field: F.Field) -> Any:
    """The stored value of a field never set."""
    if field.type in ("integer",):
        return 0
    if field.type in ("float", "monetary"):
        return 0.0
    if field.type in ("many2many", "one2many"):
        return []
    return False


def _to_datetime_str(value: Any) -> Any:
    if not value:
        return False
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, date):
        return value.strftime("%Y-%m-%d 00:00:00")
    text = str(value).replace("T", " ")
    if len(text) == 10:
        text += " 00:00:00"
    parsed = datetime.strptime(text[:19], "%Y-%m-%d %H:%M:%S")
    return parsed.strftime("%Y-%m-%d %H:%M:%S")


def _to_date_str(value: Any) -> Any:
    if not value:
        return False
    if isinstance(value, (date, datetime)):
        return value.strftime("%Y-%m-%d")
    return datetime.strptime(str(value)[:10], "%Y-%m-%d").strftime("%Y-%m-%d")


def to_cache(model: BaseModel, field: F.Field, value: Any) -> Any:
    """A client value for a non-x2many field -> its raw stored value."""
    ftype = field.type
    if hasattr(value, "_ids") and ftype != "reference":
        value = value.id if ftype == "many2one" else value.ids
    if ftype in ("char", "text", "html"):
        return False if value is None or value is False else str(value)
    if ftype == "selection":
        if value is None or value is False:
            return False
        if value not in {k for k, _ in selection_values(model, field)}:
            raise ValueError(f"Wrong value for {model._name}.{field.name}: {value!r}")
        return value
    if ftype == "integer":
        return int(value or 0)
    if ftype in ("float", "monetary"):
        return float(value or 0.0)
    if ftype == "boolean":
        return bool(value)
    if ftype == "date":
        return _to_date_str(value)
    if ftype == "datetime":
        return _to_datetime_str(value)
    if ftype == "many2one":
        if isinstance(value, (list, tuple)) and value:
            value = value[0]
        # Odoo 19 quirk: a non-integer (e.g. a name) written to a many2one becomes False
        return value if isinstance(value, int) and not isinstance(value, bool) and value else False
    if ftype == "reference":
        if hasattr(value, "_ids"):
            return f"{value._name},{value.id}" if value else False
        return str(value) if value else False
    return value if value not in (None,) else False


def to_read(model: BaseModel, field: F.Field, raw: Any, load: str | None) -> Any:
    """A raw value -> the wire value of ``read``."""
    ftype = field.type
    if ftype == "many2one":
        if not raw:
            return False
        if load != "_classic_read":
            return raw
        comodel = model.env[field.comodel_name].sudo().browse(raw)  # type: ignore[attr-defined]
        if not comodel.exists():
            return False
        return [raw, comodel.display_name]
    if ftype in ("one2many", "many2many"):
        return list(raw or [])
    if ftype in ("integer",):
        return raw or 0
    if ftype in ("float", "monetary"):
        return float(raw or 0.0)
    if ftype == "boolean":
        return bool(raw)
    if raw is None:
        return False
    return raw


def default_value(model: BaseModel, field: F.Field) -> Any:
    """The declared default of a field (constant or callable taking the Environment)."""
    default = field.default
    if callable(default):
        default = default(model.env)
    if hasattr(default, "_ids"):
        default = default.ids if field.type in ("one2many", "many2many") else default.id
    return default


def x2many_commands(value: Any) -> list[tuple[Any, ...]]:
    """Normalise an x2many value (commands or a plain list of ids) to command tuples."""
    if value is None or value is False:
        return [(5, 0, 0)]
    if hasattr(value, "_ids"):
        return [(6, 0, list(value._ids))]
    commands: list[tuple[Any, ...]] = []
    plain: list[int] = []
    for item in value:
        if isinstance(item, (list, tuple)):
            cmd = tuple(item) + (0,) * (3 - len(item))
            commands.append(cmd)
        elif isinstance(item, int):
            plain.append(item)
        else:
            raise ValueError(f"Wrong value for x2many command: {item!r}")
    if plain and not commands:
        return [(6, 0, plain)]
    return commands + ([(4, i, 0) for i in plain])
