"""Decision 8's method and state table now lives in the registry (REQ-07-20 backs the model
resources with it); this name stays for existing imports."""

from odoo_mcp.registry.workflows import WORKFLOWS, MethodDoc, Transition, Workflow, workflow_for

__all__ = ["WORKFLOWS", "MethodDoc", "Transition", "Workflow", "workflow_for"]
