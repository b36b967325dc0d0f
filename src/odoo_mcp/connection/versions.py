"""SPEC-02 / L2-02b: the ORM methods whose name, arguments or answer depend on the Odoo version.

One table (decision 16: version differences live in the connection layer, not in the tools).
Per method: the versions where it exists, where it is deprecated or refused over RPC
(``api.private``), its positional parameter names per version range, and the shape of its
answer per version range. ``OdooCalls`` (``base.py``) and the JSON-2 binding
(``json2_params.py``) read it; nothing else in the connection layer compares version numbers
for a method.

Versions are ``(major, minor)`` keys so that Odoo Online series count: ``saas~18.3`` is
``(18, 3)``, after 18.0 and before 19.0. A range runs from its key to the next one's.

Sources. 17.0 and 19.0: real captures, ``tests/fixtures/odoo17/*.json`` (17.0-20240709) and
the Odoo 19.0 batch (``odoo19/``); ``meta_method_signatures.json`` of both holds the
parameter names (``tests/odoo_mcp/connection/test_connection_versions.py`` checks this table
against both). Where a change fell between the two (18.0 and the saas series), the Odoo pull
request that made it, whose label gives its first version:

- odoo/odoo#154132 (17.2) copy in batch: ``[id]`` instead of an int;
- odoo/odoo#179148 (18.0) ``has_access`` / ``check_access``; ``check_access_rights``
  deprecated, returning None when it would have returned True;
- odoo/odoo#163300 (18.2) ``formatted_read_group``; ``read_group`` deprecated;
- odoo/odoo#195402 (18.2) ``api.private`` (``check_access``, ``search_fetch``, ``exists``
  refused over RPC; odoo/odoo#197783 backported part of it to stable series);
- odoo/odoo#198154 (18.3) ``name_search(args=)`` renamed ``domain=``;
- odoo/odoo#218334 (19.0) ``default_get(fields_list)`` renamed ``fields``, and ``write``'s
  parameter named ``vals`` in every model (17's sale.order says ``values``).

20.0: read from Odoo's own source (no capture exists); each row cites repo, path and commit
(``ODOO20``). What no source shows is "unknown": the server tries it instead of refusing it.

Facts before 17.0 are not captured: they are Odoo's source as the server assumed it before
this table (``name_get`` and ``name_search(args=)`` since 14.0).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeVar

from odoo_mcp.connection.version import OdooVersion

__all__ = [
    "ACCESS_MODEL_FACTS",
    "JSON2_SINCE",
    "METHODS",
    "ODOO20",
    "ORM_SOURCE_FACTS",
    "PROTOCOL_FACTS",
    "MethodFacts",
    "Shape",
    "SourceFact",
    "VersionKey",
    "VersionLike",
    "access_model",
    "callable_remotely",
    "exists",
    "facts",
    "is_deprecated",
    "parameters",
    "positional_only",
    "protocol_served",
    "returns",
    "version_key",
]

VersionKey = tuple[int, int]
#: a detected version, a table key, a bare major (``N.0``) or None (not detected yet)
VersionLike = OdooVersion | VersionKey | int | None
_T = TypeVar("_T")

#: the oldest version the table speaks for (REQ-02-12: 14.0-19.0 are supported)
OLDEST: Final[VersionKey] = (14, 0)
#: what an undetected version is taken for: the newest Odoo the table knows
NEWEST: Final[VersionKey] = (19, 0)
#: JSON-2 (``/json/2/<model>/<method>``) exists from 19.0 (decision 6)
JSON2_SINCE: Final[VersionKey] = (19, 0)

#: what a method answers over RPC
Shape = Literal[
    "id",  # an int: the one new record
    "ids",  # a list of ids ([id] for one record)
    "id_or_ids",  # create: an int for one dict over XML-RPC/JSON-RPC, a list over JSON-2
    "pairs",  # [[id, display_name], ...]
    "pair",  # [id, display_name]
    "records",  # a list of dicts
    "groups",  # read_group rows: a list of dicts, in no order the server may rely on
    "tuples",  # Odoo 20's read_group: [(groupby values..., aggregate values...), ...]
    "dict",
    "count",
    "bool",
    "true_or_raise",  # check_access_rights(op) allowed: True; refused: AccessError
    "none_or_raise",  # the same, allowed gives None ("cannot marshal None" over XML-RPC)
    "none",
]


@dataclass(frozen=True, slots=True)
class MethodFacts:
    """REQ-02b-02: one ORM method across versions; each range runs until the next key."""

    #: ``@api.model``: no ids (JSON-2 refuses ``ids`` for it)
    model_method: bool
    #: (from version, positional parameter names after the ids), oldest first
    params: tuple[tuple[VersionKey, tuple[str, ...]], ...]
    #: (from version, answer shape), oldest first
    returns: tuple[tuple[VersionKey, Shape], ...]
    #: first version that has it
    since: VersionKey = OLDEST
    #: first version without it (None: still in the newest)
    until: VersionKey | None = None
    #: from this version Odoo logs a DeprecationWarning on each call
    deprecated_since: VersionKey | None = None
    #: from this version it is no longer deprecated (20's read_group: a new signature)
    deprecated_until: VersionKey | None = None
    #: from this version it is ``api.private``: refused over RPC (AccessError)
    private_since: VersionKey | None = None
    #: until this version models override it under other parameter names (17's
    #: ``default_get`` is ``fields_list`` on BaseModel, ``fields`` on res.partner, ...):
    #: pass its arguments by position there, never by name
    positional_until: VersionKey | None = None
    #: where the facts come from (capture files, pull requests)
    sources: tuple[str, ...] = ()


def _one(params: tuple[str, ...]) -> tuple[tuple[VersionKey, tuple[str, ...]], ...]:
    return ((OLDEST, params),)


def _always(shape: Shape) -> tuple[tuple[VersionKey, Shape], ...]:
    return ((OLDEST, shape),)


@dataclass(frozen=True, slots=True)
class SourceFact:
    """One fact read from Odoo's source: where (repository, file, commit) and what."""

    repo: str
    path: str
    commit: str
    fact: str

    def __str__(self) -> str:
        return f"{self.repo}:{self.path}@{self.commit[:12]} ({self.fact})"


