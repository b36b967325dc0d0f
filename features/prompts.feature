@SPEC-06 @needs_prompts
Feature: Prompts
  Five prompts built from live metadata, naming only the tools this server registered.

  @REQ-06-17 @REQ-06-18 @REQ-06-19 @REQ-06-20 @REQ-06-21
  Scenario: the five prompts are listed with their arguments
    When the client lists the prompts
    Then [for REQ-06-17] the listed prompt "odoo_overview" has the required arguments []
    And [for REQ-06-18] the listed prompt "odoo_domain_help" has the required arguments []
    And [for REQ-06-19] the listed prompt "odoo_model_guide" has the required arguments ["model_name"]
    And [for REQ-06-20] the listed prompt "odoo_create_record" has the required arguments ["model_name"]
    And [for REQ-06-21] the listed prompt "odoo_search_help" has the required arguments ["model_name", "query"]

  @REQ-06-17
  Scenario: the overview describes the instance and names only registered tools
    The seed's response template is a template: the kit checks that each of its values is
    there (version, database, uid, toolsets, tool count, the tools to start with), and only
    the reference server's own lines word for word.

    When the client gets the prompt "odoo_overview" with:
      """
      {}
      """
    Then the prompt text mentions the run's Odoo version
    And the prompt text names the Odoo database and the uid of the login
    And the prompt text names the Odoo URL the server was given
    And the prompt text names the Odoo edition
    And the prompt text names the user by login or name
    And the prompt text names every toolset odoo_core_list_toolsets gives
    And the prompt text gives the number of tools the server lists
    And the prompt text mentions "odoo_core_search_read"
    And the prompt text mentions "odoo_core_fields_get"
    And the prompt text mentions "odoo_core_list_models"
    And the prompt text mentions "res.partner"
    And [reference] the prompt text mentions each of:
      """
      ["(community) instance at http", "Database: ",
       "User: Mitchell Admin (uid: 2)", "Available toolsets: core", "Total tools: ",
       "Key models available: ", "To get started:"]
      """
    And [decision 32] the prompt text does not mention "odoo_core_create"
    And [decision 32] the prompt text does not mention "odoo_sales_"

  @REQ-06-18
  Scenario: the domain help carries the whole domain reference
    The seed asks for the complete L2/04a reference: the prefix operators, the 16 operators,
    their notes, field paths, dates, the x2many commands, the common patterns, the validation
    rules and the INVALID_DOMAIN error.

    When the client gets the prompt "odoo_domain_help" with:
      """
      {}
      """
    Then the prompt text mentions each of:
      """
      ["=", "!=", ">", ">=", "<", "<=", "like", "not like", "ilike", "not ilike", "=like",
       "=ilike", "in", "not in", "child_of", "parent_of"]
      """
    And the prompt text mentions each of:
      """
      ["&", "|", "[]", "UTC", "YYYY-MM-DD", "HH:MM:SS", "active_test", "INVALID_DOMAIN",
       "validation"]
      """
    And the prompt text shows the x2many commands 0 to 6 as triples
    And [reference] the prompt text mentions "[6, 0, [ids]]"
    And [reference] the prompt text mentions each of:
      """
      ["prefix (Polish)", "implicitly AND-ed", "| child_of | record or its descendants",
       "ANY related", "deeper than 4", "reduces to one expression", "['field', '=', False]",
       "partner_id.country_id.code",
       "\"code\": \"INVALID_DOMAIN\""]
      """

  @REQ-06-19
  Scenario: the model guide shows fields, states, operations and relations from live metadata
    The template's sections are checked by what they hold (the description, the state
    values, a domain on the model's fields, the related models); the headings as the
    reference words them.

    When the client gets the prompt "odoo_model_guide" with:
      """
      {"model_name": "sale.order"}
      """
    Then the prompt text mentions "partner_id"
    And the prompt text gives the description of "sale.order"
    And the prompt text shows every value of the "state" selection of "sale.order"
    And the prompt text mentions "action_confirm"
    And the prompt text mentions "odoo_core_search_read"
    And the prompt text contains a domain on a field of "sale.order"
    And the prompt text mentions "res.partner"
    And the prompt text mentions "sale.order.line"
    And [reference] the prompt text mentions "partner_id (many2one -> res.partner)"
    And [reference] the prompt text mentions each of:
      """
      ["# Guide: sale.order (Sales Order)", "## Fields", "Required when creating:",
       "Key fields:", "## States", "## Common Operations", "- Key filters:",
       "## Related Models", "## Tips"]
      """
    And [decision 32] the prompt text does not mention "odoo_core_create"

  @REQ-06-20
  Scenario: the create guide lists required fields, defaults, examples and how to fill relations
    Given the server runs in "full" mode
    When the client gets the prompt "odoo_create_record" with:
      """
      {"model_name": "sale.order"}
      """
    Then the prompt text lists every required field of "sale.order" with its type and label
    And the prompt text shows a default value that default_get gives for "sale.order"
    And the prompt text gives an example value for every required field of "sale.order"
    And the prompt text says to search "res.partner" to fill "partner_id"
    And [reference] the prompt text mentions "odoo_core_search_read on res.partner"
    And [reference] the prompt text mentions "## Example values for common fields"
    And [reference] the prompt text mentions "odoo_core_create {"

  @REQ-06-20
  Scenario: in readonly mode the create guide does not send the client to a hidden tool
    When the client gets the prompt "odoo_create_record" with:
      """
      {"model_name": "res.partner"}
      """
    Then [reference] the prompt text mentions "not available"
    And [decision 32] the prompt text does not mention "odoo_core_create"

  @REQ-06-21
  Scenario: the search help turns a need into a domain, fields to read and a call
    When the client gets the prompt "odoo_search_help" with:
      """
      {"model_name": "res.partner", "query": "acme corporation"}
      """
    Then the prompt text contains a domain on a field of "res.partner" mentioning "acme"
    And the prompt text recommends fields of "res.partner" to read
    And the prompt text mentions "odoo_core_search_read"
    And [reference] the prompt text mentions "ilike"

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
