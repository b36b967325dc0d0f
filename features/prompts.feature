@SPEC-06 @needs_prompts
Feature: Prompts
  Five prompts built from live metadata, naming only the tools this server registered.

  @REQ-06-17 @REQ-06-18 @REQ-06-19 @REQ-06-20 @REQ-06-21
  Scenario: the five prompts are listed with their arguments
    When the client lists the prompts
    Then the result "prompts" is {"odoo_overview": [], "odoo_domain_help": [], "odoo_model_guide": ["model_name"], "odoo_create_record": ["model_name"], "odoo_search_help": ["model_name", "query"]}

  @REQ-06-17
  Scenario: the overview describes the instance and names only registered tools
    When the client gets the prompt "odoo_overview" with:
      """
      {}
      """
    Then the prompt text mentions "Odoo 19.0"
    And the prompt text mentions "odoo_core_search_read"
    And [reference] the prompt text does not mention "odoo_core_create"
    And [reference] the prompt text does not mention "odoo_sales_"

  @REQ-06-18
  Scenario: the domain help carries the whole domain reference
    When the client gets the prompt "odoo_domain_help" with:
      """
      {}
      """
    Then the prompt text mentions "child_of"
    And the prompt text mentions "=ilike"
    And the prompt text mentions "active_test"
    And the prompt text mentions "[ids]"
    And [reference] the prompt text mentions "[6, 0, [ids]]"

  @REQ-06-19
  Scenario: the model guide shows fields, states and relations from live metadata
    When the client gets the prompt "odoo_model_guide" with:
      """
      {"model_name": "sale.order"}
      """
    Then the prompt text mentions "partner_id"
    And the prompt text mentions "action_confirm"
    And the prompt text mentions "res.partner"
    And [reference] the prompt text mentions "partner_id (many2one -> res.partner)"

  @REQ-06-20
  Scenario: the create guide lists required fields and how to fill relations
    Given the server runs in "full" mode
    When the client gets the prompt "odoo_create_record" with:
      """
      {"model_name": "sale.order"}
      """
    Then the prompt text mentions "partner_id"
    And the prompt text mentions "res.partner"
    And [reference] the prompt text mentions "odoo_core_search_read on res.partner"
    And [reference] the prompt text mentions "odoo_core_create"

  @REQ-06-20
  Scenario: in readonly mode the create guide does not send the client to a hidden tool
    When the client gets the prompt "odoo_create_record" with:
      """
      {"model_name": "res.partner"}
      """
    Then [reference] the prompt text mentions "not available"

  @REQ-06-21
  Scenario: the search help turns a need into a domain and a call
    When the client gets the prompt "odoo_search_help" with:
      """
      {"model_name": "res.partner", "query": "acme corporation"}
      """
    Then [reference] the prompt text mentions "ilike"
    And the prompt text mentions "acme"
    And the prompt text mentions "odoo_core_search_read"

  @REQ-06-22
  Scenario: prompts refuse blocked models and never show blocked fields
    When the client gets the prompt "odoo_model_guide" with:
      """
      {"model_name": "ir.config_parameter"}
      """
    Then [decision 27] the request is refused with JSON-RPC error -32001 carrying a SPEC-10 error
    When the client gets the prompt "odoo_model_guide" with:
      """
      {"model_name": "res.users"}
      """
    Then the prompt text does not mention "password"
    And the prompt text does not mention "signature"
