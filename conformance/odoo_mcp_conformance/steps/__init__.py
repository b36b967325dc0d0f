"""Step definitions, one module per area; ``common`` holds the generic MCP/fake steps."""
