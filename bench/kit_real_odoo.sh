#!/usr/bin/env bash
# The whole kit with --odoo-url against `fake-odoo serve --no-control` (tox -e kit-real-odoo):
# the fake poses as a real Odoo 19, the kit logs in with the demo users' API keys, and every
# scenario that needs the fake's control is not applicable. Extra arguments go to the kit.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${KIT_REAL_ODOO_PORT:-8079}
log=$(mktemp)
fake-odoo serve --port "$port" --no-control --log-level warning >"$log" 2>&1 &
fake=$!
trap 'kill $fake 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q "api key" "$log" && break; sleep 0.2; done
key() { awk -v who="$1" '$1 == "login:" && $2 == who { print $NF }' "$log"; }
export ODOO_MCP_KIT_ADMIN_LOGIN=admin ODOO_MCP_KIT_ADMIN_API_KEY="$(key admin)"
export ODOO_MCP_KIT_USER_LOGIN=demo ODOO_MCP_KIT_USER_API_KEY="$(key demo)"
odoo-mcp-conformance run --target conformance/targets/reference.toml \
    --report-dir reports/conformance-real-odoo --odoo-url "http://127.0.0.1:$port" \
    --odoo-db demo -q "$@"
