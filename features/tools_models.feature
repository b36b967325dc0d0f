@SPEC-04
Feature: odoo_core_list_models
  The models the user may read, never a blocked one, without one Odoo call per model.

  @REQ-04-32 @REQ-04-33
  Scenario: list_models lists readable models with their metadata
    When the client calls "odoo_core_list_models" without arguments
    Then the call succeeds
    And the result contains:
      """
      {"models": "<list>"}
      """
    And the result "models[0].model" is "<str>"
    And the result "models[0].name" is "<str>"
    And the result "models[0].transient" is false
    And the result "count" counts the items of "models"
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "sale.order"}
      """
    Then the result contains:
      """
      {"count": 2, "models": [
        {"model": "sale.order", "name": "Sales Order", "transient": false},
        {"model": "sale.order.line", "name": "Sales Order Line", "transient": false}]}
      """
    And [for REQ-04-33] every item of "models" has the key "access"
    # seed: "access": "read,write,create": the operations allowed, read always among them
    And [for REQ-04-33] the result "models[*].access" matches the pattern "(?=.*\bread\b)(read|write|create|unlink)(,\s*(read|write|create|unlink))*"
    And [for REQ-04-33] each of "models[*].field_count" is "<int>"
    And [reference] the result "models[*].access" is ["read,write,create,unlink", "read,write,create,unlink"]

  @REQ-04-33 @reference
  Scenario: each model gives the access the user has
    Given the server connects to Odoo as the demo user
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "sale.order"}
      """
    Then [seed] every item of "models" has the key "access"
    And the result "models[*].access" is ["read,write,create", "read,write,create,unlink"]
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "account.move"}
      """
    Then the result "models[*].access" is ["read", "read"]
    # Odoo lets only "Access Rights" read ir.model and the ACL lines: the reference asks
    # get_available_models, then check_access_rights of write/create/unlink per listed model,
    # then (ir.model.fields is refused too) the user's fields_get of each, for field_count
    And [reference] Odoo received at most 10 calls

  # seed: "field_count": 85, an integer: the model's fields as Odoo describes them; the
  # demo user may not read ir.model.fields, yet the count is the same (it was null for that
  # user where the server held no metadata yet, e.g. an HTTP caller)
  @REQ-04-33
  Scenario: field_count is the number of fields Odoo has for each model
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "sale.order"}
      """
    Then the call succeeds
    And each "field_count" of "models" is the number of fields Odoo has for its "model"

  @REQ-04-33
  Scenario: field_count is the number of fields Odoo has, for the demo user too
    Given the server connects to Odoo as the demo user
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "account.move"}
      """
    Then the call succeeds
    And the result "models[*].model" is ["account.move", "account.move.line"]
    And each "field_count" of "models" is the number of fields Odoo has for its "model"

  @REQ-04-32
  Scenario: the filter matches model names with ilike
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "sale.order"}
      """
    Then the call succeeds
    And the result "models[*].model" is ["sale.order", "sale.order.line"]

  @REQ-04-32 @reference
  Scenario: the filter matches the model's description too
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "journal"}
      """
    Then the result "models[*].model" is ["account.journal", "account.move", "account.move.line"]

  @REQ-04-32
  Scenario: transient models only on request
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "backorder"}
      """
    Then the result "models" is []
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "backorder", "transient": true}
      """
    Then the result "models[*].model" is ["stock.backorder.confirmation", "stock.backorder.confirmation.line"]
    And each of "models[*].transient" is true
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "account.pay", "transient": true}
      """
    Then the result "models[*].model" is ["account.payment", "account.payment.method.line", "account.payment.register", "account.payment.term"]
    And the result "models[*].transient" is [false, false, true, false]
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "no.such.model"}
      """
    Then the result contains:
      """
      {"models": [], "count": 0}
      """

  @REQ-04-34
  Scenario: blocked models are never listed
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "ir."}
      """
    Then the call succeeds
    And the response text does not contain "ir.config_parameter"
    And the response text does not contain "ir.model.access"
    And the response text does not contain "ir.cron"

  @REQ-04-34
  Scenario: a model the operator blocked is not listed
    Given the server setting "model_blocklist" is "crm.lead"
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "crm"}
      """
    Then the call succeeds
    And the result "models[*].model" is ["crm.lost.reason", "crm.stage", "crm.team"]

  @REQ-04-34
  Scenario: with a model allowlist only the allowed models are listed
    Given the server setting "model_allowlist" is "res.partner, sale.order"
    When the client calls "odoo_core_list_models" without arguments
    Then the call succeeds
    And the result "models[*].model" is ["res.partner", "sale.order"]

  @REQ-04-34
  Scenario: a user only sees the models Odoo lets them read
    Given the server connects to Odoo as the demo user
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "account.pay"}
      """
    Then the call succeeds
    And the result "models[*].model" is ["account.payment.method.line", "account.payment.term"]
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "account.move"}
      """
    Then the result "models[*].model" is ["account.move", "account.move.line"]

  @REQ-04-34
  Scenario: the administrator sees the models the demo user may not read
    When the client calls "odoo_core_list_models" with:
      """
      {"filter": "account.pay"}
      """
    Then the result "models[*].model" is ["account.payment", "account.payment.method.line", "account.payment.term"]

  # three calls for the models and the access (whatever their number), a fourth for the field
  # counts of the models whose metadata the server does not hold yet
  @REQ-04-34
  Scenario: list_models costs at most four Odoo calls
    When the client calls "odoo_core_list_models" without arguments
    Then the call succeeds
    And [reference] Odoo received at most 4 calls