_ODOO = "odoo/odoo"
#: Odoo 20.0, read from stock odoo/odoo (no capture of a 20 server exists). The trees were
#: told apart by their content (``ir.access``, the rpc module without ``jsonrpc``): the
#: ``odoo/release.py`` stored for odoo/odoo is not stored at these commits, so their
#: ``version_info`` could not be read (see docs/connection.md).
ODOO20: Final[Mapping[str, SourceFact]] = {
    "rpc_manifest": SourceFact(
        _ODOO,
        "addons/rpc/__manifest__.py",
        "079c37543ac0924dc984808be2763d1f0601b1ef",
        "the rpc module provides the /xmlrpc/2 and /json/2 endpoints",
    ),
    "rpc_controllers": SourceFact(
        _ODOO,
        "addons/rpc/controllers/__init__.py",
        "079c37543ac0924dc984808be2763d1f0601b1ef",
        "imports common, json2 and xmlrpc, no jsonrpc: no /jsonrpc route",
    ),
    "xmlrpc_routes": SourceFact(
        _ODOO,
        "addons/rpc/controllers/xmlrpc.py",
        "29134220cd0d7f3065a8f90704c39848ab0952a9",
        "routes /xmlrpc/<service> and /xmlrpc/2/<service> (int fault codes 1-4) via dispatch_rpc",
    ),
    "json2_route": SourceFact(
        _ODOO,
        "addons/rpc/controllers/json2.py",
        "09df5d19ed06da1b3236cdc763d113602ce85d1b",
        "POST /json/2/<model>/<method>, auth=bearer; unknown model 404, bad signature 422",
    ),
    "read_group": SourceFact(
        _ODOO,
        "odoo/orm/models.py",
        "00649da42372cf197edfbb2fa8ab437862e39be4",
        "read_group(domain, groupby, aggregates, having, offset, limit, order) -> list[tuple]"
        ", @api.model; groups ordered by the groupby terms when no order is given",
    ),
    "access_api": SourceFact(
        _ODOO,
        "odoo/orm/models.py",
        "00649da42372cf197edfbb2fa8ab437862e39be4",
        "access section: check_access (api.private), has_access, _filtered_access, "
        "_access_domain reading ir.access; no check_access_rights there",
    ),
    "ir_access": SourceFact(
        _ODOO,
        "odoo/addons/base/models/ir_access.py",
        "5d9a6616756d8232b18448507f2ea49f6a9424ad",
        "model ir.access: model_id, group_id, operation (subset of 'rwcd'), domain, active; "
        "a line with a group grants, one without restricts",
    ),
    "name_create": SourceFact(
        _ODOO,
        "odoo/orm/models.py",
        "00649da42372cf197edfbb2fa8ab437862e39be4",
        "name_create(name) returns (id, display_name)",
    ),
    "formatted_read_group": SourceFact(
        _ODOO,
        "addons/rpc/tests/test_json2.py",
        "079c37543ac0924dc984808be2763d1f0601b1ef",
        "formatted_read_group still answers over JSON-2",
    ),
    # the odoo/http/ package layout (no odoo/http.py); release.py not stored at these commits
    "error_body": SourceFact(
        _ODOO,
        "odoo/http/dispatcher.py",
        "e34538f5174b5b08fbae357ab6806690fc9321aa",
        "serialize_exception: name, message, arguments, context, debug; the JSON-RPC and "
        "JSON-2 handle_error send it as is: no timestamp",
    ),
    "error_serialization": SourceFact(
        _ODOO,
        "odoo/http/_error_serialization.py",
        "6f8ca19223ea7a995f722c76dcfa5870c5592015",
        "serialize_exception: name, message, arguments, context, debug; no timestamp",
    ),
    "account_group": SourceFact(
        _ODOO,
        "addons/account/models/account_group.py",
        "fb5d4238abd83a89e21acf42fe86bf80b4fe9198",
        "account.group is still defined (_name = 'account.group', models.Constraint era)",
    ),
}

