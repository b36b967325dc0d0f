@L2-10a
Feature: The error pattern database
  Known Odoo messages get a specific code, a message in plain words and a suggestion naming
  the tool to use; the first matching pattern wins and the rest falls back to the exception
  class.

  Background:
    Given the server runs in "full" mode

  @REQ-10a-01 @REQ-10a-02 @REQ-10-11
  Scenario Outline: a known Odoo error gets its pattern's code
    When the client calls "<tool>" with:
      """
      <arguments>
      """
    Then the error response has the SPEC-10 structure
    And the error category is "<category>"
    And the result "code" is "<code>"
    And the error carries no traceback

    Examples:
      | tool                | arguments                                                                                | category   | code                     |
      | odoo_core_create    | {"model": "sale.order", "values": {"note": "x"}}                                          | validation | MISSING_REQUIRED_FIELD   |
      | odoo_core_read      | {"model": "res.partner", "ids": [9], "fields": ["no_such_field"]}                         | validation | INVALID_FIELD            |
      | odoo_core_write     | {"model": "res.partner", "ids": [9], "values": {"type": "alien"}}                         | validation | WRONG_VALUE              |
      | odoo_core_execute   | {"model": "res.partner", "method": "address_get", "args": [[9, 10]]}                      | validation | SINGLETON_EXPECTED       |
      | odoo_core_write     | {"model": "res.partner", "ids": [999999], "values": {"name": "x"}}                        | not_found  | RECORD_NOT_FOUND         |
      | odoo_core_read      | {"model": "no.such.model", "ids": [1]}                                                    | not_found  | MODEL_NOT_FOUND          |
      | odoo_core_execute   | {"model": "res.partner", "method": "frobnicate", "args": [[9]]}                           | not_found  | METHOD_NOT_FOUND         |

  @REQ-10a-02 @REQ-10-11
  Scenario: a state error names the transition and suggests reading the state
    Given the id of the "stock.picking" record matching [["state", "=", "done"]] is "done"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "stock.picking", "method": "action_cancel", "args": [["$done"]]}
      """
    Then the error category is "state"
    And the result "code" is "INVALID_STATE_TRANSITION"
    And the result "retry" is true

  @REQ-10a-02 @REQ-10-11
  Scenario: deleting a confirmed order is refused with the way out
    Given the id of the "sale.order" record matching [["state", "=", "sale"]] is "confirmed"
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "sale.order", "ids": ["$confirmed"]}
      """
    Then the error category is "state"
    And the result "code" is "CANNOT_DELETE_PROCESSED"
    And the result "suggestion" matches the pattern ".*(draft|cancel).*"

  @REQ-10a-02
  Scenario: the demo user's access refusal matches the access pattern, and is not retried
    Given the server connects to Odoo as the demo user
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "account.payment", "fields": ["name"]}
      """
    Then the error category is "access"
    And the result "code" is "OPERATION_NOT_ALLOWED"
    And the result "retry" is false
    And the result "details.model" is "account.payment"

  @REQ-10a-02
  Scenario: a message no pattern knows falls back to its exception class
    Given a "account.move" record created outside the server as "empty" with:
      """
      {"move_type": "out_invoice", "partner_id": 9}
      """
    When the client calls "odoo_core_execute" with:
      """
      {"model": "account.move", "method": "action_post", "args": [["$empty"]]}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "validation"
    And the result "code" is "USER_ERROR"
    And the result "retry" is true
