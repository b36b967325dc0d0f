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
    And the result "fields.partner_id" is {"label": "Customer", "type": "many2one", "required": true, "relation": "res.partner"}
    And the result "fields.state.selection[0]" is ["draft", "Quotation"]
    And the result "field_count" is "<int>"

  @REQ-04-22
  Scenario: fields_get with attributes ['*'] describes every attribute
    When the client calls "odoo_core_fields_get" with:
      """
      {"model": "res.partner", "attributes": ["*"]}
      """
    Then the call succeeds
    And the result "fields.name.label" is "Name"
    And the result "fields.name.store" is true

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

  @REQ-04-24
  Scenario: the built-in blocked fields are missing from fields_get
    When the client calls "odoo_core_fields_get" with:
      """
      {"model": "res.users", "attributes": ["*"]}
      """
    Then the call succeeds
    And the result has no "fields.password"
    And the result has no "fields.signature"
    And the result "fields.login.type" is "char"

  @REQ-04-28 @REQ-04-29
  Scenario: name_get returns {id, name} pairs in one call
    Given the server has already read from "res.partner"
    When the client calls "odoo_core_name_get" with:
      """
      {"model": "res.partner", "ids": [9, 3]}
      """
    Then the call succeeds
    And the result contains:
      """
      {"model": "res.partner", "names": [{"id": 9, "name": "Acme Corporation"}, {"id": 3, "name": "YourCompany, Mitchell Admin"}]}
      """
    And Odoo received 1 call

  @REQ-04-28
  Scenario: name_get accepts at most 200 ids
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
    And the result contains:
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
