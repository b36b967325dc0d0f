"""Mutants of SPEC-06, resources and prompts (see registry.py).

REQ-06-14 (no notification without a change), REQ-06-22 (blocked model) and REQ-06-23 (read as
the server's user) have hand-made broken servers: notifies_without_change,
resource_shows_blocked_model, subscribes_as_server.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from _sabotage import as_odoo_pair, post_resource
from registry import mutant

Data = dict[str, Any]


def _post_prompt(target: str, post: Callable[[str], str]) -> None:
    """Post-process the text of one prompt."""
    import odoo_mcp.prompts as prompts

    original = prompts.render_prompt

    async def broken(rc: Any, name: str, args: Mapping[str, str]) -> str:
        text = await original(rc, name, args)
        return post(text) if name == target else text

    prompts.render_prompt = broken  # the adapter imports it from odoo_mcp.prompts at each get


def _rename(listing: str, uri: str, name: str) -> None:
    from odoo_mcp.resources import reader

    entries = tuple(
        e.model_copy(update={"name": name}) if e.uri == uri else e for e in getattr(reader, listing)
    )
    setattr(reader, listing, entries)


def _record_values(post: Callable[[Any], Any]) -> Callable[[Data], Data]:
    def apply(data: Data) -> Data:
        data["record"] = {key: post(value) for key, value in data["record"].items()}
        return data

    return apply


def _is_record(uri: str) -> bool:
    return uri.startswith("odoo://record/") and uri.count("/") == 4


# -- §2-3: URIs and static resources ---------------------------------------------------------


@mutant(
    kills=["REQ-06-01"],
    seed="SPEC-06 §2: 'All Odoo resources MUST use the `odoo://` URI scheme'",
)
def lists_a_file_uri() -> None:
    """resources/list also offers file:///etc/hostname."""
    from odoo_mcp.resources import reader

    extra = reader.ResourceInfo(uri="file:///etc/hostname", name="Host", description="host")
    setattr(reader, "RESOURCES", (*reader.RESOURCES, extra))  # noqa: B010 (a Final name)


@mutant(
    kills=["REQ-06-02"],
    seed='SPEC-06 §3.1: \'"uri": "odoo://system/info", "name": "Odoo Instance Info"\'',
)
def system_info_misnamed() -> None:
    """odoo://system/info is listed under the name "System"."""
    _rename("RESOURCES", "odoo://system/info", "System")


@mutant(
    kills=["REQ-06-02"],
    seed="SPEC-06 §3.1: 'odoo://system/info — Server and Odoo instance information' "
    '(response: "server_version", ..., "user": {"uid": 2, "name": "Admin"})',
)
def system_info_without_user() -> None:
    """odoo://system/info leaves out the user it is connected as."""

    def post(data: Data) -> Data:
        data.pop("user", None)
        return data

    post_resource(lambda uri: uri == "odoo://system/info", post)


@mutant(
    kills=["REQ-06-03"],
    seed="SPEC-06 §3.1: 'odoo://system/modules — Installed Odoo modules' (with their count)",
)
def modules_miscounted() -> None:
    """odoo://system/modules counts one module more than it lists."""

    def post(data: Data) -> Data:
        data["count"] += 1
        return data

    post_resource(lambda uri: uri == "odoo://system/modules", post)


@mutant(
    kills=["REQ-06-04"],
    seed="SPEC-06 §3.1: 'odoo://system/toolsets — Registered toolsets and their tools "
    "(mirrors the `odoo_core_list_toolsets` tool output)'",
)
def toolsets_not_mirrored() -> None:
    """odoo://system/toolsets counts one tool more than odoo_core_list_toolsets."""

    def post(data: Data) -> Data:
        data["total_tools"] += 1
        return data

    post_resource(lambda uri: uri == "odoo://system/toolsets", post)


@mutant(
    kills=["REQ-06-05"],
    seed="SPEC-06 §3.2: 'odoo://config/safety — Current safety configuration (operation "
    "mode, allowed/blocked models)'",
)
def safety_shows_another_mode() -> None:
    """odoo://config/safety says "full" whatever the mode in force."""

    def post(data: Data) -> Data:
        data["operation_mode"] = "full"
        return data

    post_resource(lambda uri: uri == "odoo://config/safety", post)


# -- §4.1: model metadata ---------------------------------------------------------------------


@mutant(
    kills=["REQ-06-06"],
    seed="SPEC-06 §4.1: 'odoo://model/{model_name}/fields — Field definitions for a "
    "specific model'",
)
def fields_with_wrong_types() -> None:
    """odoo://model/{model}/fields gives every field the type "text"."""

    def post(data: Data) -> Data:
        for definition in data["fields"].values():
            definition["type"] = "text"
        return data

    post_resource(lambda uri: uri.endswith("/fields"), post)