#: Odoo 17.0 and 19.0 ORM facts read from stock odoo/odoo where no capture shows them
#: (issue 40: name_create, copy_data, read_group's group order); the fake imitates them
#: (``tests/fake_odoo/orm/test_orm_source_facts.py``). The 17.0 ``odoo/models.py`` is the
#: 17.0 tree the index holds (``name_get`` deprecated "Since 17.0", ``_read`` replaced by
#: ``_fetch_query``) but the index gave no commit for it: ``commit`` is empty there. The
#: 19 rows come from the ``odoo/orm/`` tree @ 5f49ea73 (``toggle_active`` "Deprecated since
#: 19.0"), which still names ``name_search``'s parameter ``args``: a 19.0 development tree.
ORM_SOURCE_FACTS: Final[Mapping[str, SourceFact]] = {
    "name_create_17": SourceFact(
        _ODOO,
        "odoo/models.py",
        "",
        "17.0: name_create(name) -> (record.id, record.display_name); without _rec_name it "
        "logs 'Cannot execute name_create, no _rec_name defined on %s' and returns False",
    ),
    "name_create_19": SourceFact(
        _ODOO,
        "odoo/orm/models.py",
        "5f49ea73509943577bf6cdca8164fed7eacf38aa",
        "19-era: name_create unchanged from 17 (pair, or False and a warning)",
    ),
    "partner_name_create": SourceFact(
        _ODOO,
        "odoo/addons/base/models/res_partner.py",
        "4461f0772241e40d0a5d1d7b1dd03e50e1e21614",
        "res.partner.name_create: drops an invalid default_type, splits 'Name <email>', "
        "force_email without an address raises ValidationError \"Couldn't create contact "
        'without email address!", creates {name: name or email[, email]}',
    ),
    "copy_data_17": SourceFact(
        _ODOO,
        "odoo/models.py",
        "",
        "17.0: copy_data is @api.returns(None, lambda value: value[0]) and ensure_one(); "
        "values = default, then copiable fields not in default (not MAGIC_COLUMNS, "
        "parent_path, _inherits links); many2many [Command.set(ids)], one2many "
        "[Command.create(line.copy_data()[0])] in id order; returns [values]",
    ),
    "call_kw_downgrade": SourceFact(
        _ODOO,
        "odoo/api.py",
        "8d4d8f7519559cbcaa6875b2baebe418e30097d7",
        "call_kw -> _call_kw_multi -> downgrade(): an @api.returns converter shapes the RPC "
        "answer (so 17's copy_data answers value[0], the dict); an older tree, the same "
        "mechanism as 17's",
    ),
    "copy_data_19": SourceFact(
        _ODOO,
        "odoo/orm/models.py",
        "5f49ea73509943577bf6cdca8164fed7eacf38aa",
        "19-era: copy_data undecorated, one dict per record (None for one already copied in "
        "the same call), values = default.copy() then the same fields and commands as 17",
    ),
    "partner_copy_data": SourceFact(
        _ODOO,
        "odoo/addons/base/models/res_partner.py",
        "4461f0772241e40d0a5d1d7b1dd03e50e1e21614",
        "res.partner.copy_data (copy in batch): name '%s (copy)' unless default names it",
    ),
    "field_copy_17": SourceFact(
        _ODOO,
        "odoo/fields.py",
        "f9ebbb9bebc01fde8f0119d69d6f53b5fc1aa73a",
        "17: Field._get_attrs: 'state' not copied by default, computed fields not copied "
        "unless stored and readonly=False, related and company-dependent never",
    ),
    "field_copy_19": SourceFact(
        _ODOO,
        "odoo/orm/fields.py",
        "f3872311b1fe2cea54474ff29bd2cb1c90961dfc",
        "18+/19: the same copy defaults in Field._get_attrs",
    ),
    "read_group_order_17": SourceFact(
        _ODOO,
        "odoo/models.py",
        "",
        "17.0: read_group without orderby orders by the (lazy) groupby specs; a many2one "
        "whose comodel _order is not 'id' by that _order, else by id; a boolean by "
        "COALESCE(field, FALSE) (False first); others by the SQL value, NULL (False) last "
        "ascending; orderby terms name groupbys or aggregates",
    ),
    "read_group_order_19": SourceFact(
        _ODOO,
        "odoo/orm/models.py",
        "5f49ea73509943577bf6cdca8164fed7eacf38aa",
        "19-era: read_group, _read_group_orderby and _read_group_groupby order groups as 17",
    ),
}

