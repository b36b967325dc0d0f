@SPEC-11
Feature: Operation modes
  The mode decides which tools exist and what may change; readonly unless configured.

  @REQ-11-01 @REQ-11-02 @REQ-11-04 @REQ-11-05
  Scenario: without a mode the server is readonly and lists no write tool
    When the client lists the tools
    Then the tool list includes "odoo_core_search_read"
    And the tool list includes "odoo_core_read"
    And the tool list includes "odoo_core_count"
    And the tool list includes "odoo_core_fields_get"
    And the tool list includes "odoo_core_name_get"
    And the tool list includes "odoo_core_default_get"
    And the tool list includes "odoo_core_list_models"
    And the tool list includes "odoo_core_list_toolsets"
    And the tool list includes "odoo_core_execute"
    And the tool list does not include "odoo_core_create"
    And the tool list does not include "odoo_core_write"
    And the tool list does not include "odoo_core_unlink"
    And no listed tool changes data, except "odoo_core_execute"

  @REQ-11-01 @REQ-11-04
  Scenario: restricted mode lists create and write but not unlink
    Given the server runs in "restricted" mode
    And the server setting "write_allowlist" is "crm.lead"
    When the client lists the tools
    Then the tool list includes "odoo_core_create"
    And the tool list includes "odoo_core_write"
    And the tool list includes "odoo_core_execute"
    And the tool list does not include "odoo_core_unlink"
    And no listed tool is destructive

  @REQ-11-01 @REQ-11-04
  Scenario: full mode lists every tool
    Given the server runs in "full" mode
    When the client lists the tools
    Then the tool list includes "odoo_core_create"
    And the tool list includes "odoo_core_write"
    And the tool list includes "odoo_core_unlink"
    And the tool list includes "odoo_core_execute"
    And the tool list includes "odoo_core_list_toolsets"

  @REQ-11-05
  Scenario: a hidden tool is an unknown tool
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "res.partner", "ids": [9]}
      """
    Then the call is rejected with JSON-RPC error -32601
    And Odoo received no call

  @REQ-11-03
  Scenario: readonly mode refuses a changing method before Odoo is called
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "write", "args": [[9], {"name": "x"}]}
      """
    Then the call fails with error code "MODE_VIOLATION"
    And [reference] the result "message" matches the pattern ".*readonly.*"
    And Odoo received no call

  @REQ-11-03
  Scenario: restricted mode refuses changes outside the write allowlist, before Odoo
    Given the server runs in "restricted" mode
    And the server setting "write_allowlist" is "crm.lead"
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [9], "values": {"name": "x"}}
      """
    Then the call fails with error code "MODE_VIOLATION"
    And the result "message" matches the pattern ".*crm\.lead.*"
    And Odoo received no call
    When the client calls "odoo_core_execute" with:
      """
      {"model": "sale.order", "method": "action_confirm", "args": [[1]]}
      """
    Then the call fails with error code "MODE_VIOLATION"
    And Odoo received no call

  @REQ-11-03
  Scenario: full mode has no mode restriction
    Given the server runs in "full" mode
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [10], "values": {"function": "Buyer"}}
      """
    Then the call succeeds

  @REQ-11-02
  Scenario: the mode comes from the configuration file too
    Given the server configuration file holds:
      """
      {"mode": "full"}
      """
    When the client lists the tools
    Then the tool list includes "odoo_core_unlink"