@mutant(
    kills=["REQ-06-06"],
    seed='SPEC-06 §4.1: \'"uriTemplate": "odoo://model/{model_name}/fields", '
    '"name": "Model Fields"\'',
)
def fields_template_misnamed() -> None:
    """The fields template is listed under the name "Fields"."""
    _rename("TEMPLATES", "odoo://model/{model_name}/fields", "Fields")


@mutant(
    kills=["REQ-06-07"],
    seed="SPEC-06 §4.1: 'odoo://model/{model_name}/methods' (each method with its name, "
    'description and "accepts_kwargs")',
)
def methods_without_kwargs_flag() -> None:
    """odoo://model/{model}/methods leaves out accepts_kwargs."""

    def post(data: Data) -> Data:
        for method in data["methods"]:
            method.pop("accepts_kwargs", None)
        return data

    post_resource(lambda uri: uri.endswith("/methods"), post)


@mutant(
    kills=["REQ-06-08"],
    seed="SPEC-06 §4.1: 'odoo://model/{model_name}/states — State machine / workflow' "
    '("transitions": [{"from": "draft", "to": "sale", "method": "action_confirm"}, ...])',
)
def states_without_transitions() -> None:
    """odoo://model/{model}/states gives the states but no transition."""

    def post(data: Data) -> Data:
        data["transitions"] = []
        return data

    post_resource(lambda uri: uri.endswith("/states"), post)


# -- §4.2-4.3: records --------------------------------------------------------------------------


@mutant(
    kills=["REQ-06-09"],
    seed='SPEC-06 §4.2: \'"uriTemplate": "odoo://record/{model_name}/{record_id}", '
    '"name": "Odoo Record"\'',
)
def record_template_misnamed() -> None:
    """The record template is listed under the name "Record"."""
    _rename("TEMPLATES", "odoo://record/{model_name}/{record_id}", "Record")


@mutant(
    kills=["REQ-06-10"],
    seed="SPEC-06 §4.2: 'The response MUST use the same normalization as tool responses "
    '(REQ-04-35)\' (many2one as {"id", "name"})',
)
def record_many2one_as_pair() -> None:
    """odoo://record/{model}/{id} gives many2one values as Odoo's [id, name] pairs."""

    post_resource(_is_record, _record_values(as_odoo_pair))


@mutant(
    kills=["REQ-06-10"],
    seed="SPEC-06 §4.2: 'The response MUST use the same normalization as tool responses "
    '(REQ-04-35)\' (an empty many2one is null, an empty string field "")',
)
def record_keeps_odoo_false() -> None:
    """odoo://record/{model}/{id} gives empty fields as Odoo's false."""
    post_resource(_is_record, _record_values(lambda v: False if v in (None, "") else v))


@mutant(
    kills=["REQ-06-10"],
    seed="SPEC-06 §4.2: 'Binary fields MUST be excluded.'",
)
def record_with_image() -> None:
    """odoo://record/{model}/{id} also reads and gives the record's image_1920."""
    from odoo_mcp.resources import reader

    original: Callable[[Any, Any], Awaitable[Data]] = reader._record

    async def broken(rc: Any, ref: Any) -> Data:
        data = await original(rc, ref)
        if ref.model == "res.partner":
            rows = await rc.odoo.read(ref.model, [ref.record_id], ["image_1920"])
            data["record"]["image_1920"] = rows[0]["image_1920"]
        return data

    reader._record = broken


@mutant(
    kills=["REQ-06-11"],
    seed="SPEC-06 §4.3: 'odoo://record/{model_name}?domain={domain}&limit={limit} — Search "
    "and list records. The `domain` parameter MUST be URL-encoded JSON.'",
)
def listing_ignores_domain() -> None:
    """odoo://record/{model}?domain=... lists the model's records whatever the domain."""
    from odoo_mcp.resources import reader

    original: Callable[[Any, Any], Awaitable[Data]] = reader._listing

    async def broken(rc: Any, ref: Any) -> Data:
        return await original(rc, ref.model_copy(update={"domain": ()}))

    reader._listing = broken


# -- §5: subscriptions ------------------------------------------------------------------------


@mutant(
    kills=["REQ-06-13"],
    seed="SPEC-06 §5: 'The server MUST support resource subscriptions (MCP "
    "`resources/subscribe`)' (and so resources/unsubscribe)",
)
def unsubscribe_ignored() -> None:
    """resources/unsubscribe answers but leaves the subscription in place."""
    from odoo_mcp.resources.subscriptions import SubscriptionManager

    def keep(self: Any, client: str, uri: str) -> None:
        return None

    SubscriptionManager.unsubscribe = keep  # type: ignore[method-assign]


