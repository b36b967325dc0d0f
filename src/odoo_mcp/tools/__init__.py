"""SPEC-04: the core tools, one ``ToolSpec`` each (``spec``), by area: read, write, meta,
execute, models, toolsets; their handlers take the ``ServerContext`` and never see MCP."""
