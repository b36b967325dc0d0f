@SPEC-04
Feature: Write tools: odoo_core_create, odoo_core_write, odoo_core_unlink
  Writes go through the mode and the lists before Odoo is called, and say what they did.

  Background:
    Given the server runs in "full" mode

  @REQ-04-08 @REQ-04-10
  Scenario: create makes a record and returns its id, the model and a message
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit Created Partner", "email": "kit@example.com"}}
      """
    Then the call succeeds
    And the result "model" is "res.partner"
    And the result "id" is "<int>"
    And the result "message" matches the pattern "Created res.partner record with ID \d+"
    And Odoo received 1 "create" call
    When the client remembers the result "id" as "new"
    And the client calls "odoo_core_read" with:
      """
      {"model": "res.partner", "ids": ["$new"], "fields": ["name", "email"]}
      """
    Then the result "records[0].name" is "Kit Created Partner"

  @REQ-04-11
  Scenario: a create Odoo rejects says what is missing and how to fix it
    When the client calls "odoo_core_create" with:
      """
      {"model": "sale.order", "values": {"note": "no customer"}}
      """
    Then the call fails with error code "MISSING_REQUIRED_FIELD"
    And the error category is "validation"
    And the result "details.field" is "partner_id"
    And the result "suggestion" matches the pattern ".*partner_id.*"
    And the result "retry" is true

  @REQ-04-09 @REQ-04-13
  Scenario: restricted mode writes only to write-allowlisted models
    Given the server runs in "restricted" mode
    And the server setting "write_allowlist" is "crm.lead"
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Not allowed"}}
      """
    Then the call fails with error code "MODE_VIOLATION"
    And Odoo received no call
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [9], "values": {"name": "Not allowed"}}
      """
    Then the call fails with error code "MODE_VIOLATION"
    And Odoo received no call
    When the client calls "odoo_core_create" with:
      """
      {"model": "crm.lead", "values": {"name": "Allowed lead"}}
      """
    Then the call succeeds

  @REQ-04-09 @REQ-04-13
  Scenario: readonly mode offers no create or write
    Given the server runs in "readonly" mode
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Not allowed"}}
      """
    Then the call is rejected with JSON-RPC error -32601
    And Odoo received no call
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [9], "values": {"name": "Not allowed"}}
      """
    Then the call is rejected with JSON-RPC error -32601

  @REQ-04-12 @REQ-04-15
  Scenario: write updates the records and reports them
    Given the server has already read from "res.partner"
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [10, 11], "values": {"website": "https://kit.example.com"}}
      """
    Then the call succeeds
    And the result contains:
      """
      {"success": true, "model": "res.partner", "ids": [10, 11], "message": "Updated 2 res.partner record(s)"}
      """
    And Odoo received 1 "write" call
    When the client calls "odoo_core_read" with:
      """
      {"model": "res.partner", "ids": [10, 11], "fields": ["website"]}
      """
    Then each of "records[*].website" is "https://kit.example.com"

  @REQ-04-14
  Scenario: write refuses blocked fields before calling Odoo
    Given the server setting "field_blocklist" is "website"
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [10], "values": {"website": "https://x.example.com"}}
      """
    Then the call fails with error code "FIELD_BLOCKED"
    And Odoo received no call

  @REQ-04-14
  Scenario: write refuses readonly fields unless the context allows them
    When the client calls "odoo_core_write" with:
      """
      {"model": "sale.order", "ids": [1], "values": {"amount_total": 1.0}}
      """
    Then the call fails with error code "VALIDATION_ERROR"
    And the response text contains "readonly"
    And Odoo received no "write" call

  @REQ-04-16 @REQ-04-19
  Scenario: unlink deletes the records and reports them
    Given a "res.partner" record created outside the server as "doomed" with:
      """
      {"name": "Doomed Partner"}
      """
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "res.partner", "ids": ["$doomed"]}
      """
    Then the call succeeds
    And the result contains:
      """
      {"success": true, "model": "res.partner", "deleted_ids": ["$doomed"], "message": "Deleted 1 res.partner record(s)"}
      """
    When the client calls "odoo_core_read" with:
      """
      {"model": "res.partner", "ids": ["$doomed"], "fields": ["name"]}
      """
    Then the result "missing_ids" is ["$doomed"]

  @REQ-04-17
  Scenario: unlink is refused outside full mode and on blocked models
    Given the server runs in "restricted" mode
    And the server setting "write_allowlist" is "res.partner"
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "res.partner", "ids": [10]}
      """
    Then the call is rejected with JSON-RPC error -32601
    And Odoo received no call

  @REQ-04-17
  Scenario: unlink on a blocked model is refused in full mode
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "ir.cron", "ids": [1]}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call

  @REQ-04a-10 @REQ-04a-11
  Scenario: x2many commands create and link related records
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit Company", "is_company": true,
        "child_ids": [[0, 0, {"name": "Kit Contact"}]], "category_id": [[6, 0, [1, 2]]]}}
      """
    Then the call succeeds
    When the client remembers the result "id" as "company"
    And the client calls "odoo_core_read" with:
      """
      {"model": "res.partner", "ids": ["$company"], "fields": ["child_ids", "category_id"]}
      """
    Then the result "records[0].category_id" is [1, 2]
    And the result "records[0].child_ids" has 1 items

  @REQ-04a-11
  Scenario Outline: a malformed x2many command is refused before Odoo is called
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [9], "values": {"category_id": <command>}}
      """
    Then the call fails with error code "INVALID_X2MANY_COMMAND"
    And the result "suggestion" matches the pattern ".*\[6, 0, \[ids\]\].*"
    And Odoo received no "write" call

    Examples:
      | command          |
      | [[7, 0, 0]]      |
      | [[6, 0, 5]]      |
      | [[4, [1, 2], 0]] |
      | [[0, 0, [1]]]    |
