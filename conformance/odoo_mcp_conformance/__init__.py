"""The odoo-mcp conformance kit: judges any MCP server implementing the Odoo MCP spec.

The kit talks to the implementation under test only through MCP (a stdio command or a URL,
described by a target file) and to the fake Odoo only through its ``/__fake__/`` control API.
"""