#: per protocol, from which version its endpoint is known absent ("absent"), known served
#: ("served") or "unknown" on 20; what is unknown is tried, never refused
PROTOCOL_FACTS: Final[Mapping[str, Mapping[VersionKey, tuple[str, tuple[SourceFact, ...]]]]] = {
    "xmlrpc": {(20, 0): ("served", (ODOO20["rpc_manifest"], ODOO20["xmlrpc_routes"]))},
    "json2": {(20, 0): ("served", (ODOO20["rpc_manifest"], ODOO20["json2_route"]))},
    # the /jsonrpc service endpoint; the web client's session routes are unknown on 20
    "jsonrpc_service": {(20, 0): ("absent", (ODOO20["rpc_controllers"],))},
    "jsonrpc_session": {(20, 0): ("unknown", ())},
}

#: the model holding the access rules: ir.model.access (+ ir.rule) up to 19, ir.access on 20
ACCESS_MODEL_FACTS: Final[tuple[tuple[VersionKey, str, str], ...]] = (
    (OLDEST, "ir.model.access", "meta_method_signatures.json (17 and 19); base's ACL csv"),
    ((20, 0), "ir.access", str(ODOO20["ir_access"])),
)


def protocol_served(endpoint: str, version: VersionLike) -> str:
    """ "served", "absent" or "unknown": what the source says of ``endpoint`` (``xmlrpc``,
    ``json2``, ``jsonrpc_service``, ``jsonrpc_session``) at ``version``; "served" before
    the first version the table has a row for (the captures of 17 and 19)."""
    key = version_key(version)
    state = "served"
    for since, (answer, _sources) in sorted(PROTOCOL_FACTS.get(endpoint, {}).items()):
        if since <= key:
            state = answer
    return state


def access_model(version: VersionLike) -> str:
    """The model of the access rules: ``ir.model.access`` up to 19, ``ir.access`` on 20."""
    key = version_key(version)
    chosen = ACCESS_MODEL_FACTS[0][1]
    for since, model, _source in ACCESS_MODEL_FACTS:
        if since <= key:
            chosen = model
    return chosen


_READ_GROUP = ("domain", "fields", "groupby", "offset", "limit", "orderby", "lazy")
_FORMATTED_READ_GROUP = ("domain", "groupby", "aggregates", "having", "offset", "limit", "order")
_SIGNATURES = "meta_method_signatures.json (17 and 19)"

