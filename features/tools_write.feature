@SPEC-04
Feature: Write tools: odoo_core_create, odoo_core_write, odoo_core_unlink
  Writes go through the mode and the lists before Odoo is called, do what they say in Odoo,
  and say what they did. Effects are checked in Odoo itself, not through the server.

  Background:
    Given the server runs in "full" mode

  # -- input schemas ---------------------------------------------------------------------------

  @REQ-04-08 @REQ-04-12 @REQ-04-16
  Scenario: the input schemas of create, write and unlink follow the spec
    When the client lists the tools
    Then the tool "odoo_core_create" input schema requires exactly "model, values"
    And the tool "odoo_core_create" input schema contains:
      """
      {"properties": {"model": {"type": "string"}, "values": {"type": "object"}, "context": "<dict>"}}
      """
    And the tool "odoo_core_write" input schema requires exactly "model, ids, values"
    And the tool "odoo_core_write" input schema contains:
      """
      {"properties": {"model": {"type": "string"}, "values": {"type": "object"}, "context": "<dict>",
        "ids": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 100}}}
      """
    And the tool "odoo_core_unlink" input schema requires exactly "model, ids"
    And the tool "odoo_core_unlink" input schema contains:
      """
      {"properties": {"model": {"type": "string"}, "context": "<dict>",
        "ids": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 50}}}
      """

  @REQ-04-12 @REQ-04-16
  Scenario: write and unlink refuse more ids than their bounds before calling Odoo
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "res.partner", "ids": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
        21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
        41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51]}
      """
    Then the call is refused
    And Odoo received no call
    And the "res.partner" record "13" still exists in Odoo
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [], "values": {"name": "Kit Nobody"}}
      """
    Then the call is refused
    And Odoo received no call

  # -- odoo_core_create ------------------------------------------------------------------------

  @REQ-04-08 @REQ-04-10
  Scenario: create makes the record in Odoo and returns its id, the model and a message
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit Created Partner", "email": "kit@example.com"}}
      """
    Then the call succeeds
    And [for REQ-04-10] the result "model" is "res.partner"
    And [for REQ-04-10] the result "id" is "<int>"
    And [for REQ-04-10] the result "message" is "<str>"
    And [reference] Odoo received 1 "create" call
    And Odoo has 1 "res.partner" record matching [["name", "=", "Kit Created Partner"]]
    # issue 36: an answer without the id is REQ-04-10's defect; it blocks the checks below
    When [needs REQ-04-10] the client remembers the result "id" as "new"
    # seed: "Created res.partner record with ID 42": the message names the model and the id
    Then [for REQ-04-10] the result "message" mentions "res.partner"
    And [for REQ-04-10] the result "message" mentions "{new}"
    And [reference] the result "message" mentions "Created res.partner record with ID {new}"
    And the "res.partner" record "new" in Odoo has:
      """
      {"name": "Kit Created Partner", "email": "kit@example.com"}
      """

  @REQ-04-08
  Scenario: create passes the call's context to Odoo
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit Context Partner"},
       "context": {"default_website": "https://context.example.com"}}
      """
    Then the call succeeds
    When [needs REQ-04-10] the client remembers the result "id" as "new"
    Then the "res.partner" record "new" in Odoo has:
      """
      {"name": "Kit Context Partner", "website": "https://context.example.com"}
      """

  @REQ-04-11
  Scenario: a create Odoo rejects for a missing required field says which field and how to fix it
    When the client calls "odoo_core_create" with:
      """
      {"model": "sale.order", "values": {"note": "Kit order without customer"}}
      """
    Then the call fails with a tool error
    And [decision 22] the call fails with error code "MISSING_REQUIRED_FIELD"
    And the error category is "validation"
    And the error names the field "partner_id"
    And the result "suggestion" matches the pattern "(?s).*partner_id.*"
    And the result "retry" is true
    And Odoo has 0 "sale.order" records matching [["note", "=", "Kit order without customer"]]

  @REQ-04-11
  Scenario: a create Odoo rejects for an unknown field names the field and how to fix it
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit Bad Field", "kit_no_such": 1}}
      """
    Then the call fails with a tool error
    And [decision 22] the call fails with error code "INVALID_FIELD"
    And the error category is "validation"
    And the error names the field "kit_no_such"
    And the result "suggestion" matches the pattern "(?s).*odoo_core_\w+.*"
    And [decision 22] the result "suggestion" matches the pattern "(?s).*odoo_core_fields_get.*"
    And Odoo has 0 "res.partner" records matching [["name", "=", "Kit Bad Field"]]

  @REQ-04-11
  Scenario: a create Odoo rejects for an invalid value names the field and the value
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit Bad Value", "type": "no-such-type"}}
      """
    Then the call fails with a tool error
    And the error category is "validation"
    And the error names the field "type"
    And the result "message" matches the pattern "(?s).*no-such-type.*"
    And the result "suggestion" matches the pattern "(?s).*\S.*"
    And Odoo has 0 "res.partner" records matching [["name", "=", "Kit Bad Value"]]

  # REQ-04-09 gives a readonly create the message "Create operations are not allowed in
  # readonly mode"; SPEC-11 (REQ-11-05) hides the write tools in readonly mode, so a create is
  # a call to an unlisted tool. Either refusal is the seeds'; -32601 is decision 13.
  @REQ-04-09 @REQ-11-05
  Scenario: readonly mode offers no create
    Given the server runs in "readonly" mode
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit Readonly Partner"}}
      """
    Then the call is refused
    And [for REQ-04-09] a tool error refusing it says "Create operations are not allowed in readonly mode"
    And [decision 13] the call is rejected with JSON-RPC error -32601
    And Odoo received no call
    And Odoo has 0 "res.partner" records matching [["name", "=", "Kit Readonly Partner"]]

  @REQ-04-09 @REQ-04-13
  Scenario: restricted mode creates and writes only write-allowlisted models
    Given the server runs in "restricted" mode
    And the server setting "write_allowlist" is "crm.lead"
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit Restricted Partner"}}
      """
    Then the call fails with error code "MODE_VIOLATION"
    And Odoo received no call
    And Odoo has 0 "res.partner" records matching [["name", "=", "Kit Restricted Partner"]]
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [9], "values": {"name": "Kit Restricted Rename"}}
      """
    Then [for REQ-04-13] the call fails with error code "MODE_VIOLATION"
    And [for REQ-04-13] Odoo received no call
    And [for REQ-04-13] the "res.partner" record "9" in Odoo has:
      """
      {"name": "Acme Corporation"}
      """
    When the client calls "odoo_core_create" with:
      """
      {"model": "crm.lead", "values": {"name": "Kit Allowed Lead"}}
      """
    Then the call succeeds
    When [needs REQ-04-10] the client remembers the result "id" as "lead"
    And the client calls "odoo_core_write" with:
      """
      {"model": "crm.lead", "ids": ["$lead"], "values": {"name": "Kit Allowed Lead, renamed"}}
      """
    Then the call succeeds
    And the "crm.lead" record "lead" in Odoo has:
      """
      {"name": "Kit Allowed Lead, renamed"}
      """

  # decision 2 (SPEC-11's blocklist does not list res.users for writes): ours, not the seed's
  @REQ-04-09 @REQ-04-13 @decision-2
  Scenario: res.users is never created or written, even in full mode
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.users", "values": {"name": "Kit User", "login": "kit-user"}}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.users", "ids": [2], "values": {"login": "kit-admin"}}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call
    And Odoo has 0 "res.users" records matching [["login", "in", ["kit-user", "kit-admin"]]]

  # -- odoo_core_write -------------------------------------------------------------------------

  @REQ-04-12 @REQ-04-15
  Scenario: write changes only the given fields of the given records and reports them
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [10, 11], "values": {"website": "https://kit.example.com"}}
      """
    Then the call succeeds
    And the result contains:
      """
      {"success": true, "model": "res.partner", "ids": [10, 11], "message": "<str>"}
      """
    # seed: "Updated 2 res.partner record(s)": the message names the model and the number
    And [for REQ-04-15] the result "message" mentions "res.partner"
    And [for REQ-04-15] the result "message" mentions "2"
    And [reference] Odoo received 1 "write" call
    And the "res.partner" record "10" in Odoo has:
      """
      {"website": "https://kit.example.com", "name": "Gemini Furniture", "email": "john.b@tech.info"}
      """
    And the "res.partner" record "11" in Odoo has:
      """
      {"website": "https://kit.example.com", "name": "Ready Mat"}
      """
    And the "res.partner" record "9" in Odoo has:
      """
      {"website": false}
      """

  @REQ-04-13
  Scenario: readonly mode offers no write
    Given the server runs in "readonly" mode
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [9], "values": {"name": "Kit Readonly Rename"}}
      """
    Then the call is refused
    And [decision 13] the call is rejected with JSON-RPC error -32601
    And Odoo received no call
    And the "res.partner" record "9" in Odoo has:
      """
      {"name": "Acme Corporation"}
      """

  @REQ-04-14
  Scenario Outline: write refuses a blocked field before calling Odoo and writes nothing
    Given the server setting "field_blocklist" is "website"
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [10], "values": {"name": "Kit Blocked Rename", "<field>": "x"}}
      """
    Then the call is refused
    And [reference] the call fails with error code "FIELD_BLOCKED"
    And [reference] the response text contains "<field>"
    And Odoo received no call
    And the "res.partner" record "10" in Odoo has:
      """
      {"name": "Gemini Furniture", "website": false}
      """

    Examples:
      | field     |
      | website   |
      | signature |

  # REQ-04-14 says "unless the context explicitly allows it" without naming a key: the key
  # mcp_allow_readonly_fields is decision 23; the refusal's code and wording are ours.
  @REQ-04-14
  Scenario: write refuses a readonly field unless the call's context allows it
    Given the server has already read from "sale.order"
    When the client calls "odoo_core_write" with:
      """
      {"model": "sale.order", "ids": [1], "values": {"state": "sent"}}
      """
    Then the call is refused
    And [reference] the call fails with error code "VALIDATION_ERROR"
    And [reference] the response text contains "state"
    And [reference] the response text contains "readonly"
    And Odoo received no "write" call
    And the "sale.order" record "1" in Odoo has:
      """
      {"state": "draft"}
      """
    When the client calls "odoo_core_write" with:
      """
      {"model": "sale.order", "ids": [1], "values": {"state": "sent"},
       "context": {"mcp_allow_readonly_fields": true}}
      """
    Then [decision 23] the call succeeds
    And [reference] Odoo received 1 "write" call
    And [decision 23] the "sale.order" record "1" in Odoo has:
      """
      {"state": "sent"}
      """

  # -- odoo_core_unlink ------------------------------------------------------------------------

  @REQ-04-16 @REQ-04-19
  Scenario: unlink deletes the records from Odoo and reports them
    Given a "res.partner" record created outside the server as "doomed" with:
      """
      {"name": "Kit Doomed Partner"}
      """
    And a "res.partner" record created outside the server as "doomed2" with:
      """
      {"name": "Kit Doomed Partner 2"}
      """
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "res.partner", "ids": ["$doomed", "$doomed2"]}
      """
    Then the call succeeds
    And the result contains:
      """
      {"success": true, "model": "res.partner", "deleted_ids": ["$doomed", "$doomed2"], "message": "<str>"}
      """
    # seed: "Deleted 2 res.partner record(s)": the message names the model and the number
    And [for REQ-04-19] the result "message" mentions "res.partner"
    And [for REQ-04-19] the result "message" mentions "2"
    And [reference] Odoo received 1 "unlink" call
    And [for REQ-04-16] the "res.partner" record "doomed" no longer exists in Odoo
    And [for REQ-04-16] the "res.partner" record "doomed2" no longer exists in Odoo

  @REQ-04-17
  Scenario: readonly mode offers no unlink
    Given the server runs in "readonly" mode
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "res.partner", "ids": [13]}
      """
    Then the call is refused
    And [decision 13] the call is rejected with JSON-RPC error -32601
    And Odoo received no call
    And the "res.partner" record "13" still exists in Odoo

  @REQ-04-17
  Scenario: restricted mode offers no unlink, even on a write-allowlisted model
    Given the server runs in "restricted" mode
    And the server setting "write_allowlist" is "crm.lead"
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "crm.lead", "ids": [1]}
      """
    Then the call is refused
    And [decision 13] the call is rejected with JSON-RPC error -32601
    And Odoo received no call
    And the "crm.lead" record "1" still exists in Odoo

  @REQ-04-17
  Scenario: unlink on a model of the built-in blocklist is refused in full mode
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "ir.cron", "ids": [1]}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call

  @REQ-04-17
  Scenario: unlink on a model of the configured blocklist is refused in full mode
    Given the server setting "model_blocklist" is "crm.lead"
    And a "crm.lead" record created outside the server as "lead" with:
      """
      {"name": "Kit Protected Lead"}
      """
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "crm.lead", "ids": ["$lead"]}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call
    And the "crm.lead" record "lead" still exists in Odoo

  @REQ-04-17 @needs_audit_log
  Scenario: a deletion is recorded in the audit log
    Given the audit log is enabled
    And a "res.partner" record created outside the server as "doomed" with:
      """
      {"name": "Kit Audited Deletion"}
      """
    When the client calls "odoo_core_unlink" with:
      """
      {"model": "res.partner", "ids": ["$doomed"]}
      """
    Then the call succeeds
    And the audit log has a record for "odoo_core_unlink" with:
      """
      {"tool": "odoo_core_unlink", "model": "res.partner", "operation": "unlink", "success": true}
      """
    And the audit record of "odoo_core_unlink" names the record "doomed"

  # -- x2many commands in create and write values (L2/04a) -------------------------------------

  @L2-04a @REQ-04a-10 @REQ-04a-11
  Scenario: create takes x2many commands that create and link related records
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit Company", "is_company": true,
        "child_ids": [[0, 0, {"name": "Kit Contact"}]], "category_id": [[6, 0, [1, 2]]]}}
      """
    Then the call succeeds
    When [needs REQ-04-10] the client remembers the result "id" as "company"
    Then the "res.partner" record "company" in Odoo has:
      """
      {"category_id": [1, 2]}
      """
    And Odoo has 1 "res.partner" record matching [["name", "=", "Kit Contact"], ["parent_id", "=", "$company"]]

  @L2-04a @REQ-04a-10 @REQ-04a-11
  Scenario Outline: write applies each one2many command
    Given a "res.partner" record created outside the server as "company" with:
      """
      {"name": "Kit Parent", "is_company": true}
      """
    And a "res.partner" record created outside the server as "first" with:
      """
      {"name": "Kit First Child", "parent_id": "$company"}
      """
    And a "res.partner" record created outside the server as "second" with:
      """
      {"name": "Kit Second Child"}
      """
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": ["$company"], "values": {"child_ids": <commands>}}
      """
    Then the call succeeds
    And Odoo has <children> "res.partner" records matching [["parent_id", "=", "$company"]]
    And Odoo has <named> "res.partner" records matching [["parent_id", "=", "$company"], ["name", "=", "<name>"]]
    And Odoo has <first> "res.partner" records matching [["id", "=", "$first"]]

    Examples: children after the command, how many are named <name>, whether the first child still exists
      | commands                                   | children | name             | named | first |
      | [[0, 0, {"name": "Kit New Child"}]]        | 2        | Kit New Child    | 1     | 1     |
      | [[1, "$first", {"name": "Kit Renamed"}]]   | 1        | Kit Renamed      | 1     | 1     |
      | [[2, "$first", 0]]                         | 0        | Kit First Child  | 0     | 0     |
      | [[3, "$first", 0]]                         | 0        | Kit First Child  | 0     | 1     |
      | [[4, "$second", 0]]                        | 2        | Kit Second Child | 1     | 1     |

  @L2-04a @REQ-04a-10 @REQ-04a-11
  Scenario Outline: write applies each many2many command
    Given a "res.partner.category" record created outside the server as "tag" with:
      """
      {"name": "Kit Tag"}
      """
    And a "res.partner" record created outside the server as "partner" with:
      """
      {"name": "Kit Tagged Partner", "category_id": [[6, 0, [1, "$tag"]]]}
      """
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": ["$partner"], "values": {"category_id": <commands>}}
      """
    Then the call succeeds
    And the "res.partner" record "partner" in Odoo has:
      """
      {"category_id": <tags>}
      """
    And Odoo has <tag_kept> "res.partner.category" records matching [["id", "=", "$tag"], ["name", "=", "<tag_name>"]]
    And Odoo has <new_linked> "res.partner" records matching [["id", "=", "$partner"], ["category_id.name", "=", "Kit New Tag"]]

    Examples: the partner's tags after the command, whether "tag" still exists (and its name), whether a new tag is linked
      | commands                                    | tags           | tag_kept | tag_name        | new_linked |
      | [[0, 0, {"name": "Kit New Tag"}]]           | "<list>"       | 1        | Kit Tag         | 1          |
      | [[1, "$tag", {"name": "Kit Tag Renamed"}]]  | [1, "$tag"]    | 1        | Kit Tag Renamed | 0          |
      | [[2, "$tag", 0]]                            | [1]            | 0        | Kit Tag         | 0          |
      | [[3, "$tag", 0]]                            | [1]            | 1        | Kit Tag         | 0          |
      | [[4, 2, 0]]                                 | [1, "$tag", 2] | 1        | Kit Tag         | 0          |
      | [[5, 0, 0]]                                 | []             | 1        | Kit Tag         | 0          |
      | [[6, 0, [2]]]                               | [2]            | 1        | Kit Tag         | 0          |
      | [[5, 0, 0], [4, "$tag", 0]]                 | ["$tag"]       | 1        | Kit Tag         | 0          |

  @L2-04a @REQ-04a-11 @decision-24
  Scenario Outline: a malformed x2many command in write is refused with the command table
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [9], "values": {"category_id": <command>}}
      """
    Then the call fails with error code "INVALID_X2MANY_COMMAND"
    And the error category is "validation"
    And the suggestion shows the x2many command table
    And Odoo received no call
    And the "res.partner" record "9" in Odoo has:
      """
      {"category_id": []}
      """

    Examples:
      | command                  |
      | [[7, 0, 0]]              |
      | [["4", 1, 0]]            |
      | [[6, 0, 5]]              |
      | [[6, 0, ["a"]]]          |
      | [[4, [1, 2], 0]]         |
      | [[2, 0, 0]]              |
      | [[3, "x", 0]]            |
      | [[0, 0, [1]]]            |
      | [[1, 1]]                 |
      | [[4, 1, 0], 5]           |
      | [[4, 1, 0, 0]]           |

  @L2-04a @REQ-04a-11 @decision-24
  Scenario: a malformed x2many command in create is refused and nothing is created
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit Malformed", "child_ids": [[0, {"name": "Kit Lost"}]]}}
      """
    Then the call fails with error code "INVALID_X2MANY_COMMAND"
    And the suggestion shows the x2many command table
    And Odoo received no call
    And Odoo has 0 "res.partner" records matching [["name", "in", ["Kit Malformed", "Kit Lost"]]]