@mutant(
    kills=["REQ-06-15"],
    seed="SPEC-06 §5: 'The following resources support subscriptions: ... odoo://system/info "
    "— Connection state changes'",
)
def system_info_never_changes() -> None:
    """The poll round never sees the connection's state change, so system/info is never
    notified."""
    from odoo_mcp.resources.subscriptions import SubscriptionManager

    def constant(self: Any) -> str:
        return "ready"

    SubscriptionManager._state = constant  # type: ignore[method-assign]


@mutant(
    kills=["REQ-06-16"],
    seed="SPEC-06 §5: 'The server MUST limit the number of active subscriptions to 50 per client'",
)
def subscriptions_unlimited() -> None:
    """A client may hold 1000 subscriptions."""
    import odoo_mcp.resources.subscriptions as subscriptions

    subscriptions.MAX_SUBSCRIPTIONS = 1000  # type: ignore[misc]


# -- §6: prompts ----------------------------------------------------------------------------


@mutant(
    kills=["REQ-06-17"],
    seed="SPEC-06 §6.1: 'To get started: - Use odoo_core_search_read to search for records'",
)
def overview_without_search_read() -> None:
    """odoo_overview never names odoo_core_search_read."""
    _post_prompt("odoo_overview", lambda text: text.replace("odoo_core_search_read", "a tool"))


@mutant(
    kills=["REQ-06-18"],
    seed="SPEC-06 §6.1: 'The response MUST include the complete domain syntax reference "
    "from SPEC-L2/04a'",
)
def domain_help_without_hierarchy() -> None:
    """odoo_domain_help leaves out the child_of and parent_of operators."""

    def post(text: str) -> str:
        lines = text.splitlines()
        return "\n".join(x for x in lines if "child_of" not in x and "parent_of" not in x)

    _post_prompt("odoo_domain_help", post)


@mutant(
    kills=["REQ-06-19"],
    seed="SPEC-06 §6.2: '## Related Models {list of related models via Many2one/One2many}'",
)
def model_guide_without_one2many() -> None:
    """odoo_model_guide never names the models related through a one2many."""
    _post_prompt("odoo_model_guide", lambda text: text.replace("sale.order.line", "lines"))


@mutant(
    kills=["REQ-06-20"],
    seed="SPEC-06 §6.2: 'Related field resolution guidance (e.g., \"for partner_id, first "
    "search res.partner\")'",
)
def create_guide_without_resolution() -> None:
    """odoo_create_record never says which model to search to fill a relation."""
    _post_prompt("odoo_create_record", lambda text: text.replace("res.partner", "it"))


@mutant(
    kills=["REQ-06-21"],
    seed='SPEC-06 §6.2: \'"name": "query", "description": "What you\\\'re looking for '
    '(natural language)", "required": true\'',
)
def search_help_query_optional() -> None:
    """odoo_search_help lists its query argument as optional."""
    from mcp.types import ListPromptsResult

    from odoo_mcp.adapter.prompts import PromptHandlers

    original = PromptHandlers.list_prompts

    async def broken(self: Any, ctx: Any, params: Any) -> ListPromptsResult:
        listed = await original(self, ctx, params)
        for prompt in listed.prompts:
            for argument in prompt.arguments or []:
                if argument.name == "query":
                    argument.required = False
        return listed

    PromptHandlers.list_prompts = broken  # type: ignore[method-assign]


@mutant(
    kills=["REQ-06-21"],
    seed="SPEC-06 §6.2: 'Response includes a suggested domain filter, recommended fields, "
    "and the tool call to execute.'",
)
def search_help_without_domain() -> None:
    """odoo_search_help leaves the query out of its suggested domain."""
    _post_prompt("odoo_search_help", lambda text: text.replace("acme", "..."))


@mutant(
    kills=["REQ-06-12"],
    seed="SPEC-06 §4.3: 'The maximum `limit` for resource listings is 100. Default is 20.'",
)
def listing_limit_unbounded() -> None:
    """odoo://record/{model}?limit=N lists N records, however many (and 20 by default)."""
    from urllib.parse import parse_qs, urlsplit

    from odoo_mcp.resources import reader
    from odoo_mcp.resources.uris import parse_uri

    original: Callable[[Any, str], Awaitable[Data]] = reader.read_resource

    async def broken(rc: Any, uri: str) -> Data:
        asked = parse_qs(urlsplit(uri).query).get("limit", [])
        data = await original(rc, uri)
        if data.get("records") is not None and asked and int(asked[0]) > 100:
            ref = parse_uri(uri).model_copy(update={"limit": int(asked[0])})
            return await reader._listing(rc, ref)
        return data

    reader.read_resource = broken