#: REQ-02b-02: every ORM method the connection layer names, with its facts per version
METHODS: Final[Mapping[str, MethodFacts]] = {
    "search_read": MethodFacts(
        True,
        _one(("domain", "fields", "offset", "limit", "order")),
        _always("records"),
        sources=(_SIGNATURES,),
    ),
    "search": MethodFacts(
        True,
        _one(("domain", "offset", "limit", "order")),
        _always("ids"),
        sources=(_SIGNATURES,),
    ),
    "search_count": MethodFacts(
        True, _one(("domain", "limit")), _always("count"), sources=(_SIGNATURES,)
    ),
    "search_fetch": MethodFacts(
        True,
        _one(("domain", "field_names", "offset", "limit", "order")),
        _always("ids"),
        since=(17, 0),
        private_since=(18, 2),
        sources=(_SIGNATURES, "odoo/odoo#195402 (api.private, 18.2)"),
    ),
    "read": MethodFacts(
        False, _one(("fields", "load")), _always("records"), sources=(_SIGNATURES,)
    ),
    "write": MethodFacts(
        False,
        _one(("vals",)),
        _always("bool"),
        positional_until=(19, 0),
        sources=(
            _SIGNATURES + " (17: vals on BaseModel, values on sale.order, sale.order.line)",
            "odoo/odoo#218334 (aligned on vals in every model, 19.0)",
        ),
    ),
    "create": MethodFacts(
        True,
        _one(("vals_list",)),
        _always("id_or_ids"),
        sources=(_SIGNATURES, "ok_json2_partner_create_dict.json (19: [id])"),
    ),
    "unlink": MethodFacts(False, _one(()), _always("bool"), sources=(_SIGNATURES,)),
    "copy": MethodFacts(
        False,
        _one(("default",)),
        ((OLDEST, "id"), ((17, 2), "ids")),
        sources=(
            _SIGNATURES,
            "flow_copy_partner.json steps 2, 7 (17: an int, several records refused with "
            "'Expected singleton'; 19: [id])",
            "odoo/odoo#154132 (copy in batch, 17.2)",
        ),
    ),
    "exists": MethodFacts(
        False,
        _one(()),
        _always("ids"),
        private_since=(18, 2),
        sources=(_SIGNATURES, "odoo/odoo#195402 (api.private, 18.2)"),
    ),
    "fields_get": MethodFacts(
        True, _one(("allfields", "attributes")), _always("dict"), sources=(_SIGNATURES,)
    ),
    "name_search": MethodFacts(
        True,
        (
            (OLDEST, ("name", "args", "operator", "limit")),
            ((18, 3), ("name", "domain", "operator", "limit")),
        ),
        _always("pairs"),
        sources=(
            _SIGNATURES,
            "odoo17/ok_xmlrpc_name_search_args_kwarg.json, "
            "err_xmlrpc_name_search_domain_kwarg.json (17: domain= is a TypeError)",
            "flow_name_search.json steps 3, 6 (19: args= is a TypeError)",
            "odoo/odoo#198154 (args renamed domain, 18.3)",
        ),
    ),
    "name_create": MethodFacts(True, _one(("name",)), _always("pair"), sources=(_SIGNATURES,)),
    "name_get": MethodFacts(
        False,
        _one(()),
        _always("pairs"),
        until=(18, 0),
        deprecated_since=(17, 0),
        sources=(
            "odoo17/ok_xmlrpc_partner_name_get.json (17: [[id, name]], DeprecationWarning)",
            "absent from Odoo 19's meta_method_signatures.json",
        ),
    ),
    "read_group": MethodFacts(
        True,
        ((OLDEST, _READ_GROUP), ((20, 0), _FORMATTED_READ_GROUP)),
        ((OLDEST, "groups"), ((20, 0), "tuples")),
        deprecated_since=(18, 2),
        deprecated_until=(20, 0),
        sources=(
            _SIGNATURES,
            "flow_read_group.json",
            "odoo/odoo#163300 (deprecated, 18.2)",
            str(ODOO20["read_group"]),
        ),
    ),
    "formatted_read_group": MethodFacts(
        True,
        _one(_FORMATTED_READ_GROUP),
        _always("groups"),
        since=(18, 2),
        sources=(
            _SIGNATURES,
            "flow_read_group.json steps 10-11 (17: AttributeError)",
            "odoo/odoo#163300 (added, 18.2)",
        ),
    ),
    "web_search_read": MethodFacts(
        True,
        _one(("domain", "specification", "offset", "limit", "order", "count_limit")),
        _always("dict"),
        since=(17, 0),
        sources=(_SIGNATURES, "odoo17/ok_xmlrpc_web_search_read.json"),
    ),
    "web_read": MethodFacts(
        False,
        _one(("specification",)),
        _always("records"),
        since=(17, 0),
        sources=(_SIGNATURES, "odoo17/ok_callkw_web_read.json"),
    ),
    "default_get": MethodFacts(
        True,
        ((OLDEST, ("fields_list",)), ((19, 0), ("fields",))),
        _always("dict"),
        positional_until=(19, 0),
        sources=(
            _SIGNATURES + " (17: fields_list on BaseModel, fields on res.partner, sale.order...)",
            "err_json2_default_get_fields_list.json (19: fields_list= is a TypeError)",
            "odoo/odoo#218334 (renamed fields, aligned in every model, 19.0)",
        ),
    ),
    "check_access_rights": MethodFacts(
        True,
        _one(("operation", "raise_exception")),
        ((OLDEST, "true_or_raise"), ((18, 0), "none_or_raise")),
        until=(20, 0),
        deprecated_since=(18, 0),
        sources=(
            "meta_check_access_rights.json step 27 (17: true; 19: None, 'cannot marshal None')",
            "odoo/odoo#179148 (deprecated, 18.0)",
            str(ODOO20["access_api"]) + " (gone on 20)",
        ),
    ),
    "check_access_rule": MethodFacts(
        False,
        _one(("operation",)),
        _always("none"),
        deprecated_since=(18, 0),
        sources=(_SIGNATURES, "odoo/odoo#179148 (deprecated, 18.0)"),
    ),
    "has_access": MethodFacts(
        False,
        _one(("operation",)),
        _always("bool"),
        since=(18, 0),
        sources=(
            _SIGNATURES,
            "meta_check_access_rights.json steps 28, 31 (17: AttributeError; 19: a bool)",
            "odoo/odoo#179148 (added, 18.0)",
        ),
    ),
    "check_access": MethodFacts(
        False,
        _one(("operation",)),
        _always("none"),
        since=(18, 0),
        private_since=(18, 2),
        sources=(
            _SIGNATURES,
            "meta_check_access_rights.json steps 29-30 (17: AttributeError; 19: fault 4, private)",
            "odoo/odoo#179148 (added, 18.0)",
        ),
    ),
}


