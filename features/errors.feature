@SPEC-10
Feature: Errors a language model can act on
  Every Odoo, safety and network error comes back as one JSON object: a category, a code, a
  message, a suggestion naming the tool to use next, and whether a retry can help. Never a
  traceback.

  Background:
    Given the server runs in "full" mode

  @REQ-10-01 @REQ-10-02 @REQ-10-03 @REQ-10-04 @REQ-10-17
  Scenario: a validation error is a tool result with the full structure
    When the client calls "odoo_core_create" with:
      """
      {"model": "sale.order", "values": {"note": "no customer"}}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "validation"
    And the result "details.model" is "sale.order"
    And the result "original_error" matches the pattern "[\w.]+(Error|Exception)?: .+"

  @REQ-10-05 @REQ-10-06 @REQ-10-07 @REQ-10-15
  Scenario Outline: Odoo errors are classified the same way on every protocol
    Given the server talks to Odoo over "<protocol>"
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [999999], "values": {"website": "x"}}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "not_found"
    And the result "retry" is true
    When the client calls "odoo_core_create" with:
      """
      {"model": "sale.order", "values": {"note": "no customer"}}
      """
    Then the error category is "validation"
    And the result "code" is "MISSING_REQUIRED_FIELD"
    And the result "details.field" is "partner_id"
    And the result "details.model" is "sale.order"
    When the client calls "odoo_core_read" with:
      """
      {"model": "no.such.model", "ids": [1]}
      """
    Then the error category is "not_found"
    And the result "code" is "MODEL_NOT_FOUND"
    And the result "details.model" is "no.such.model"

    Examples:
      | protocol |
      | xmlrpc   |
      | jsonrpc  |
      | json2    |

  @REQ-10-05 @REQ-10-07 @REQ-10-15
  Scenario Outline: an access error is classified as access, not retried
    Given the server connects to Odoo as the demo user
    And the server talks to Odoo over "<protocol>"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "account.payment", "fields": ["name"]}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "access"
    And the result "retry" is false

    Examples:
      | protocol |
      | xmlrpc   |
      | json2    |

  @REQ-10-05 @REQ-10-07
  Scenario: a unique constraint Odoo 19 reports as a ValidationError is a validation error
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.country", "values": {"name": "Spain Again", "code": "ES"}}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "validation"
    And the result "message" matches the pattern ".*must be unique.*"
    And the result "retry" is true

  @REQ-10-05 @REQ-10-07 @REQ-10-15
  Scenario: a state error says what state is needed
    Given the id of the "sale.order" record matching [["state", "=", "cancel"]] is "cancelled"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "sale.order", "method": "action_confirm", "args": [["$cancelled"]]}
      """
    Then the error response has the SPEC-10 structure
    And the result "retry" is true

  @REQ-10-09 @REQ-10-10
  Scenario: suggestions name the tools to use next
    When the client calls "odoo_core_create" with:
      """
      {"model": "sale.order", "values": {"note": "no customer"}}
      """
    Then the response text contains "odoo_core_"
    When the client calls "odoo_core_read" with:
      """
      {"model": "no.such.model", "ids": [1]}
      """
    Then the result "suggestion" matches the pattern ".*odoo_core_list_models.*"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["no_such_field", "=", 1]]}
      """
    Then the result "suggestion" matches the pattern ".*odoo_core_fields_get.*"

  @REQ-10-13 @REQ-10-14
  Scenario Outline: tracebacks never reach the client
    Given the server talks to Odoo over "<protocol>"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "write", "args": [[999999], {"name": "x"}]}
      """
    Then the error response has the SPEC-10 structure
    And the error carries no traceback
    And the result "original_error" matches the pattern "[^\n]+"

    Examples:
      | protocol |
      | xmlrpc   |
      | jsonrpc  |
      | json2    |

  @REQ-10-16
  Scenario: an unknown tool is JSON-RPC error -32601
    When the client calls "odoo_core_teleport" with:
      """
      {"model": "res.partner"}
      """
    Then the call is rejected with JSON-RPC error -32601

  @REQ-10-16
  Scenario Outline: arguments that break the schema are JSON-RPC error -32602
    When the client calls "odoo_core_search_read" with:
      """
      <arguments>
      """
    Then the call is rejected with JSON-RPC error -32602
    And Odoo received no call

    Examples:
      | arguments                                        |
      | {"domain": []}                                   |
      | {"model": "res.partner", "limit": "many"}        |
      | {"model": "res.partner", "offset": -1}           |
      | {"model": "res.partner", "unexpected": 1}        |

  @REQ-10-17
  Scenario: Odoo errors are never JSON-RPC errors
    When the client calls "odoo_core_read" with:
      """
      {"model": "no.such.model", "ids": [1]}
      """
    Then the error response has the SPEC-10 structure

  @REQ-10-18 @REQ-10-19 @needs_error_logs
  Scenario: errors are logged with their level, operation and code
    When the client calls "odoo_core_create" with:
      """
      {"model": "sale.order", "values": {"note": "no customer", "password": "hunter2"}}
      """
    Then the call fails with error code "FIELD_BLOCKED"
    When the client calls "odoo_core_create" with:
      """
      {"model": "sale.order", "values": {"note": "kit-log-marker"}}
      """
    Then the server log has a WARNING line with "sale.order" and "MISSING_REQUIRED_FIELD"
    And the server log has a WARNING line with "create" and "kit-log-marker"
    And the server log does not contain "hunter2"

  @REQ-10-18 @needs_error_logs
  Scenario: access errors are logged at error level
    Given the server connects to Odoo as the demo user
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "account.payment", "fields": ["name"]}
      """
    Then the error category is "access"
    And the server log has a ERROR line with "account.payment" and "search_read"
