@SPEC-04
Feature: Read tools: odoo_core_search_read, odoo_core_read, odoo_core_count
  The read tools find and return records with their fields normalised, in one Odoo round trip
  once the model's field metadata is known.

  Background:
    Given the server has already read from "res.partner"

  @REQ-04-01 @REQ-04-03
  Scenario: search_read returns the matching records with the result envelope
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["is_company", "=", true]], "fields": ["name"], "limit": 3, "order": "id"}
      """
    Then the call succeeds
    And the result contains:
      """
      {"model": "res.partner", "limit": 3, "offset": 0, "has_more": true,
       "records": [{"id": 1, "name": "YourCompany"}, {"id": 9, "name": "Acme Corporation"},
                   {"id": 10, "name": "Gemini Furniture"}]}
      """
    # the seed's count fits both readings: the records returned (3) or all matches (12)
    And [for REQ-04-03] the result "count" takes one of the values [3, 12]
    And [decision 41] the result "count" is 3
    And [reference] the result "records[0]" has exactly the keys "id, name"
    And [reference] Odoo received 1 "search_read" call
    And [reference] Odoo received 1 call

  @REQ-04-01
  Scenario: search_read pages with offset
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["is_company", "=", true]], "fields": ["name"], "limit": 2, "offset": 1, "order": "id"}
      """
    Then the result "records[*].id" is [9, 10]
    And the result "offset" is 1

  @REQ-04-01
  Scenario: search_read sorts by the order given
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["is_company", "=", true]], "fields": ["name"], "limit": 3, "order": "name desc"}
      """
    Then the result "records[*].name" is ["YourCompany", "Yerbatería La Tradición", "Wood Corner"]

  @REQ-04-01 @REQ-04-20
  Scenario: the context reaches Odoo: archived records with active_test false
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["name", "=", "Deco Addict"]], "fields": ["name"]}
      """
    Then the result "records" is []
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["name", "=", "Deco Addict"]], "fields": ["name"], "context": {"active_test": false}}
      """
    Then the result "records" is [{"id": 17, "name": "Deco Addict"}]
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner", "context": {"active_test": false}}
      """
    Then [for REQ-04-20] the result "count" is 54

  @REQ-04-01
  Scenario: search_read without fields returns id, name and display_name
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["id", "=", 9]]}
      """
    Then the result "records" is [{"id": 9, "name": "Acme Corporation", "display_name": "Acme Corporation"}]
    And [reference] the result "records[0]" has exactly the keys "id, name, display_name"

  @REQ-04-04
  Scenario: has_more is false when fewer records than the limit came back
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["is_company", "=", true]], "fields": ["name"], "limit": 500}
      """
    Then the result "count" is 12
    And the result "has_more" is false

  @REQ-04-04
  Scenario: has_more is true when exactly the limit came back
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["is_company", "=", true]], "fields": ["name"], "limit": 12}
      """
    Then the result "count" is 12
    And the result "has_more" is true

  @REQ-04-01 @REQ-04-04
  Scenario: without a limit search_read returns at most 80 records
    Given the server has already read from "ir.model.fields"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "ir.model.fields", "fields": ["name"]}
      """
    Then the call succeeds
    And the result contains:
      """
      {"limit": 80, "offset": 0, "has_more": true}
      """
    And the result "records" has 80 items
    And [decision 41] the result "count" is 80
    And [reference] Odoo received 1 call

  # "Enforce the maximum limit (500) even if the caller requests more": clamping the limit
  # and refusing it with -32602 (the seed's schema says maximum 500) both enforce it; we clamp.
  @REQ-04-02
  Scenario: a limit above 500 never brings more than 500 records
    Given the server has already read from "ir.model.fields"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "ir.model.fields", "fields": ["name"], "limit": 100000}
      """
    Then the search returns at most 500 records or is rejected with JSON-RPC error -32602
    And [decision 41] the call succeeds
    And [decision 41] the result contains:
      """
      {"count": 500, "limit": 500}
      """
    And [decision 41] the result "records" has 500 items
    And [reference] Odoo received 1 call

  @REQ-04-01
  Scenario Outline: a limit below 1 or a negative offset breaks the input schema
    When the client calls "odoo_core_search_read" with:
      """
      <arguments>
      """
    Then the call is rejected with JSON-RPC error -32602
    And Odoo received no call

    Examples:
      | arguments                                        |
      | {"model": "res.partner", "limit": 0}             |
      | {"model": "res.partner", "limit": -5}            |
      | {"model": "res.partner", "offset": -1}           |

  @REQ-04-02
  Scenario: the model and the fields are checked before Odoo is called
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "ir.config_parameter", "fields": ["key", "value"]}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "fields": ["name", "signature"]}
      """
    Then the answer does not show the field "signature"
    And [reference] the call fails with error code "FIELD_BLOCKED"
    And [reference] Odoo received no call

  @REQ-04-02
  Scenario: fields ['*'] asks Odoo for every field
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["id", "=", 9]], "fields": ["*"]}
      """
    Then the call succeeds
    And every item of "records" has the key "street"
    And every item of "records" has the key "country_id"
    And every item of "records" has the key "write_date"
    And every item of "records" has the key "company_type"

  @REQ-04-06 @REQ-04-07
  Scenario: read returns the existing records and lists the missing ids
    When the client calls "odoo_core_read" with:
      """
      {"model": "res.partner", "ids": [9, 999999, 10], "fields": ["name"]}
      """
    Then the call succeeds
    And the result "records[*].id" is [9, 10]
    And the result "records[*].name" is ["Acme Corporation", "Gemini Furniture"]
    And the result "missing_ids" is [999999]
    And [reference] Odoo received 1 call

  @REQ-04-07
  Scenario Outline: missing ids are reported on every protocol
    Given the server talks to Odoo over "<protocol>"
    When the client calls "odoo_core_read" with:
      """
      {"model": "res.partner", "ids": [999998, 9], "fields": ["name"]}
      """
    Then the call succeeds
    And the result "records[*].id" is [9]
    And the result "missing_ids" is [999998]

    Examples:
      | protocol |
      | xmlrpc   |
      | jsonrpc  |
      | json2    |

  @REQ-04-06
  Scenario: read without fields returns the stored fields
    When the client calls "odoo_core_read" with:
      """
      {"model": "res.partner", "ids": [9]}
      """
    Then the call succeeds
    And every item of "records" has the key "email"
    And every item of "records" has the key "country_id"
    And every item of "records" has the key "child_ids"
    And every item of "records" has the key "write_date"
    And no item of "records" has the key "parent_name"
    And no item of "records" has the key "company_type"

  @REQ-04-06 @REQ-04-07
  Scenario: read takes up to 100 ids in one call
    When the client calls "odoo_core_read" on "res.partner" with the ids 1 to 100
    Then the call succeeds
    And the result "records" has 54 items
    And the result "missing_ids" has 46 items
    And the result "missing_ids[0]" is 8
    And [reference] Odoo received 1 call

  @REQ-04-06
  Scenario: read refuses no ids or more than 100 ids
    When the client calls "odoo_core_read" on "res.partner" with the ids 1 to 101
    Then the call is rejected with JSON-RPC error -32602
    And Odoo received no call
    When the client calls "odoo_core_read" with:
      """
      {"model": "res.partner", "ids": []}
      """
    Then the call is rejected with JSON-RPC error -32602

  @REQ-04-20 @REQ-04-21
  Scenario: count returns the number of matching records, the model and the domain
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner", "domain": [["is_company", "=", true]]}
      """
    Then the call succeeds
    And the result "count" is 12
    And [for REQ-04-21] the result contains:
      """
      {"model": "res.partner", "count": 12, "domain": [["is_company", "=", true]]}
      """
    And [reference] Odoo received 1 "search_count" call
    And [reference] Odoo received 1 call

  @REQ-04-20
  Scenario: count without a domain counts every record
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner"}
      """
    Then the result "count" is 48

  @REQ-04-38
  Scenario: search_read and count describe the domain syntax
    When the client lists the tools
    Then the tool "odoo_core_search_read" description names each of ["=", "!=", ">", ">=", "<", "<=", "like", "ilike", "in", "not in", "child_of", "parent_of", "|", "&", "!"]
    And the tool "odoo_core_search_read" description contains "prefix notation"
    And the tool "odoo_core_count" description names each of ["=", "!=", ">", ">=", "<", "<=", "like", "ilike", "in", "not in", "child_of", "parent_of", "|", "&", "!"]
    And the tool "odoo_core_count" description contains "prefix notation"
    # the seed's reference shows examples: all records, an OR in prefix form, a related path
    And the tool "odoo_core_search_read" description matches the pattern "\[\s*\]"
    And the tool "odoo_core_search_read" description matches the pattern "\[\s*['\"]\|['\"]\s*,"
    And the tool "odoo_core_search_read" description matches the pattern "['\"]\w+(\.\w+)+['\"]\s*,\s*['\"][^'\"]+['\"]"
    And the tool "odoo_core_count" description matches the pattern "\[\s*\]"
    And the tool "odoo_core_count" description matches the pattern "\[\s*['\"]\|['\"]\s*,"
    And the tool "odoo_core_count" description matches the pattern "['\"]\w+(\.\w+)+['\"]\s*,\s*['\"][^'\"]+['\"]"

  @REQ-04-01
  Scenario: search_read's input schema has the spec's defaults and bounds
    When the client lists the tools
    Then the tool "odoo_core_search_read" input schema contains:
      """
      {"required": ["model"], "properties": {
        "limit": {"default": 80, "minimum": 1},
        "offset": {"default": 0, "minimum": 0},
        "fields": {"default": ["id", "name", "display_name"]},
        "domain": {"default": []}}}
      """
