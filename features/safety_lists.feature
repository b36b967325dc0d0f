@SPEC-11
Feature: Model, field and method lists
  What is blocked is unreachable through every tool, and refused before Odoo is called.

  @REQ-11-06
  Scenario: with a model allowlist only the listed models are reachable
    Given the server setting "model_allowlist" is "res.partner, sale.order"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "product.product", "fields": ["name"]}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call
    When the client calls "odoo_core_count" with:
      """
      {"model": "sale.order"}
      """
    Then the call succeeds
    When the client calls "odoo_core_list_models" without arguments
    Then the result "models[*].model" is ["res.partner", "sale.order"]

  @REQ-11-07
  Scenario: a model in the blocklist is never reachable
    Given the server runs in "full" mode
    And the server setting "model_blocklist" is "crm.lead"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "crm.lead", "fields": ["name"]}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call
    When the client calls "odoo_core_execute" with:
      """
      {"model": "crm.lead", "method": "search_count", "args": [[]]}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    When the client calls "odoo_core_fields_get" with:
      """
      {"model": "crm.lead"}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call

  @REQ-11-07 @REQ-11-09
  Scenario: a model name holding path segments reaches no other model
    The JSON-2 protocol puts the model in the URL path: "res.partner/../res.users" must not
    become res.users behind the safety checks' back. Whatever the protocol, it is refused.
    Given the server runs in "full" mode
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner/../res.users", "ids": [5], "values": {"login": "hijacked"}}
      """
    Then the call fails with one of the error codes "MODEL_NOT_FOUND, NOT_FOUND, MODEL_BLOCKED"
    And Odoo received no call on "res.users"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner/../ir.config_parameter", "fields": ["key", "value"]}
      """
    Then the call fails with one of the error codes "MODEL_NOT_FOUND, NOT_FOUND, MODEL_BLOCKED"
    And Odoo received no call on "ir.config_parameter"

  @REQ-11-08
  Scenario Outline: the built-in blocklist applies on top of the user's
    Given the server runs in "full" mode
    And the server setting "model_blocklist" is "crm.lead"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "<model>", "fields": ["id"]}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call

    Examples:
      | model               |
      | ir.config_parameter |
      | ir.cron             |
      | base.automation     |
      | ir.rule             |
      | ir.model.access     |
      | ir.mail_server      |
      | fetchmail.server    |
      | payment.provider    |

  @REQ-11-08 @REQ-11-09
  Scenario: res.users can be read but never changed
    Given the server runs in "full" mode
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.users", "domain": [["login", "=", "demo"]], "fields": ["login"]}
      """
    Then the call succeeds
    And the result "records[0].login" is "demo"
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.users", "ids": [5], "values": {"login": "hijacked"}}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.users", "values": {"name": "Intruder", "login": "intruder"}}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.users", "method": "write", "args": [[5], {"login": "hijacked"}]}
      """
    Then the call fails with error code "MODEL_BLOCKED"
    And Odoo received no call

  @REQ-11-10
  Scenario: restricted mode writes the write-allowlisted models
    Given the server runs in "restricted" mode
    And the server setting "write_allowlist" is "res.partner"
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [10], "values": {"function": "Owner"}}
      """
    Then the call succeeds

  @REQ-11-11
  Scenario: an empty write allowlist allows no writes in restricted mode
    Given the server runs in "restricted" mode
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Nope"}}
      """
    Then the call fails with error code "MODE_VIOLATION"
    And Odoo received no call

  @REQ-11-12 @REQ-11-14
  Scenario: a blocked field is not read, written, filtered or sorted on
    REQ-11-14 drops a blocked field from read results: refusing a read that names it is our
    choice. Filtering or sorting on it reads it (REQ-11-12), so any refusal passes; ours is
    FIELD_BLOCKED before Odoo (decision 11).
    Given the server runs in "full" mode
    And the server setting "field_blocklist" is "phone"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["id", "=", 9]], "fields": ["*"]}
      """
    Then the call succeeds
    And no item of "records" has the key "phone"
    When the client calls "odoo_core_read" with:
      """
      {"model": "res.partner", "ids": [9]}
      """
    Then no item of "records" has the key "phone"
    When the client calls "odoo_core_read" with:
      """
      {"model": "res.partner", "ids": [9], "fields": ["name", "phone"]}
      """
    Then the answer does not show the field "phone"
    And [reference] the call fails with error code "FIELD_BLOCKED"
    When the client calls "odoo_core_write" with:
      """
      {"model": "res.partner", "ids": [9], "values": {"phone": "+1 555"}}
      """
    # REQ-11-14 (3) asks for "a clear error", no category: FIELD_BLOCKED (access) is ours
    Then the call is refused
    And [reference] the call fails with error code "FIELD_BLOCKED"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": [["phone", "ilike", "555"]]}
      """
    Then the call is refused
    And [decision 11] the call fails with error code "FIELD_BLOCKED"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "sale.order", "domain": [["partner_id.phone", "!=", false]]}
      """
    Then the call is refused
    And [decision 11] the call fails with error code "FIELD_BLOCKED"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "order": "phone desc"}
      """
    Then the call is refused
    And [decision 11] the call fails with error code "FIELD_BLOCKED"
    And [decision 11] Odoo received no call

  @REQ-11-13 @REQ-11-14
  Scenario: the built-in blocked fields never leave the server
    When the client calls "odoo_core_read" with:
      """
      {"model": "res.users", "ids": [2]}
      """
    Then the call succeeds
    And no item of "records" has the key "signature"
    And no item of "records" has the key "password"
    And the response text does not contain "api_key"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.users", "fields": ["login", "signature"]}
      """
    Then the answer does not show the field "signature"
    And [reference] the call fails with error code "FIELD_BLOCKED"
    When the client calls "odoo_core_fields_get" with:
      """
      {"model": "res.users"}
      """
    Then the result has no "fields.password"
    And the result has no "fields.signature"
    And the result has no "fields.totp_secret"

  @REQ-11-14
  Scenario: a blocked field is refused in create values
    Given the server runs in "full" mode
    When the client calls "odoo_core_create" with:
      """
      {"model": "res.partner", "values": {"name": "Sig", "signature": "<p>x</p>"}}
      """
    Then the call is refused
    And [reference] the call fails with error code "FIELD_BLOCKED"
    And [reference] the result "message" matches the pattern ".*signature.*"
    And Odoo received no call

  @REQ-11-15
  Scenario: methods in the method blocklist cannot be executed
    Given the server runs in "full" mode
    And the server setting "method_blocklist" is "copy"
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "copy", "args": [[9]]}
      """
    Then the call fails with error code "METHOD_BLOCKED"
    And Odoo received no call

  @REQ-11-16
  Scenario Outline: the built-in method blocklist always applies
    Given the server runs in "full" mode
    When the client calls "odoo_core_execute" with:
      """
      {"model": "res.partner", "method": "<method>", "args": [[9]]}
      """
    Then the call fails with error code "METHOD_BLOCKED"
    And Odoo received no call

    Examples:
      | method           |
      | sudo             |
      | with_user        |
      | with_env         |
      | with_context     |
      | invalidate_cache |
      | clear_caches     |
      | init             |
      | uninstall        |
      | module_uninstall |

  # Issue 36: a list holds on every path, whichever list put the name there (built-in or
  # configured, a blocklist or what an allowlist leaves out). The kit's invariants judge every
  # answer: a blocked field shown anywhere fails REQ-11-14 (REQ-06-22 on a resource), a blocked
  # model that answered fails the list's requirement (REQ-06-22 on a resource), each path on
  # its own requirement.
  @REQ-11-14
  Scenario Outline: a configured blocked field is absent from every path (<model>)
    Given the server setting "field_blocklist" is "<fields>"
    When the client reads "<model>" records through every path
    Then every path answered with records

    Examples:
      | model       | fields                |
      | res.partner | email, phone, website |
      | sale.order  | note, client_order_ref |

  @REQ-11-13
  Scenario: the built-in blocked fields are absent from every path
    When the client reads "res.users" records through every path
    Then every path answered with records

  @REQ-11-07
  Scenario: a configured blocked model is refused on every path
    Given the server runs in "full" mode
    And the server setting "model_blocklist" is "crm.lead"
    When the client tries "crm.lead" through every path

  @REQ-11-06
  Scenario: a model left out of the allowlist is refused on every path
    Given the server setting "model_allowlist" is "res.partner, sale.order"
    When the client tries "product.product" through every path

  @REQ-11-08
  Scenario Outline: a built-in blocked model is refused on every path (<model>)
    When the client tries "<model>" through every path

    Examples:
      | model               |
      | ir.config_parameter |
      | ir.model.access     |
      | payment.provider    |
