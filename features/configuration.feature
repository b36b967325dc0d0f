@SPEC-11
Feature: Configuration
  Settings come from the environment (the spec's names), a JSON file and the command line; an
  invalid configuration stops the server with one message per problem.

  These scenarios set the spec's own environment variables (REQ-11-25) exactly as written:
  a target's setting mapping does not apply to them, since the names and the value syntax are
  what they test.

  @REQ-11-25 @REQ-11-30
  Scenario: list settings are comma-separated, by the spec's variable name
    Given the server environment variable "ODOO_MCP_MODEL_ALLOWLIST" is "res.partner,sale.order"
    When the client calls "odoo_core_list_models" without arguments
    Then the result "models[*].model" is ["res.partner", "sale.order"]

  @REQ-11-30 @reference
  Scenario: spaces around the commas of a list are ignored
    Given the server environment variable "ODOO_MCP_MODEL_ALLOWLIST" is "res.partner , sale.order"
    When the client calls "odoo_core_list_models" without arguments
    Then the result "models[*].model" is ["res.partner", "sale.order"]

  @REQ-11-31 @needs_rate_limit @fresh_server
  Scenario Outline: booleans are read as true/1/yes, in any case
    Given the server environment variable "ODOO_MCP_RATE_LIMIT" is "<true>"
    And the server environment variable "ODOO_MCP_RATE_LIMIT_RPM" is "1"
    And the server environment variable "ODOO_MCP_RATE_LIMIT_BURST" is "1"
    When the client calls "odoo_core_count" 2 times with:
      """
      {"model": "res.partner"}
      """
    Then the call fails with error code "RATE_LIMITED"

    Examples:
      | true |
      | YES  |
      | 1    |
      | True |

  @REQ-11-31 @needs_rate_limit @fresh_server
  Scenario Outline: booleans are read as false/0/no, in any case
    Given the server environment variable "ODOO_MCP_RATE_LIMIT" is "<false>"
    And the server environment variable "ODOO_MCP_RATE_LIMIT_RPM" is "1"
    And the server environment variable "ODOO_MCP_RATE_LIMIT_BURST" is "1"
    When the client calls "odoo_core_count" 3 times with:
      """
      {"model": "res.partner"}
      """
    Then the call succeeds

    Examples:
      | false |
      | NO    |
      | 0     |

  @REQ-11-25 @REQ-11-02
  Scenario: the mode is read from ODOO_MCP_MODE
    Given the server environment variable "ODOO_MCP_MODE" is "full"
    When the client lists the tools
    Then the tool list includes "odoo_core_unlink"

  @REQ-11-26 @REQ-11-27
  Scenario: the JSON file gives settings and the environment overrides it
    Given the server configuration file holds:
      """
      {"mode": "full", "model_blocklist": ["crm.lead"]}
      """
    And the server runs in "restricted" mode
    When the client lists the tools
    Then the tool list includes "odoo_core_create"
    And the tool list does not include "odoo_core_unlink"
    When the client calls "odoo_core_count" with:
      """
      {"model": "crm.lead"}
      """
    Then the call fails with error code "MODEL_BLOCKED"

  @REQ-11-27 @REQ-01-29
  Scenario: the command line beats the environment, which beats the file
    Given the server configuration file holds:
      """
      {"mode": "full"}
      """
    And the server environment variable "ODOO_MCP_MODE" is "restricted"
    And the server's command line sets "mode" to "readonly"
    When the client lists the tools
    Then the tool list includes "odoo_core_search_read"
    And the tool list does not include "odoo_core_create"
    And the tool list does not include "odoo_core_unlink"

  @REQ-11-28 @REQ-11-29
  Scenario: an unknown mode stops the start
    When the server is started with the settings:
      """
      {"mode": "superuser"}
      """
    Then the server refuses to start
    And the start-up error mentions "mode"
    And the start-up error carries no traceback

  @REQ-11-28 @REQ-11-29 @reference
  Scenario: every problem is reported at once
    The seeds ask for a clear report and a refusal; naming every problem in one go is ours.
    When the server is started with the settings:
      """
      {"model_allowlist": ["res.partner"], "model_blocklist": ["crm.lead"], "write_allowlist": ["sale.order"], "mode": "restricted"}
      """
    Then [seed] the server refuses to start
    And the start-up error mentions "model_allowlist"
    And the start-up error mentions "sale.order"

  @REQ-11-28
  Scenario: a non-positive rate with rate limiting on stops the start
    When the server is started with the settings:
      """
      {"rate_limit_enabled": true, "rate_limit_rpm": 0}
      """
    Then the server refuses to start
    And the start-up error mentions "rate_limit_rpm"

  # SPEC-01's capability list (REQ-01-17/18); resources.subscribe is also REQ-06-13's
  @REQ-01-17
  Scenario: the server announces the capabilities of the architecture notes
    When the client looks at how the server introduced itself
    Then the result contains:
      """
      {"capabilities": {"tools": {"listChanged": true},
                        "resources": {"subscribe": true, "listChanged": true},
                        "prompts": {"listChanged": true},
                        "logging": {}}}
      """
    And [reference] the result "serverInfo.name" is "odoo-mcp"
    And [reference] the result "serverInfo.version" matches the pattern "^\d+\.\d+\.\d+"

  # SPEC-01's shutdown: stop intake, drain (30 s at most), close Odoo, exit 0
  @REQ-01-24 @fresh_server
  Scenario Outline: <signal> lets the call in flight finish, takes no new request and exits 0
    When the server gets <signal> while a call waits 1.5 s on Odoo
    Then the call that waited on Odoo is answered
    And the request sent after the signal is not served
    And the server exits with code 0

    Examples:
      | signal  |
      | SIGTERM |
      | SIGINT  |

  # SPEC-01's logging: stderr, MCP's levels; the logger's name in the line is our format
  @REQ-01-21 @needs_error_logs @fresh_server
  Scenario: at the info level the server logs to stderr
    Given the server setting "log_level" is "info"
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner"}
      """
    Then the call succeeds
    And the server log has an INFO line with ""
    And [reference] the server log has an INFO line with "odoo_mcp"

  @REQ-01-15
  Scenario: an Odoo that cannot be reached stops the start with the reason
    When the server is started against an Odoo that refuses connections
    Then the server refuses to start
    And the start-up error carries no traceback
    And [reference] the start-up error mentions "127.0.0.1"
