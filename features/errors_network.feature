@SPEC-10
Feature: Network and HTTP failures of Odoo
  When Odoo cannot be reached, answers too late or fails at the HTTP level, the call ends in a
  connection (or rate limit) error that says to wait and retry. The server is set to give up
  quickly (one reconnection attempt, short backoff, a one-second timeout), so that these
  scenarios share one server and finish fast.

  Background:
    Given the server setting "odoo_timeout" is "1"
    And the server setting "reconnect_max_attempts" is "1"
    And the server setting "reconnect_backoff_base" is "0.1"
    And the server has already read from "res.partner"

  @REQ-10-08 @REQ-10-15
  Scenario: a dropped connection is a connection error to retry later
    Given Odoo has the fault:
      """
      {"kind": "drop"}
      """
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "fields": ["name"], "limit": 1}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "connection"
    And the result "retry" is true
    And the result "retry_after" is "<number>"

  @REQ-10-08
  Scenario: an Odoo that does not answer in time is a timeout
    Given Odoo has the fault:
      """
      {"kind": "latency", "seconds": 3}
      """
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "fields": ["name"], "limit": 1}
      """
    Then the error category is "connection"
    And the result "code" is "TIMEOUT"

  @REQ-10-08
  Scenario Outline: HTTP failures of Odoo are classified by status
    Given Odoo has the fault:
      """
      {"kind": "http_status", "status": <status>}
      """
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "fields": ["name"], "limit": 1}
      """
    Then the error category is "<category>"
    And the result "code" is "<code>"

    Examples:
      | status | category   | code               |
      | 502    | connection | SERVER_ERROR       |
      | 404    | connection | ENDPOINT_NOT_FOUND |

  @REQ-10-08 @REQ-10-15
  Scenario: Odoo's own rate limit is a rate_limit error with its Retry-After
    Given Odoo has the fault:
      """
      {"kind": "rate_limit", "retry_after": 7}
      """
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "fields": ["name"], "limit": 1}
      """
    Then the error category is "rate_limit"
    And the result "code" is "RATE_LIMITED"
    And the result "retry" is true
    And the result "retry_after" is 7

