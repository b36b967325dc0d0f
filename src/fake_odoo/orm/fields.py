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
from typing import Any, ClassVar

Default = Any  # a constant, or a callable taking the Environment

SelectionList = Sequence[tuple[str, str]]


class Field:
    """One field declaration.  ``name`` and ``model_name`` are set at class creation."""

    type: ClassVar[str] = ""
    #: Attributes this type adds to ``fields_get`` when set (beyond the common ones).
    relational: ClassVar[bool] = False

    def __init__(
        self,
        string: str | None = None,
        *,
        help: str | None = None,
        required: bool = False,
        readonly: bool = False,
        store: bool = True,
        default: Default = None,
        compute: str | Callable[[Any], Any] | None = None,
        depends: Sequence[str] = (),
        copy: bool = True,
        groups: str | None = None,
        min_version: int | None = None,
        max_version: int | None = None,
        aggregator: str | None = None,
        translate: bool = False,
        search: str | None = None,
    ) -> None:
        self.name = ""  # set by the model metaclass
        self.model_name = ""
        self.string = string
        self.help = help
        self.required = required
        # Computed fields without an inverse are readonly in Odoo.
        self.readonly = readonly or compute is not None
        self.store = store
        self.default = default
        self.compute = compute
        self.depends = list(depends)
        self.copy = copy
        self.groups = groups
        self.min_version = min_version
        self.max_version = max_version
        self.aggregator = aggregator
        self.translate = translate
        #: name of a model method ``(operator, value) -> domain`` making a computed field
        #: searchable, as Odoo's ``search=`` attribute
        self.search = search

    def exists_in(self, major: int) -> bool:
        """Whether the field is served by an Odoo of this major version."""
        if self.min_version is not None and major < self.min_version:
            return False
        return not (self.max_version is not None and major > self.max_version)

    @property
    def searchable(self) -> bool:
        return self.store or self.search is not None

    @property
    def sortable(self) -> bool:
        return self.store and self.type not in ("one2many", "many2many", "binary")

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
    """``ondelete``: ``set null`` (default), ``restrict`` (ForeignKeyViolation on unlink
    of the target) or ``cascade`` (unlinking the target unlinks this record)."""

    type = "many2one"

    def __init__(
        self, comodel_name: str, string: str | None = None, *, ondelete: str = "set null", **kw: Any
    ) -> None:
        super().__init__(comodel_name, string, **kw)
        self.ondelete = ondelete


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
        return self.store
