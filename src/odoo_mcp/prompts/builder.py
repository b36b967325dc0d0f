"""SPEC-06 §6: the five prompts.

Each is rendered from live metadata (the registry's fields_get cache, default_get, the
connection) and names only tools registered on this server (REQ-06-17..21): in readonly mode
odoo_create_record says that creating is not available instead of pointing at a hidden tool.
Blocked models are refused and blocked fields left out (REQ-06-22).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Final

from odoo_mcp.context import ServerContext
from odoo_mcp.errors.params import invalid_prompt
from odoo_mcp.prompts.guides import domain_help, overview
from odoo_mcp.prompts.model_guides import create_record, model_guide, search_help

__all__ = ["PROMPTS", "PromptSpec", "render_prompt"]

Render = Callable[[ServerContext, Mapping[str, str]], Awaitable[str]]


@dataclass(frozen=True)
class PromptSpec:
    name: str
    description: str
    arguments: tuple[tuple[str, str], ...]  # (name, description), all required
    render: Render


PROMPTS: Final = (
    PromptSpec(
        "odoo_overview",
        "Get an overview of the connected Odoo instance, available tools, and how to use them",
        (),
        overview,
    ),
    PromptSpec(
        "odoo_domain_help", "Reference guide for Odoo domain filter syntax", (), domain_help
    ),
    PromptSpec(
        "odoo_model_guide",
        "Get a guide for working with a specific Odoo model",
        (("model_name", "The Odoo model name (e.g., 'sale.order')"),),
        model_guide,
    ),
    PromptSpec(
        "odoo_create_record",
        "Get guidance for creating a record on a specific model",
        (("model_name", "The Odoo model name"),),
        create_record,
    ),
    PromptSpec(
        "odoo_search_help",
        "Get help constructing a search query for a model",
        (
            ("model_name", "The Odoo model name"),
            ("query", "What you're looking for (natural language)"),
        ),
        search_help,
    ),
)


async def render_prompt(rc: ServerContext, name: str, args: Mapping[str, str]) -> str:
    """REQ-06-17..21: the prompt's text; an unknown name or a missing argument is
    INVALID_PROMPT (-32602)."""
    spec = next((p for p in PROMPTS if p.name == name), None)
    if spec is None:
        raise invalid_prompt(f"unknown prompt {name}; see prompts/list")
    missing = [arg for arg, _ in spec.arguments if not (args.get(arg) or "").strip()]
    if missing:
        raise invalid_prompt(f"prompt {name} needs the argument(s) {', '.join(missing)}")
    return await spec.render(rc, args)
