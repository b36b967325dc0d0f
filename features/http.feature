@HTTP
Feature: Streamable HTTP sessions and per-caller Bearer API keys
  The HTTP session guide's behaviours, checked with plain HTTP requests on the target's MCP
  endpoint: statuses, headers and session ids that an MCP client library would hide.
  N/A for targets that do not serve HTTP.

  Background:
    Given the target serves MCP over HTTP

  @REQ-HTTP-01 @REQ-HTTP-02 @REQ-01-10
  Scenario: initialize opens a session and answers the server's capabilities
    When the client initializes a session with protocol version "2025-06-18"
    Then the HTTP status is 200
    And [for REQ-HTTP-02] the answer has the header "Mcp-Session-Id"
    # "a stateful JSON-RPC 2.0 server"
    And [for REQ-HTTP-01] the JSON-RPC answer "jsonrpc" is "2.0"
    And the JSON-RPC answer "result.protocolVersion" is "2025-06-18"
    And the JSON-RPC answer "result.capabilities.tools" is {}

  @REQ-HTTP-03 @REQ-HTTP-06 @REQ-HTTP-08
  Scenario: a session lives from initialize to DELETE, and is unknown afterwards
    When the client initializes a session with protocol version "2025-06-18"
    And the client sends "notifications/initialized" on its session
    Then [for REQ-HTTP-06] the HTTP status is 202
    And [for REQ-HTTP-06] the answer has no body
    When the client sends "tools/list" on its session
    Then the HTTP status is 200
    When the client ends its session
    Then [reference] the HTTP status is 200
    When the client sends "tools/list" on its session
    Then [for REQ-HTTP-03] the HTTP status is 404

  @REQ-HTTP-04 @REQ-HTTP-08
  Scenario: without an initialized session only initialize and ping are accepted
    When the client sends "tools/list" without a session id
    Then the HTTP status is 400
    When the client sends "tools/call" without a session id
    Then the HTTP status is 400
    And Odoo received no data call
    # the guide's state machine: "not_initialized: Methods: initialize, ping"
    When the client sends "ping" without a session id
    Then [for REQ-HTTP-04] the HTTP status is 200
    And [for REQ-HTTP-04] the JSON-RPC answer "result" is {}

  @REQ-HTTP-05
  Scenario: discovery requests are answered while the session is initializing
    When the client initializes a session with protocol version "2025-06-18"
    And the client sends "tools/list" on its session
    Then the HTTP status is 200
    And the JSON-RPC answer "result.tools[*].name" includes "odoo_core_search_read"
    When the client sends "prompts/list" on its session
    Then the HTTP status is 200
    When the client sends "ping" on its session
    Then the HTTP status is 200

  # "JSON-RPC 2.0 compliant error responses" from "a stateful JSON-RPC 2.0 server"
  @REQ-HTTP-01 @REQ-HTTP-07 @REQ-HTTP-09
  Scenario: JSON-RPC errors travel with HTTP 200 and cost no Odoo call
    When the client initializes a session with protocol version "2025-06-18"
    And the client sends "notifications/initialized" on its session
    And the client sends "no/such_method" on its session
    Then [for REQ-HTTP-07] the HTTP status is 200
    And the JSON-RPC answer is an error with code -32601
    And [for REQ-HTTP-01] the JSON-RPC answer "jsonrpc" is "2.0"
    And Odoo received no data call

  # "Early method validation prevents unnecessary session lookups": an unknown method is
  # judged as such, whatever session it names
  @REQ-HTTP-09
  Scenario: an unknown method is refused before its session is looked up
    When the client sends "no/such_method" on the session "no-such-session"
    Then the HTTP status is 200
    And the JSON-RPC answer is an error with code -32601
    And Odoo received no data call

  @REQ-HTTP-08
  Scenario: transport errors are HTTP statuses
    When the client sends "tools/list" on the session "no-such-session"
    Then the HTTP status is 404
    When the client initializes a session with protocol version "2025-06-18"
    And the client sends malformed JSON on its session
    Then the HTTP status is 400

  # the guide names 2025-06-18 ("auto-negotiation with MCP 2025-06-18 support"); the other
  # versions are ours (decision 33)
  @REQ-HTTP-10
  Scenario Outline: the protocol version the client asks for is negotiated
    When the client initializes a session with protocol version "<version>"
    Then the HTTP status is 200
    And the JSON-RPC answer "result.protocolVersion" is "<version>"

    Examples:
      | version    |
      | 2025-06-18 |

    @decision-33
    Examples:
      | version    |
      | 2025-11-25 |
      | 2025-03-26 |

  # "Auto-negotiation": a version the server does not know is answered with one it supports
  # (as MCP's lifecycle says), never refused
  @REQ-HTTP-10
  Scenario: an unknown protocol version is negotiated, not refused
    When the client initializes a session with protocol version "2099-01-01"
    Then the HTTP status is 200
    And the JSON-RPC answer "result.protocolVersion" is "<str>"
    And the answer has the header "Mcp-Session-Id"

  @REQ-HTTP-11
  Scenario: a stateless server answers without sessions
    Given the server runs without HTTP sessions
    When the client sends "tools/list" without a session id
    Then the HTTP status is 200
    And the answer has no header "Mcp-Session-Id"
    When the client initializes a session with protocol version "2025-06-18"
    Then the HTTP status is 200
    And the answer has no header "Mcp-Session-Id"

  # "Mode: Stateful (recommended) vs Stateless": a server started with no mode setting is
  # stateful, so it hands out a session id and holds the session's state: requests need it,
  # and an id it never gave is unknown
  @REQ-HTTP-21
  Scenario: a server started with no session-mode setting keeps stateful sessions
    Given the server runs in its default HTTP session mode
    When the client initializes a session with protocol version "2025-06-18"
    Then the HTTP status is 200
    And the answer has the header "Mcp-Session-Id"
    When the client sends "notifications/initialized" on its session
    And the client sends "tools/list" on its session
    Then the HTTP status is 200
    And the JSON-RPC answer "result.tools[*].name" includes "odoo_core_search_read"
    When the client sends "tools/list" without a session id
    Then the HTTP status is 400
    When the client sends "tools/list" on the session "no-such-session"
    Then the HTTP status is 404

  # "Explicit session._cr.commit() ensures immediate state visibility" and "State
  # transitions: direct database commits prevent race conditions": the request that follows a
  # state change, or races it, is served in the new state
  @REQ-HTTP-20
  Scenario: a session's state change is seen at once by the next request, even a concurrent one
    When the client initializes a session with protocol version "2025-06-18"
    And the client sends "tools/list, prompts/list, resources/list, ping" on its session concurrently
    Then every concurrent "tools/list" has the HTTP status 200
    And every concurrent "prompts/list" has the HTTP status 200
    And every concurrent "resources/list" has the HTTP status 200
    And every concurrent "ping" has the HTTP status 200
    When the client sends "notifications/initialized, tools/list, tools/list, tools/list" on its session concurrently
    Then every concurrent "notifications/initialized" has the HTTP status 202
    And every concurrent "tools/list" has the HTTP status 200
    And the JSON-RPC answer "result.tools[*].name" includes "odoo_core_search_read"
    When the client sends "tools/list" on its session
    Then the HTTP status is 200
    And the JSON-RPC answer "result.tools[*].name" includes "odoo_core_search_read"

  # "External URL: Override for Docker/container environments": set, it is the URL the server
  # gives as its own; where it shows (the health endpoint) and the DNS-rebinding check on its
  # host are ours (decision 33)
  @REQ-HTTP-12 @REQ-HTTP-18
  Scenario: the public URL is what the server advertises, and only its host is accepted
    Given the server setting "public_url" is "https://mcp.example.com/mcp"
    When the client checks the health endpoint without a token
    Then [decision 33] the HTTP status is 200
    And [decision 33] the JSON answer "endpoint" is "https://mcp.example.com/mcp"
    When the client initializes a session through the host "mcp.example.com"
    Then [for REQ-HTTP-12] the HTTP status is 200
    When the client initializes a session through the host "evil.example.net"
    Then [decision 33] the request is refused with a 4xx status

  # authentication on by default off loopback comes from the issue that asks for this
  # transport, not from the guide (decision 33)
  @REQ-HTTP-18 @decision-33
  Scenario Outline: a server listening beyond loopback authenticates by default, loopback stays open
    Given the target authenticates HTTP callers
    And the HTTP server listens on "<host>" with no authentication setting
    When the client sends "initialize" without a session id and without a token
    Then the HTTP status is <status>

    Examples:
      | host      | status |
      | 0.0.0.0   | 401    |
      | 127.0.0.1 | 200    |

  @REQ-HTTP-13
  Scenario: a request without a valid Bearer token is refused before Odoo is called
    Given the target authenticates HTTP callers
    When the client sends "initialize" without a session id and without a token
    Then [decision 29] the HTTP status is 401
    And [decision 29] the answer header "WWW-Authenticate" starts with "Bearer"
    And [decision 29] the answer has no header "Mcp-Session-Id"
    And [decision 29] Odoo received no data call
    When the client sends "initialize" without a session id and the token "not-an-odoo-key"
    Then [decision 29] the HTTP status is 401
    And [decision 29] the answer header "WWW-Authenticate" starts with "Bearer"
    And [decision 29] Odoo received no data call
    # the guide: "tools/call requires Bearer authentication"; how it is refused is decision 29
    When the client initializes a session with protocol version "2025-06-18"
    And the client sends "notifications/initialized" on its session
    And the client sends "tools/call" on its session without a token
    Then Odoo received no data call
    And [decision 29] the HTTP status is 401

  @REQ-HTTP-14
  Scenario: a session belongs to the user who opened it
    Given the target authenticates HTTP callers
    When the client initializes a session as "admin"
    And the client sends "tools/list" on its session with the token of "demo"
    Then [decision 29] the request is refused with a 4xx status
    When the client counts "sale.order" records on its session as "admin"
    Then the HTTP status is 200
    And the tool result "count" is 39

  @REQ-HTTP-15 @REQ-HTTP-16
  Scenario: each session acts as its own Odoo user on one server
    Given the target authenticates HTTP callers
    When the client initializes a session as "demo"
    And the client counts "sale.order" records on its session as "demo"
    Then the tool result "count" is 17
    When the client initializes a session as "admin"
    And the client counts "sale.order" records on its session as "admin"
    Then [for REQ-HTTP-16] the tool result "count" is 39

  # SPEC-11 puts the limits on each MCP session (per client): one HTTP server, two sessions
  @REQ-11-20 @REQ-HTTP-16 @needs_rate_limit @fresh_server
  Scenario: two sessions on one server have their own rate limits
    Given the target authenticates HTTP callers
    And the server setting "rate_limit_enabled" is "true"
    And the server setting "rate_limit_rpm" is "2"
    And the server setting "rate_limit_burst" is "1"
    When the client initializes a session as "admin"
    And the client counts "res.partner" records on its session as "admin" 5 times
    Then the tool result "code" is "RATE_LIMITED"
    And the tool result "retry_after" is "<number>"
    When the client initializes a session as "admin"
    And the client counts "res.partner" records on its session as "admin"
    Then the tool result "count" is "<int>"

  # the health endpoint comes from the issue that asks for this transport (decision 33)
  @REQ-HTTP-19 @decision-33
  Scenario: the health endpoint answers without a token
    When the client checks the health endpoint without a token
    Then the HTTP status is 200
    And the JSON answer "status" is "ok"

  # "Production mode logs only warnings and authentication events": reading production mode
  # as the warning log level is ours (decision 33)
  @REQ-HTTP-17 @needs_error_logs @decision-33
  Scenario: at the warning log level the server logs no request chatter
    Given the target authenticates HTTP callers
    And the server setting "log_level" is "warning"
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner"}
      """
    Then the call succeeds
    And the server log does not contain " INFO "
    And the server log does not contain " DEBUG "
