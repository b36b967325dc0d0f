"""The MCP adapter: the only package that imports the ``mcp`` SDK (a test holds it to that).

It turns the server's context, tools, resources and prompts (which know no MCP) into an
``MCPServer`` (``server``), answers tools/list and tools/call (``tools``), resources, prompts
and subscriptions, renders SPEC-10 errors as MCP sees them (``errors``), and serves it over
stdio (``stdio``) or streamable HTTP (``http``). What it needs of the SDK beyond its public
interface is in ``sdk``, with the SDK series it was written against.
"""
