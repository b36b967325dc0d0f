@SPEC-10
Feature: Errors a language model can act on
  Every Odoo, safety and validation error comes back as a tool result holding one JSON object:
  a category, a code, a message, a suggestion naming the tool to use next, and whether a retry
  can help. Never a traceback. Classification reads what each protocol carries: XML-RPC fault
  codes and texts, JSON-RPC's data.name, JSON-2's HTTP status and error name. Unknown tools and
  arguments that break a tool's schema are JSON-RPC errors instead.

  Background:
    Given the server runs in "full" mode

  # -- The error object --------------------------------------------------------------------
  @REQ-10-01 @REQ-10-02 @REQ-10-03 @REQ-10-04 @REQ-10-06 @REQ-10-17
  Scenario: a validation error is a tool result with the full structure
    When the client calls "odoo_core_create" with:
      """
      {"model": "sale.order", "values": {"note": "no customer"}}
      """
    Then [needs REQ-10-03] the error response has the SPEC-10 structure
    And [for REQ-10-02] the error response has every key of the seed's example
    And [for REQ-10-04] the error's details and original_error are what the seed says
    And [for REQ-10-04] the error's original_error, when given, names "partner_id"
    And the error category is "validation"
    And [decision 22] the result "code" is "MISSING_REQUIRED_FIELD"
    And the result "retry" is true
    And [for REQ-10-06] the error names the model "sale.order"
    And [for REQ-10-06] the error names the field "partner_id"
    And [for REQ-10-06] the error message names "partner_id"
    And [decision 26] the result "original_error" matches the pattern "([\w.]+\.)?(ValidationError|UserError): .*\(partner_id\).*"
    # REQ-10-06: the model is the one Odoo's message names, not the one the call was on
    When the client calls "odoo_core_write" with:
      """
      {"model": "sale.order", "ids": [1], "values": {"partner_id": 999999}}
      """
    Then the error category is "not_found"
    And [for REQ-10-06] the error names the model "res.partner"

  @REQ-10-17
  Scenario Outline: <source> errors are tool results with isError, not JSON-RPC errors
    When the client calls "odoo_core_search_read" with:
      """
      <arguments>
      """
    Then the error response has the SPEC-10 structure
    And the error category is "<category>"

    Examples:
      | source     | arguments                                                 | category   |
      | safety     | {"model": "ir.config_parameter"}                          | access     |
      | validation | {"model": "res.partner", "domain": [["name", "~~", "x"]]} | validation |

    # Odoo 19's "no such model" reaches not_found only through the widened NF-002 (decision 22)
    @decision-22
    Examples:
      | source     | arguments                                                 | category   |
      | Odoo       | {"model": "no.such.model"}                                | not_found  |

  # -- Suggestions -------------------------------------------------------------------------
  @REQ-10-09 @REQ-10-10
  Scenario Outline: the suggestion for <error> names the tool to use next
    Given the id of the "stock.picking" record matching [["state", "=", "done"]] is "done"
    When the client calls "<tool>" with:
      """
      <arguments>
      """
    Then the error response has the SPEC-10 structure
    And [for REQ-10-10] the result "suggestion" matches the pattern "(?s).*odoo_core_\w+.*"
    And [reference] the result "suggestion" matches the pattern "<suggestion>"

    Examples:
      | error                | tool                  | arguments                                                                  | suggestion                              |
      | a missing field      | odoo_core_create      | {"model": "sale.order", "values": {"note": "x"}}                           | .*partner_id.*odoo_core_\w+.*           |
      | an unknown model     | odoo_core_read        | {"model": "no.such.model", "ids": [1]}                                     | .*odoo_core_list_models.*               |
      | a missing record     | odoo_core_write       | {"model": "res.partner", "ids": [999999], "values": {"name": "x"}}         | .*odoo_core_search_read.*res\.partner.* |
      | an unknown field     | odoo_core_read        | {"model": "res.partner", "ids": [9], "fields": ["no_such_field"]}          | .*odoo_core_fields_get.*res\.partner.*  |
      | a domain on no field | odoo_core_search_read | {"model": "res.partner", "domain": [["no_such_field", "=", 1]]}            | .*odoo_core_fields_get.*                |
      | a wrong state        | odoo_core_execute     | {"model": "stock.picking", "method": "action_cancel", "args": [["$done"]]} | .*Done.*odoo_core_\w+.*                 |
      | an unknown method    | odoo_core_execute     | {"model": "res.partner", "method": "frobnicate", "args": [[9]]}            | .*odoo_core_execute.*                   |

  # REQ-10-09's table: "Invalid value for selection field `X`": "Valid values for '{X}' are:
  # {selection_values}"
  @REQ-10-09
  Scenario: the suggestion for a value no selection allows names the valid values
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit selection", "type": "kit_bogus"}}
      """
    Then [needs REQ-10-09] the error response has the SPEC-10 structure
    And the error category is "validation"
    And the suggestion names every value of the "type" selection of "res.partner"

  # REQ-10-09's table: "Invalid date format": "Use format YYYY-MM-DD for dates, YYYY-MM-DD
  # HH:MM:SS for datetimes". Odoo's own message ("time data '31/12/2026' does not match format
  # '%Y-%m-%d'") names no field.
  @REQ-10-09
  Scenario Outline: the suggestion for an invalid date in <field> gives the date formats, over <protocol>
    Given the server talks to Odoo over "<protocol>"
    When the client calls "odoo_core_create" with:
      """
      {"model": "sale.order", "values": {"partner_id": 9, "<field>": "<value>"}}
      """
    Then [needs REQ-10-09] the error response has the SPEC-10 structure
    And the error category is "validation"
    And the result "suggestion" matches the pattern "(?s).*YYYY-MM-DD\b.*YYYY-MM-DD HH:MM:SS.*"

    Examples:
      | protocol | field         | value      |
      | xmlrpc   | validity_date | 31/12/2026 |
      | xmlrpc   | date_order    | tomorrow   |
      | jsonrpc  | validity_date | 31/12/2026 |
      | json2    | validity_date | 31/12/2026 |
      | json2    | date_order    | tomorrow   |

  # REQ-10-15's table holds for the server's own refusals too: a readonly field (REQ-04-14) is
  # refused before Odoo is called, a validation error the caller fixes by leaving it out.
  @REQ-10-15
  Scenario Outline: the server's own refusal of a readonly <field> says retry as its category does
    Given the server has already read from "<model>"
    When the client calls "odoo_core_write" with:
      """
      {"model": "<model>", "ids": [<id>], "values": {"<field>": "<value>"}}
      """
    Then [needs REQ-04-14] the call is refused
    And the error's retry is the one the seed's table gives its category

    Examples:
      | model       | id | field        | value |
      | res.partner | 9  | display_name | zz    |
      | sale.order  | 1  | state        | sent  |

  # -- MCP error codes ---------------------------------------------------------------------
  @REQ-10-16
  Scenario: an unknown tool is JSON-RPC error -32601
    When the client calls "odoo_core_teleport" with:
      """
      {"model": "res.partner"}
      """
    Then the call is rejected with JSON-RPC error -32601
    And Odoo received no call

  @REQ-10-16
  Scenario Outline: arguments that break the schema are JSON-RPC error -32602
    When the client calls "odoo_core_search_read" with:
      """
      <arguments>
      """
    Then the call is rejected with JSON-RPC error -32602
    And Odoo received no call

    Examples:
      | arguments                                 |
      | {"domain": []}                            |
      | {"model": "res.partner", "limit": "many"} |
      | {"model": "res.partner", "offset": -1}    |
      | {"model": ["res.partner"]}                |

    # The seed's input schemas do not say additionalProperties: false; refusing an unknown
    # argument is ours.
    @reference
    Examples:
      | arguments                                 |
      | {"model": "res.partner", "unexpected": 1} |

  # -- Logging (the server's stderr) -------------------------------------------------------
  @REQ-10-18 @REQ-10-19 @needs_error_logs
  Scenario Outline: a <category> error is logged as a warning with its model, method and code
    Given the id of the "stock.picking" record matching [["state", "=", "done"]] is "done"
    When the client calls "<tool>" with:
      """
      <arguments>
      """
    Then the error category is "<category>"
    And [for REQ-10-18] the server log has a WARNING line with "<marker>"
    And [for REQ-10-19] the server log has a line with "<model>", "<method>" and "<marker>"
    And [decision 22] the server log has a WARNING line with "<model>", "<method>", "<code>" and "<marker>"

    Examples:
      | category   | tool              | arguments                                                                                                                   | model         | method        | code                     | marker        |
      | validation | odoo_core_create  | {"model": "sale.order", "values": {"note": "kit-log-valid"}}                                                                | sale.order    | create        | MISSING_REQUIRED_FIELD   | kit-log-valid |
      | not_found  | odoo_core_write   | {"model": "res.partner", "ids": [999999], "values": {"name": "kit-log-gone"}}                                               | res.partner   | write         | RECORD_NOT_FOUND         | kit-log-gone  |

    # Odoo answers a UserError: the state category comes from the widened ST-001 (decision 22)
    @decision-22
    Examples:
      | category   | tool              | arguments                                                                                                                   | model         | method        | code                     | marker        |
      | state      | odoo_core_execute | {"model": "stock.picking", "method": "action_cancel", "args": [["$done"]], "kwargs": {"context": {"kit": "kit-log-state"}}} | stock.picking | action_cancel | INVALID_STATE_TRANSITION | kit-log-state |

  @REQ-10-18 @REQ-10-19 @needs_error_logs
  Scenario: an unknown error is logged as an error
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "read", "args": [[9], 5], "kwargs": {"context": {"kit": "kit-log-unknown"}}}
      """
    Then the error category is "unknown"
    And [for REQ-10-18] the server log has an ERROR line with "kit-log-unknown"
    And [for REQ-10-19] the server log has a line with "res.partner", "read", "UNKNOWN_ERROR" and "kit-log-unknown"

  @REQ-10-19 @needs_error_logs
  Scenario: a password in the arguments is logged masked
    When the client calls "odoo_core_create" with:
      """
      {"model": "sale.order", "values": {"note": "kit-log-secret", "password": "hunter2"}}
      """
    Then the error response has the SPEC-10 structure
    And the server log has a line with "sale.order", "create" and "kit-log-secret"
    And the server log does not contain "hunter2"

  # -- Access refusals (the demo user) -----------------------------------------------------
  # the demo user may read no "Access Rights" model on any version (ir.model.fields); it may
  # not post invoices on 16 and 19, but may on 17 (Invoicing / Billing: batch 4's captures)
  @REQ-10-01 @REQ-10-05 @REQ-10-07 @REQ-10-15
  Scenario Outline: access refusals are access errors, never retried, over <protocol>
    Given the server connects to Odoo as the demo user
    And the server talks to Odoo over "<protocol>"
    And the demo user may not post invoices
    And a "account.move" record created outside the server as "invoice" with:
      """
      {"move_type": "out_invoice", "partner_id": 9, "invoice_user_id": false}
      """
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "ir.model.fields", "fields": ["name"]}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "access"
    And [reference] the result "details.model" is "ir.model.fields"
    And the error says not to retry
    When the client calls "odoo_core_execute" with:
      """
      {"model": "account.move", "method": "action_post", "args": [["$invoice"]]}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "access"
    And the result "code" is "ACCESS_DENIED"
    And the error says not to retry

    Examples:
      | protocol |
      | jsonrpc  |
      | json2    |

    # Odoo 19's XML-RPC fault 4 carries the message alone, not "AccessError" (decision 22)
    @decision-22
    Examples:
      | protocol |
      | xmlrpc   |

  @REQ-10-18 @REQ-10-19 @needs_error_logs
  Scenario: an access error is logged as an error
    Given the server connects to Odoo as the demo user
    And the server talks to Odoo over "xmlrpc"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "ir.model.fields", "domain": [["name", "!=", "kit-log-access"]], "fields": ["name"]}
      """
    Then the error category is "access"
    And [for REQ-10-18] the server log has an ERROR line with "kit-log-access"
    And [for REQ-10-19] the server log has a line with "ir.model.fields", "search_read" and "kit-log-access"

  # -- Classification per protocol ---------------------------------------------------------
  @REQ-10-05 @REQ-10-06 @REQ-10-07 @REQ-10-15
  Scenario Outline: Odoo errors are classified the same way over <protocol>
    Given the server talks to Odoo over "<protocol>"
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [999999], "values": {"website": "x"}}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "not_found"
    And [decision 22] the result "code" is "RECORD_NOT_FOUND"
    And [for REQ-10-06] the error names the model "res.partner"
    And the result "retry" is true
    When the client calls "odoo_core_create" with:
      """
      {"model": "sale.order", "values": {"note": "no customer"}}
      """
    Then the error category is "validation"
    And [decision 22] the result "code" is "MISSING_REQUIRED_FIELD"
    And [for REQ-10-06] the error names the field "partner_id"
    And [for REQ-10-06] the error names the model "sale.order"
    And the result "retry" is true
    When the client calls "odoo_core_read" with:
      """
      {"model": "no.such.model", "ids": [1]}
      """
    Then [decision 22] the error category is "not_found"
    And [decision 22] the result "code" is "MODEL_NOT_FOUND"
    And [for REQ-10-06] the error names the model "no.such.model"

    Examples:
      | protocol |
      | jsonrpc  |
      | json2    |

    # Odoo 19's XML-RPC fault 2 carries the message alone, not the exception class the
    # REQ-10-05 table looks for: classifying it by fault code and pattern is decision 22.
    @decision-22
    Examples:
      | protocol |
      | xmlrpc   |

  # XML-RPC fault 2 is Odoo's UserError family (UserError, ValidationError, MissingError): the
  # wire does not say which, so a ValidationError no pattern knows is a USER_ERROR there.
  @REQ-10-01 @REQ-10-05 @REQ-10-07 @REQ-10-15
  Scenario Outline: an error no pattern knows is classified by its exception over <protocol>
    Given the server talks to Odoo over "<protocol>"
    And a "account.move" record created outside the server as "empty" with:
      """
      {"move_type": "out_invoice", "partner_id": 9}
      """
    When the client calls "odoo_core_execute" with:
      """
      {"model": "account.move", "method": "action_post", "args": [["$empty"]]}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "validation"
    And the result "code" is "USER_ERROR"
    And the result "retry" is true
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [9], "values": {"parent_id": 9}}
      """
    Then the error category is "validation"
    And the result "code" is "<validation error>"
    And the error message names "recursive"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "read_group", "args": [[], ["id:bogus"], ["country_id"]]}
      """
    Then the error category is "validation"
    And the result "code" is "VALUE_ERROR"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "read", "args": [[9], 5]}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "unknown"
    And [for REQ-10-01] the result "code" is "UNKNOWN_ERROR"
    And the error says not to retry

    Examples:
      | protocol | validation error |
      | jsonrpc  | VALIDATION_ERROR |
      | json2    | VALIDATION_ERROR |

    # over XML-RPC the fault carries no class name the REQ-10-05 table could read; the
    # recursion message is one only a ValidationError carries (O19-VAL-010, decision 22)
    @decision-22
    Examples:
      | protocol | validation error |
      | xmlrpc   | VALIDATION_ERROR |

  @REQ-10-05 @REQ-10-07
  Scenario: a unique constraint Odoo 19 reports as a ValidationError is a validation error
    Given the server talks to Odoo over "json2"
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.country", "values": {"name": "Spain Again", "code": "ES"}}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "validation"
    And the result "code" is "VALIDATION_ERROR"
    And the error message names "must be unique"
    And the result "retry" is true

  # XML-RPC (fault 3) and JSON-RPC (data.name AccessDenied) say "Access Denied" (pattern
  # ACC-001); JSON-2 answers HTTP 401, which REQ-10-08 calls an expired session.
  @REQ-10-05 @REQ-10-07 @REQ-10-08 @REQ-10-11 @REQ-10-15 @REQ-10a-01 @REQ-10a-02
  Scenario Outline: Odoo refusing the server's credentials is an access error over <protocol>
    Given the server talks to Odoo over "<protocol>"
    And Odoo no longer accepts the server's credentials
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "fields": ["name"], "limit": 1}
      """
    Then the error response has the SPEC-10 structure
    And the error category is "access"
    And the result "code" is "<code>"
    And the error says not to retry

    Examples:
      | protocol | code            |
      | xmlrpc   | ACCESS_DENIED   |
      | jsonrpc  | ACCESS_DENIED   |
      | json2    | SESSION_EXPIRED |

  @REQ-10-13 @REQ-10-14
  Scenario Outline: only the last line of Odoo's traceback reaches the client over <protocol>
    Given the server talks to Odoo over "<protocol>"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "read", "args": [[9], 5]}
      """
    # issue 36: the structure is REQ-10-02's (a failure blocks these, never fails them);
    # REQ-10-13's own: the traceback discarded (item 3) and its final line kept (items 1-2)
    Then [needs REQ-10-02] the error response has the SPEC-10 structure
    And [for REQ-10-13, REQ-10-14] the error carries no traceback
    And [for REQ-10-13] the result "message" matches the pattern "(?s).*'int' object is not iterable.*"
    And [decision 26] the result "original_error" matches the pattern "(builtins\.)?TypeError: 'int' object is not iterable"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "frobnicate", "args": [[9]]}
      """
    Then [needs REQ-10-02] the error response has the SPEC-10 structure
    And [for REQ-10-13, REQ-10-14] the error carries no traceback
    And [for REQ-10-13] the result "message" matches the pattern "(?s).*frobnicate.*"
    # 19: "The method 'res.partner.frobnicate' does not exist"; 17: "The method 'frobnicate'
    # does not exist on the model 'res.partner'" (batch 4)
    And [decision 26] the result "original_error" matches the pattern "[\w.]+: The method '(res\.partner\.frobnicate' does not exist|frobnicate' does not exist on the model 'res\.partner')"

    Examples:
      | protocol |
      | xmlrpc   |
      | jsonrpc  |
      | json2    |

  # -- Tools the mode hides ----------------------------------------------------------------
  # Decision 13: a mode may hide a tool (then it is unknown) or list it and refuse it.
  @REQ-10-16 @decision-13
  Scenario: a tool the mode hides is an unknown tool, JSON-RPC error -32601
    Given the server runs in "readonly" mode
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Hidden"}}
      """
    Then the call is rejected with JSON-RPC error -32601
    And Odoo received no call

  # -- The debug log -----------------------------------------------------------------------
  @REQ-10-13 @REQ-10-18 @REQ-10-19 @needs_error_logs
  Scenario Outline: Odoo's traceback goes to the debug log only, without credentials, over <protocol>
    Given the server setting "log_level" is "debug"
    And the server talks to Odoo over "<protocol>"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "read", "args": [[9], 5], "kwargs": {"context": {"kit": "kit-log-debug"}}}
      """
    Then the error category is "unknown"
    And [for REQ-10-18] the server log has a DEBUG line with "TypeError: 'int' object is not iterable"
    And [for REQ-10-19] the server log has a line with "res.partner" and "TypeError: 'int' object is not iterable"
    And [for REQ-10-18] the server log contains "Traceback (most recent call last)"
    And [for REQ-10-19] the server log does not contain the Odoo API key or password

    Examples:
      | protocol |
      | xmlrpc   |
      | json2    |

  # -- Every row of the classification tables ----------------------------------------------
  # The fake raises the named class on the create call, rendered as Odoo renders it on each
  # protocol. The messages name no pattern of L2/10a, so the tables alone decide the code.
  # AccessDenied's row is judged by "Odoo refusing the server's credentials" (a real refusal).
  @REQ-10-01 @REQ-10-07 @REQ-10-15
  Scenario Outline: Odoo's <exception> is a <category> error coded <code> over <protocol>
    Given the server talks to Odoo over "<protocol>"
    And Odoo raises "<exception>" with message "<message>" on res.partner create
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit table row"}}
      """
    Then [needs REQ-10-01] the error response has the SPEC-10 structure
    And the error category is "<category>"
    And [for REQ-10-07] the result "code" is "<code>"
    And [for REQ-10-15] the result "retry" is <retry>

    Examples:
      | protocol | exception                           | message                                                          | category   | code             | retry |
      | jsonrpc  | odoo.exceptions.ValidationError     | Kit refusal zq-1                                                 | validation | VALIDATION_ERROR | true  |
      | json2    | odoo.exceptions.ValidationError     | Kit refusal zq-1                                                 | validation | VALIDATION_ERROR | true  |
      | jsonrpc  | odoo.exceptions.UserError           | Kit refusal zq-2                                                 | validation | USER_ERROR       | true  |
      | json2    | odoo.exceptions.UserError           | Kit refusal zq-2                                                 | validation | USER_ERROR       | true  |
      | jsonrpc  | odoo.exceptions.AccessError         | Kit refusal zq-3                                                 | access     | ACCESS_DENIED    | false |
      | json2    | odoo.exceptions.AccessError         | Kit refusal zq-3                                                 | access     | ACCESS_DENIED    | false |
      | jsonrpc  | odoo.exceptions.MissingError        | Kit refusal zq-4                                                 | not_found  | NOT_FOUND        | true  |
      | json2    | odoo.exceptions.MissingError        | Kit refusal zq-4                                                 | not_found  | NOT_FOUND        | true  |
      | jsonrpc  | odoo.exceptions.RedirectWarning     | Kit refusal zq-6                                                 | validation | REDIRECT_WARNING | true  |
      | json2    | odoo.exceptions.RedirectWarning     | Kit refusal zq-6                                                 | validation | REDIRECT_WARNING | true  |
      | jsonrpc  | builtins.ValueError                 | Kit refusal zq-7                                                 | validation | VALUE_ERROR      | true  |
      | json2    | builtins.ValueError                 | Kit refusal zq-7                                                 | validation | VALUE_ERROR      | true  |
      | jsonrpc  | psycopg2.errors.UniqueViolation     | duplicate key value violates unique constraint "res_partner_zq"  | constraint | UNIQUE_VIOLATION | true  |
      | json2    | psycopg2.errors.UniqueViolation     | duplicate key value violates unique constraint "res_partner_zq"  | constraint | UNIQUE_VIOLATION | true  |
      | jsonrpc  | psycopg2.errors.CheckViolation      | new row for relation "res_partner" violates check constraint "zq" | constraint | CHECK_CONSTRAINT | true  |
      | json2    | psycopg2.errors.CheckViolation      | new row for relation "res_partner" violates check constraint "zq" | constraint | CHECK_CONSTRAINT | true  |
      | jsonrpc  | psycopg2.errors.ForeignKeyViolation | insert on table "res_partner" violates foreign key constraint "zq" | constraint | FK_VIOLATION     | true  |
      | json2    | psycopg2.errors.ForeignKeyViolation | insert on table "res_partner" violates foreign key constraint "zq" | constraint | FK_VIOLATION     | true  |

  # Over XML-RPC (/xmlrpc/2) Odoo's warnings (UserError and its kin) carry their message only:
  # the rows that read the class name apply to the faults whose traceback names it (fault 1).
  @REQ-10-01 @REQ-10-05 @REQ-10-15
  Scenario Outline: an XML-RPC fault <reading> is a <category> error coded <code>
    Given the server talks to Odoo over "xmlrpc"
    And Odoo raises "<exception>" with message "<message>" on res.partner create
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit table row"}}
      """
    Then [needs REQ-10-01] the error response has the SPEC-10 structure
    And the error category is "<category>"
    And [for REQ-10-05] the result "code" is "<code>"
    And [for REQ-10-15] the result "retry" is <retry>

    Examples:
      | reading                     | exception                           | message                                                            | category   | code             | retry |
      | saying unique               | psycopg2.errors.UniqueViolation     | duplicate key value violates unique constraint "res_partner_zq"    | constraint | UNIQUE_VIOLATION | true  |
      | saying check constraint     | psycopg2.errors.CheckViolation      | new row for relation "res_partner" violates check constraint "zq"  | constraint | CHECK_CONSTRAINT | true  |
      | saying foreign key          | psycopg2.errors.ForeignKeyViolation | insert on table "res_partner" violates foreign key constraint "zq" | constraint | FK_VIOLATION     | true  |
      | saying ir.actions           | odoo.addons.kit.models.KitFault     | Kit refusal zq-8: open the ir.actions.act_window first             | wizard     | WIZARD_REQUIRED  | true  |
      | of any other kind           | odoo.addons.kit.models.KitFault     | Kit refusal zq-9                                                   | unknown    | UNKNOWN_ERROR    | false |

  # Odoo's warnings (UserError and its kin: XML-RPC fault 2) carry their message alone over
  # /xmlrpc/2, so REQ-10-05's rows reading a class name cannot match them and its text rows
  # do. Over JSON the class is named (REQ-10-07 has no text rows): XML-RPC only here.
  @REQ-10-05
  Scenario Outline: an XML-RPC warning saying <reading> is a constraint error coded <code>
    Given the server talks to Odoo over "xmlrpc"
    And Odoo raises "odoo.exceptions.UserError" with message "<message>" on res.partner create
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit table row"}}
      """
    Then [needs REQ-10-05] the error response has the SPEC-10 structure
    And the error category is "constraint"
    And the result "code" is "<code>"

    Examples:
      | reading          | message                                           | code             |
      | duplicate        | Kit refusal zq-10: this name exists (duplicate)   | UNIQUE_VIOLATION |
      | unique           | Kit refusal zq-11: the reference must be unique   | UNIQUE_VIOLATION |
      | check constraint | Kit refusal zq-12: violates check constraint zq   | CHECK_CONSTRAINT |
      | foreign key      | Kit refusal zq-13: violates foreign key constraint | FK_VIOLATION     |

  # REQ-10-04: "original_error: raw Odoo error string". An XML-RPC fault 2 says neither
  # UserError nor ValidationError: a class in original_error is one the wire did not carry.
  @REQ-10-04
  Scenario Outline: the original_error of an XML-RPC warning (<exception>) is Odoo's bare message
    Given the server talks to Odoo over "xmlrpc"
    And Odoo raises "<exception>" with message "Kit refusal zq-14 left as sent" on res.partner create
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit table row"}}
      """
    Then [needs REQ-10-04] the error response has the SPEC-10 structure
    And the error's original_error, when given, names "Kit refusal zq-14 left as sent"
    And the error's original_error, when given, names no exception class

    Examples:
      | exception                       |
      | odoo.exceptions.UserError       |
      | odoo.exceptions.ValidationError |

  @REQ-10-01 @REQ-10-07 @REQ-10-15
  Scenario Outline: any other Odoo exception is unknown, never retried, over <protocol>
    Given the server talks to Odoo over "<protocol>"
    And Odoo raises "odoo.addons.kit.models.KitFault" with message "Kit refusal zq-9" on res.partner create
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Kit table row"}}
      """
    Then [needs REQ-10-01] the error response has the SPEC-10 structure
    And the error category is "unknown"
    And [for REQ-10-01] the result "code" is "UNKNOWN_ERROR"
    And [for REQ-10-15] the error says not to retry

    Examples:
      | protocol |
      | jsonrpc  |
      | json2    |
