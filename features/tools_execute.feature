@SPEC-04
Feature: odoo_core_execute
  The escape hatch runs any public method, after the method, the mode and the lists allow it.

  @REQ-04-25 @REQ-04-27
  Scenario: a button method runs and its plain value comes back
    Given the server runs in "full" mode
    And a "sale.order" record created outside the server as "order" with:
      """
      {"partner_id": 9, "order_line": [[0, 0, {"product_id": 1, "product_uom_qty": 1}]]}
      """
    When the client calls "odoo_core_execute" with:
      """
      {"model": "sale.order", "method": "action_confirm", "args": [["$order"]]}
      """
    Then the call succeeds
    And the result "result_type" is "value"
    When the client calls "odoo_core_read" with:
      """
      {"model": "sale.order", "ids": ["$order"], "fields": ["state"]}
      """
    Then the result "records[0].state" is "sale"

  @REQ-04-27
  Scenario: a method returning an action comes back as a summary
    Given the server runs in "full" mode
    And the id of the "crm.lead" record matching [["type", "=", "opportunity"]] is "lead"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "crm.lead", "method": "redirect_lead_opportunity_view", "args": [["$lead"]]}
      """
    Then the call succeeds
    And the result "result_type" is "action"
    And the result "action.res_model" is "crm.lead"
    And the result "action.res_id" is "$lead"
    And the result "action.view_mode" is "form"
    And the result "action.summary" is "<str>"
    And the result has no "result"

  @REQ-04-25
  Scenario: read methods run in readonly mode
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "search_count", "args": [[["is_company", "=", true]]]}
      """
    Then the call succeeds
    And the result "result" is 12

  @REQ-04-26
  Scenario: readonly mode refuses methods that change data
    When the client calls "odoo_core_execute" with:
      """
      {"model": "sale.order", "method": "action_confirm", "args": [[1]]}
      """
    Then the call fails with error code "MODE_VIOLATION"
    And Odoo received no call

  @REQ-04-26
  Scenario: private methods are refused
    Given the server runs in "full" mode
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "_compute_display_name", "args": [[1]]}
      """
    Then the call fails with error code "METHOD_BLOCKED"
    And Odoo received no call

  @REQ-04-26
  Scenario: methods of the method blocklist are refused
    Given the server runs in "full" mode
    And the server setting "method_blocklist" is "action_confirm"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "sale.order", "method": "action_confirm", "args": [[1]]}
      """
    Then the call fails with error code "METHOD_BLOCKED"
    And Odoo received no call
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "sudo", "args": []}
      """
    Then the call fails with error code "METHOD_BLOCKED"

  @REQ-04-26
  Scenario: keyword arguments of NO_KWARGS_METHODS are stripped with a warning
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "search_count", "args": [[["is_company", "=", true]]], "kwargs": {"limit": 1}}
      """
    Then the call succeeds
    And the result "result" is 12
    And the result "warnings[0]" matches the pattern ".*takes no keyword arguments.*limit.*"

  @REQ-04-28
  Scenario: name_get through execute works on Odoo 17 and later
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "name_get", "args": [[9]]}
      """
    Then the call succeeds
    And the result "result" is [[9, "Acme Corporation"]]

  @REQ-04-25
  Scenario: an unknown method is a not-found error naming the method
    Given the server runs in "full" mode
    When the client calls "odoo_core_execute" with:
      """
      {"model": "sale.order", "method": "action_does_not_exist", "args": [[1]]}
      """
    Then the call fails with error code "METHOD_NOT_FOUND"
    And the result "message" matches the pattern ".*action_does_not_exist.*"
