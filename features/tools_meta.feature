@SPEC-04
Feature: Metadata tools: fields_get, name_get, default_get
  The metadata tools describe models for a language model: summarised field definitions,
  display names on every Odoo version, and the defaults Odoo would apply.

  @REQ-04-22 @REQ-04-23
  Scenario: fields_get summarises each field for a language model
    When the client calls "odoo_core_fields_get" with:
      """
      {"model": "sale.order"}
      """
    Then the call succeeds
    And the result "model" is "sale.order"
    And [for REQ-04-23] the result "fields.partner_id" is {"label": "Customer", "type": "many2one", "required": true, "readonly": false, "relation": "res.partner"}
    And [for REQ-04-23] the result "fields.state" is {"label": "Status", "type": "selection", "required": false, "readonly": true}
    And [for REQ-04-23] the result "fields.state.selection[0]" is ["draft", "Quotation"]
    And [for REQ-04-23] each of "fields.state.selection[*]" is ["<str>", "<str>"]
    And [reference] the result has no "fields.partner_id.string"
    And [for REQ-04-23] the result has no "fields.partner_id.store"
    And [for REQ-04-23] the result "field_count" counts the items of "fields"
    And [for REQ-04-23] the result "fields" gives every field the help Odoo has for it on "sale.order"

  @REQ-04-22
  Scenario: fields_get with attributes ['*'] describes every attribute
    When the client calls "odoo_core_fields_get" with:
      """
      {"model": "res.partner", "attributes": ["*"]}
      """
    Then the call succeeds
    And the result "fields.name.label" is "Name"
    And the result "fields.name.store" is true
    And the result "fields.display_name.store" is false
    And the result "field_count" counts the items of "fields"

  @REQ-04-22
  Scenario: fields_get describes only the attributes asked for
    When the client calls "odoo_core_fields_get" with:
      """
      {"model": "sale.order", "attributes": ["string", "type"]}
      """
    Then the call succeeds
    And the result "fields.partner_id" is {"label": "Customer", "type": "many2one"}
    And the result has no "fields.partner_id.required"
    And the result has no "fields.partner_id.relation"
    And the result has no "fields.state.selection"

  @REQ-04-24
  Scenario: blocked fields are missing from fields_get
    Given the server setting "field_blocklist" is "email"
    When the client calls "odoo_core_fields_get" with:
      """
      {"model": "res.partner"}
      """
    Then the call succeeds
    And the result has no "fields.email"
    And the result has no "fields.signature"
    And the result "fields.phone.type" is "char"

  # attributes ['*'] is REQ-04-22's: a server failing it blocks this check, not fails it
  @REQ-04-22 @REQ-04-24
  Scenario: the built-in blocked fields are missing from fields_get
    When the client calls "odoo_core_fields_get" with:
      """
      {"model": "res.users", "attributes": ["*"]}
      """
    Then [needs REQ-04-22] the call succeeds
    And [needs REQ-04-22] the result "fields.login.type" is "char"
    And [for REQ-04-24] the result has no "fields.password"
    And [for REQ-04-24] the result has no "fields.signature"

  @REQ-04-28 @REQ-04-29
  Scenario: name_get returns {id, name} pairs in one call
    Given the server has already read from "res.partner"
    When the client calls "odoo_core_name_get" with:
      """
      {"model": "res.partner", "ids": [9, 3]}
      """
    Then the call succeeds
    And [for REQ-04-29] the result contains:
      """
      {"model": "res.partner", "names": [{"id": 9, "name": "Acme Corporation"}, {"id": 3, "name": "YourCompany, Mitchell Admin"}]}
      """
    And [reference] the result "names[0]" has exactly the keys "id, name"
    And [reference] Odoo received 1 call

  @REQ-04-28
  Scenario Outline: from Odoo 17 name_get reads display_name, on every protocol
    Given Odoo is version 17 or later
    And the server talks to Odoo over "<protocol>"
    And the server has already read from "res.partner"
    When the client calls "odoo_core_name_get" with:
      """
      {"model": "res.partner", "ids": [3]}
      """
    Then the call succeeds
    And the result "names" is [{"id": 3, "name": "YourCompany, Mitchell Admin"}]
    And [decision 16] Odoo received no "name_get" call
    And [reference] Odoo received 1 call

    Examples:
      | protocol |
      | xmlrpc   |
      | jsonrpc  |
      | json2    |

  @REQ-04-28
  Scenario: name_get takes 1 to 200 ids
    When the client calls "odoo_core_name_get" on "ir.model.fields" with the ids 1 to 200
    Then the call succeeds
    And the result "names" has 200 items
    When the client calls "odoo_core_name_get" on "ir.model.fields" with the ids 1 to 201
    Then the call is rejected with JSON-RPC error -32602
    And Odoo received no call
    When the client calls "odoo_core_name_get" with:
      """
      {"model": "res.partner", "ids": []}
      """
    Then the call is rejected with JSON-RPC error -32602

  @REQ-04-30 @REQ-04-31
  Scenario: default_get returns Odoo's defaults for the named fields
    When the client calls "odoo_core_default_get" with:
      """
      {"model": "sale.order", "fields": ["state", "company_id"]}
      """
    Then the call succeeds
    And [for REQ-04-31] the result contains:
      """
      {"model": "sale.order", "defaults": {"state": "draft", "company_id": 1}}
      """

  @REQ-04-30
  Scenario: default_get with no fields returns every default
    When the client calls "odoo_core_default_get" with:
      """
      {"model": "res.partner"}
      """
    Then the call succeeds
    And the result "defaults.active" is true