@mutant(
    kills=["REQ-06-22"],
    seed="SPEC-06 §7: 'Field blocklists apply to resource responses.'",
    select="REQ-06-22 and blocked_fields_are_absent",
)
def record_resources_ignore_field_blocklist() -> None:
    """Record and listing resources read every non-binary field, the field blocklist
    ignored (by the key-field choice and by the answer scrub alike)."""
    import odoo_mcp.adapter.resources as adapter
    from odoo_mcp.registry import ModelRegistry

    async def every_field(self: Any, model: str, blocked: Any) -> list[str]:
        fields = await self.get_fields(model)
        return [name for name, info in fields.items() if info.type != "binary" and name != "id"]

    ModelRegistry.key_fields = every_field  # type: ignore[method-assign,assignment]
    setattr(adapter, "scrub", lambda data, *args, **kwargs: data)  # noqa: B010 (unexported)


@mutant(
    kills=["REQ-06-17"],
    seed="SPEC-06 §6.1: 'You are connected to an Odoo {version} ({edition}) instance at {url}.'",
    select="REQ-06-17 and describes",
    features=["prompts.feature"],
)
def overview_without_url() -> None:
    """odoo_overview never says at which URL the Odoo instance is."""
    import re

    _post_prompt(
        "odoo_overview", lambda text: re.sub(r" instance at \S+?\.(\s)", r" instance.\1", text)
    )


@mutant(
    kills=["REQ-06-17"],
    seed="SPEC-06 §6.1: 'You are connected to an Odoo {version} ({edition}) instance at {url}.'",
    select="REQ-06-17 and describes",
    features=["prompts.feature"],
)
def overview_without_edition() -> None:
    """odoo_overview never says whether the Odoo instance is community or enterprise."""
    import re

    _post_prompt("odoo_overview", lambda text: re.sub(r"(?i) \((community|enterprise)\)", "", text))


@mutant(
    kills=["REQ-06-17"],
    seed="SPEC-06 §6.1: 'User: {username} (uid: {uid})'",
    select="REQ-06-17 and describes",
    features=["prompts.feature"],
)
def overview_without_username() -> None:
    """odoo_overview gives the uid but not the user's name or login."""
    import re

    _post_prompt("odoo_overview", lambda text: re.sub(r"(?m)^User: .*\((uid: \d+)\)", r"\1", text))


@mutant(
    kills=["REQ-06-20"],
    seed="SPEC-06 §6.2 REQ-06-20: 'Response includes: ... - Example values for common fields'",
    select="REQ-06-20 and examples",
    features=["prompts.feature"],
)
def create_guide_without_examples() -> None:
    """odoo_create_record gives the required fields, the defaults and the relations, but no
    example value: its examples section and its call's values are left out."""
    import re

    def post(text: str) -> str:
        kept: list[str] = []
        examples = False
        for line in text.splitlines():
            if line.startswith("## "):
                examples = line.startswith("## Example")
            if examples and line.startswith("- "):
                continue
            kept.append(re.sub(r'"values": \{.*\}', '"values": {}', line))
        return "\n".join(kept)

    _post_prompt("odoo_create_record", post)


@mutant(
    kills=["REQ-06-23"],
    seed="SPEC-06 §7 REQ-06-23: 'If the authenticated user does not have read access to a "
    "model, the resource MUST return an appropriate error, not an empty response.'",
    select="REQ-06-23",
    features=["resources.feature"],
)
def resources_answer_refusals_empty() -> None:
    """A resource Odoo refuses the user is answered empty: a listing with no records, a
    record with no values."""
    from odoo_mcp.adapter.errors import REFUSED, as_mcp_error
    from odoo_mcp.resources import reader

    original = reader.read_resource

    async def broken(rc: Any, uri: str) -> Data:
        try:
            return await original(rc, uri)
        except Exception as exc:
            if as_mcp_error(exc, None, "resources/read").error.code != REFUSED:
                raise
            if _is_record(uri):
                return {"model": uri.split("/")[3], "id": int(uri.split("/")[4]), "record": {}}
            return {"model": uri.split("/")[3].split("?")[0], "records": [], "count": 0}

    reader.read_resource = broken


@mutant(
    kills=["REQ-06-02"],
    seed='SPEC-06 §3.1 REQ-06-02: Response: {"server_version": "17.0", ..., "protocol": '
    '"json2", "user": {"uid": 2, "name": "Admin"}, ...}',
    select="REQ-06-02 and unreachable",
    features=["resources.feature"],
)
def system_info_forgets_odoo_in_outage() -> None:
    """While Odoo is unreachable, odoo://system/info gives a null version, protocol and uid,
    and the login for the user's name."""

    def post(data: Data) -> Data:
        if data.get("state") in ("error", "reconnecting"):
            data.update(server_version=None, protocol=None, user={"uid": None, "name": "admin"})
        return data

    post_resource(lambda uri: uri == "odoo://system/info", post)
