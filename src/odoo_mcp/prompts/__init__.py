"""SPEC-06 §6: prompts built from live metadata, naming only the tools this server registered."""

from odoo_mcp.prompts.builder import PROMPTS, PromptSpec, render_prompt

__all__ = ["PROMPTS", "PromptSpec", "render_prompt"]
