"""Field declarations of the fake ORM, shaped like ``odoo.fields``.

Models declare fields as class attributes, as in Odoo::

    class SaleOrder(Model):
        _name = "sale.order"
        partner_id = fields.Many2one("res.partner", string="Customer", required=True)
        state = fields.Selection(STATES, string="Status", readonly=True, default="draft")
        amount_total = fields.Monetary(string="Total", compute="_compute_amounts", store=True)

Raw values kept in the store: char/text/html/selection ``str | False``;
integer ``int``; float/monetary ``float``; boolean ``bool``; date
``"YYYY-MM-DD" | False``; datetime ``"YYYY-MM-DD HH:MM:SS" | False`` (UTC);
many2one ``int | False``; many2many ``list[int]``; one2many is not stored (it
is the inverse of a many2one); binary base64 ``str | False``; reference
``"model,id" | False``.  ``False`` is Odoo's empty value on the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, overload

if TYPE_CHECKING:
    from typing import Self

Default = Any  # a constant, or a callable taking the Environment

SelectionList = Sequence[tuple[str, str]]


class Field:
    """One field declaration.  ``name`` and ``model_name`` are set at class creation."""

    type: ClassVar[str] = ""
    #: Attributes this type adds to ``fields_get`` when set (beyond the common ones).
    relational: ClassVar[bool] = False

    if TYPE_CHECKING:
        # For the type checker only: ``record.state`` is the field's value (read by
        # ``BaseModel.__getattr__``), not the Field.  At run time the model metaclass
        # removes field declarations from the class, so Field is no descriptor there.
        @overload
        def __get__(self, instance: None, owner: Any) -> Self: ...
        @overload
        def __get__(self, instance: object, owner: Any) -> Any: ...
        def __get__(self, instance: object, owner: Any) -> Any: ...

    def __init__(
        self,
        string: str | None = None,
        *,
        help: str | None = None,
        required: bool = False,
        readonly: bool | None = None,
        store: bool = True,
        default: Default = None,
        compute: str | Callable[[Any], Any] | None = None,
        depends: Sequence[str] = (),
        copy: bool | None = None,
        groups: str | None = None,
        min_version: int | None = None,
        max_version: int | None = None,
        aggregator: str | None = None,
        translate: bool = False,
        search: str | None = None,
        change_default: bool = False,
        related: str | None = None,
        sortable: bool | None = None,
    ) -> None:
        self.name = ""  # set by the model metaclass
        self.model_name = ""
        self.string = string
        self.help = help
        self.required = required
        # Computed fields without an inverse are readonly in Odoo (``readonly=False``
        # declares one with an inverse, or a "precompute" field the client may set).
        self.readonly = compute is not None if readonly is None else readonly
        self.store = store
        self.default = default
        self.compute = compute
        self.depends = list(depends)
        #: Odoo's default (``odoo/fields.py`` ``_get_attrs``): a computed field is not
        #: copied unless stored and declared ``readonly=False``; a related one never; a
        #: field named ``state`` is not copied either (set by the metaclass, which knows
        #: the name). ``copy_explicit``: whether the declaration said ``copy=``.
        self.copy_explicit = copy is not None
        if copy is None:
            copy = compute is None or (store and readonly is False)
        self.copy = copy
        #: Odoo's ``related="m2o.field"`` (also how ``_inherits`` exposes the parent's
        #: fields): not stored, read through the path as superuser, searchable and
        #: sortable through it; readonly unless declared ``readonly=False``, in which case
        #: the model writes the value through (see ``models.common.write_related``).
        self.related = related
        if related is not None:
            self.store = False
            self.compute = compute or _follow(related)
            self.readonly = True if readonly is None else readonly
            self.copy = False
        self.groups = groups
        self.min_version = min_version
        self.max_version = max_version
        self.aggregator = aggregator
        self.translate = translate
        #: name of a model method ``(operator, value) -> domain`` making a computed field
        #: searchable, as Odoo's ``search=`` attribute
        self.search = search
        #: Odoo's ``change_default``: the field conditions user-defined defaults
        self.change_default = change_default
        #: forces ``sortable`` (a computed field Odoo sorts by with a custom SQL order)
        self._sortable = sortable

    def exists_in(self, major: int) -> bool:
        """Whether the field is served by an Odoo of this major version."""
        if self.min_version is not None and major < self.min_version:
            return False
        return not (self.max_version is not None and major > self.max_version)

    @property
    def searchable(self) -> bool:
        return self.store or self.search is not None or self.related is not None

    @property
    def sortable(self) -> bool:
        if self._sortable is not None:
            return self._sortable
        if self.type in ("one2many", "many2many", "binary"):
            return False
        return self.store or self.related is not None

    @property
    def label(self) -> str:
        """The ``string`` attribute, defaulting as Odoo does from the field name."""
        if self.string:
            return self.string
        base = self.name[:-3] if self.name.endswith(("_id", "_ids")) else self.name
        base = base[:-1] if base.endswith("_") else base
        return base.replace("_", " ").title()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.model_name}.{self.name})"


def _follow(path: str) -> Callable[[Any], Any]:
    """The compute of a related field: the value at the end of ``path``, read as superuser."""
    names = path.split(".")

    def compute(record: Any) -> Any:
        value = record.sudo()
        for name in names:
            value = value[name]
        return value

    return compute


class Char(Field):
    type = "char"

    def __init__(self, string: str | None = None, *, size: int | None = None, **kw: Any) -> None:
        super().__init__(string, **kw)
        self.size = size


class Text(Field):
    type = "text"


class Html(Field):
    type = "html"


class Integer(Field):
    type = "integer"

    def __init__(self, string: str | None = None, **kw: Any) -> None:
        kw.setdefault("aggregator", "sum")  # Odoo 17+: numeric fields sum by default
        super().__init__(string, **kw)


class Float(Field):
    type = "float"

    def __init__(self, string: str | None = None, *, digits: Any = None, **kw: Any) -> None:
        kw.setdefault("aggregator", "sum")
        super().__init__(string, **kw)
        self.digits = digits


class Monetary(Field):
    type = "monetary"

    def __init__(
        self, string: str | None = None, *, currency_field: str = "currency_id", **kw: Any
    ) -> None:
        kw.setdefault("aggregator", "sum")
        super().__init__(string, **kw)
        self.currency_field = currency_field


class Boolean(Field):
    type = "boolean"


class Date(Field):
    type = "date"


class Datetime(Field):
    type = "datetime"


class Binary(Field):
    type = "binary"

    def __init__(self, string: str | None = None, *, attachment: bool = True, **kw: Any) -> None:
        kw.setdefault("copy", False)
        super().__init__(string, **kw)
        self.attachment = attachment


class Selection(Field):
    type = "selection"

    def __init__(
        self,
        selection: SelectionList | Callable[[Any], SelectionList],
        string: str | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(string, **kw)
        self.selection = selection


class Reference(Field):
    type = "reference"

    def __init__(
        self,
        selection: SelectionList | Callable[[Any], SelectionList],
        string: str | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(string, **kw)
        self.selection = selection


class _Relational(Field):
    relational = True

    def __init__(
        self,
        comodel_name: str,
        string: str | None = None,
        *,
        domain: Any = None,
        context: dict[str, Any] | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(string, **kw)
        self.comodel_name = comodel_name
        self.domain = domain if domain is not None else []
        self.context = context or {}


class Many2one(_Relational):
    """``ondelete``: ``set null``, ``restrict`` (ForeignKeyViolation on unlink of the target)
    or ``cascade`` (unlinking the target unlinks this record); see :meth:`ondelete_policy`."""

    type = "many2one"

    def __init__(
        self,
        comodel_name: str,
        string: str | None = None,
        *,
        ondelete: str | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(comodel_name, string, **kw)
        self.ondelete = ondelete

    def ondelete_policy(self, transient: bool) -> str:
        """The declared ``ondelete``, else Odoo's default: a required field restricts the
        deletion of its target, or cascades from a wizard (a transient model must never
        block a deletion); any other is set to null."""
        if self.ondelete:
            return self.ondelete
        if self.required:
            return "cascade" if transient else "restrict"
        return "set null"


class One2many(_Relational):
    """Never stored: the records of ``comodel_name`` whose ``inverse_name`` points here."""

    type = "one2many"

    def __init__(
        self, comodel_name: str, inverse_name: str, string: str | None = None, **kw: Any
    ) -> None:
        kw.setdefault("copy", False)
        super().__init__(comodel_name, string, **kw)
        self.inverse_name = inverse_name

    @property
    def searchable(self) -> bool:
        return True


class Many2many(_Relational):
    type = "many2many"

    @property
    def searchable(self) -> bool:
        return self.store or self.search is not None