def version_key(version: VersionLike) -> VersionKey:
    """REQ-02a-11: the table's key of a version (a bare int is a major, ``N.0``); an
    undetected one (None) counts as the newest."""
    if version is None:
        return NEWEST
    if isinstance(version, int):
        return (version, 0)
    if isinstance(version, tuple):
        return version
    return (version.major, version.minor)


def facts(method: str) -> MethodFacts | None:
    """REQ-02b-02: the table's entry for ``method`` (None for a method it does not track)."""
    return METHODS.get(method)


def _at(ranges: tuple[tuple[VersionKey, _T], ...], key: VersionKey) -> _T:
    chosen = ranges[0][1]
    for since, value in ranges:
        if since <= key:
            chosen = value
    return chosen


def _entry(method: str) -> MethodFacts:
    entry = METHODS.get(method)
    if entry is None:
        raise KeyError(f"{method!r} is not in the version table")
    return entry


def exists(method: str, version: VersionLike) -> bool:
    """REQ-02b-02: whether Odoo ``version`` has ``method`` (True for a method not tracked)."""
    entry = METHODS.get(method)
    if entry is None:
        return True
    key = version_key(version)
    return entry.since <= key and (entry.until is None or key < entry.until)


def callable_remotely(method: str, version: VersionLike) -> bool:
    """REQ-02b-02: it exists and is not ``api.private`` there."""
    entry = METHODS.get(method)
    private = entry.private_since if entry is not None else None
    if private is not None and version_key(version) >= private:
        return False
    return exists(method, version)


def is_deprecated(method: str, version: VersionLike) -> bool:
    """REQ-02b-02: Odoo ``version`` logs a DeprecationWarning on each call of ``method``."""
    entry = METHODS.get(method)
    if entry is None or entry.deprecated_since is None:
        return False
    key = version_key(version)
    return key >= entry.deprecated_since and (
        entry.deprecated_until is None or key < entry.deprecated_until
    )


def parameters(method: str, version: VersionLike) -> tuple[str, ...]:
    """REQ-02b-02: ``method``'s positional parameter names (after the ids) at ``version``."""
    return _at(_entry(method).params, version_key(version))


def positional_only(method: str, version: VersionLike) -> bool:
    """REQ-02b-02: models name ``method``'s parameters differently at ``version``: pass them
    by position (17's ``default_get``)."""
    until = _entry(method).positional_until
    return until is not None and version_key(version) < until


def returns(method: str, version: VersionLike) -> Shape:
    """REQ-02b-02: the shape of ``method``'s answer at ``version``."""
    return _at(_entry(method).returns, version_key(version))
