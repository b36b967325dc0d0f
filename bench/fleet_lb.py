"""Issue 19: the HAProxy configuration of the fleet harness, as a pure function.

``haproxy_config(port, replicas, sticky=...)`` returns the text of an ``haproxy.cfg`` that
listens on ``127.0.0.1:port`` and spreads ``/mcp`` over the replicas (``host:port`` strings).
Stateful fleets (``sticky=True``) pin each MCP session to the replica that created it: the
balancer learns ``Mcp-Session-Id`` from the ``initialize`` response (``stick store-response``)
and routes every later request carrying it there (``stick match``). Stateless fleets
(``sticky=False``) use plain round robin. Both check ``GET /health`` and redispatch a request
whose replica is down, and add ``X-Forwarded-For`` (issue 37: the replicas trust it from the
balancer's address only, ``ODOO_MCP_TRUSTED_PROXIES``). ``tests/test_fleet_lb.py`` checks
the text without running HAProxy; ``bench/fleet.py`` runs it, and docs/fleet.md shows it.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["REPLICA_HEADER", "haproxy_config"]

#: response header naming the replica that answered (the harness counts sessions per replica)
REPLICA_HEADER = "x-fleet-replica"


def haproxy_config(
    port: int,
    replicas: Sequence[str],
    *,
    sticky: bool,
    host: str = "127.0.0.1",
    check_interval_ms: int = 500,
) -> str:
    """The ``haproxy.cfg`` text for this balancer (HAProxy 2.6, from Debian's package)."""
    if not replicas:
        raise ValueError("a fleet needs at least one replica")
    servers = [
        f"    server r{index} {address} check inter {check_interval_ms}ms fall 2 rise 2"
        for index, address in enumerate(replicas, start=1)
    ]
    # string keys of 64 bytes hold the SDK's session ids (32 hex digits) with room to spare;
    # entries expire like an idle session would, 30 minutes after their last use
    stickiness = [
        "    stick-table type string len 64 size 100k expire 30m",
        "    stick store-response res.hdr(mcp-session-id)",
        "    stick match req.hdr(mcp-session-id)",
    ]
    lines = [
        "global",
        "    maxconn 4096",
        "",
        "defaults",
        "    mode http",
        # issue 37: the client's address for the replicas' failed-authentication limit; they
        # believe it from this balancer alone (ODOO_MCP_TRUSTED_PROXIES)
        "    option forwardfor",
        "    timeout connect 2s",
        "    timeout client 1h",
        # SSE streams (GET /mcp, long tool calls) stay open: a short server timeout cuts them
        "    timeout server 1h",
        "    timeout tunnel 1h",
        "    timeout http-request 10s",
        # a request whose replica refuses the connection goes to another one (POST included:
        # a refused connection never reached a server, so retrying it is safe)
        "    option redispatch",
        "    retries 2",
        "",
        "frontend mcp",
        f"    bind {host}:{port}",
        "    default_backend replicas",
        "",
        "backend replicas",
        "    balance roundrobin",
        "    option httpchk GET /health",
        "    http-check expect status 200",
        *(stickiness if sticky else []),
        f"    http-response set-header {REPLICA_HEADER} %[srv_name]",
        *servers,
        "",
    ]
    return "\n".join(lines)
