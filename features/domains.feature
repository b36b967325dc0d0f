@L2-04a
Feature: Domains
  Domains are validated before any Odoo call, and a valid domain means what it means to Odoo.

  Background:
    Given the server has already read from "res.partner"
    And the server has already read from "sale.order"

  @REQ-04a-01 @REQ-04a-03
  Scenario: juxtaposed conditions are ANDed and [] means everything
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner", "domain": [["is_company", "=", true], ["country_id.code", "=", "US"]]}
      """
    Then the result "count" is Odoo's own count of "res.partner" for [["is_company", "=", true], ["country_id.code", "=", "US"]]
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner", "domain": []}
      """
    Then the result "count" is Odoo's own count of "res.partner" for []

  @REQ-04a-02
  Scenario: prefix operators combine conditions
    When the client calls "odoo_core_count" with:
      """
      {"model": "sale.order", "domain": ["&", "|", ["state", "=", "draft"], ["state", "=", "sent"], ["amount_total", ">=", 1000]]}
      """
    Then the result "count" is Odoo's own count of "sale.order" for ["&", "|", ["state", "=", "draft"], ["state", "=", "sent"], ["amount_total", ">=", 1000]]
    When the client calls "odoo_core_count" with:
      """
      {"model": "sale.order", "domain": ["!", ["state", "=", "cancel"]]}
      """
    Then the result "count" is Odoo's own count of "sale.order" for ["!", ["state", "=", "cancel"]]

  @REQ-04a-04 @REQ-04a-05
  Scenario Outline: each of the 16 operators means what it means to Odoo
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "<model>", "domain": [<leaf>], "fields": ["id"], "limit": 500}
      """
    Then the call succeeds
    And the result ids are Odoo's own search of "<model>" for [<leaf>]
    And [reference] Odoo received 1 call

    Examples:
      | model       | leaf                                     |
      | res.partner | ["name", "=", "Acme Corporation"]        |
      | res.partner | ["name", "!=", "Acme Corporation"]       |
      | sale.order  | ["amount_total", ">", 1000]              |
      | sale.order  | ["amount_total", ">=", 450]              |
      | sale.order  | ["amount_total", "<", 500]               |
      | sale.order  | ["amount_total", "<=", 450]              |
      | res.partner | ["name", "like", "Acme"]                 |
      | res.partner | ["name", "not like", "a"]                |
      | res.partner | ["name", "ilike", "acme"]                |
      | res.partner | ["name", "not ilike", "a"]               |
      | sale.order  | ["name", "=like", "S0000_"]              |
      | res.partner | ["email", "=ilike", "%@example.com"]     |
      | sale.order  | ["state", "in", ["sale", "done"]]        |
      | sale.order  | ["state", "not in", ["draft", "cancel"]] |
      | res.partner | ["id", "child_of", [1]]                  |
      | res.partner | ["id", "parent_of", [3]]                 |

  @REQ-04a-05
  Scenario: = False matches unset values and != False set ones
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner", "domain": [["parent_id", "=", false]]}
      """
    Then the result "count" is Odoo's own count of "res.partner" for [["parent_id", "=", false]]
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner", "domain": [["parent_id", "!=", false]]}
      """
    Then the result "count" is Odoo's own count of "res.partner" for [["parent_id", "!=", false]]

  @REQ-04a-06
  Scenario: dotted paths follow relations, and x2many paths match any related record
    When the client calls "odoo_core_count" with:
      """
      {"model": "sale.order", "domain": [["partner_id.country_id.code", "=", "US"]]}
      """
    Then the result "count" is Odoo's own count of "sale.order" for [["partner_id.country_id.code", "=", "US"]]
    When the client calls "odoo_core_count" with:
      """
      {"model": "sale.order", "domain": [["order_line.product_uom_qty", ">", 1]]}
      """
    Then the result "count" is Odoo's own count of "sale.order" for [["order_line.product_uom_qty", ">", 1]]

  @REQ-04a-07
  Scenario: a path deeper than four relations gets a warning
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "sale.order", "domain": [["partner_id.parent_id.parent_id.parent_id.parent_id.name", "=", "x"]], "fields": ["name"]}
      """
    Then the call succeeds
    And [reference] the result "warnings[0]" matches the pattern ".*(deep|depth).*"

  @REQ-04a-08 @REQ-04a-09
  Scenario: date and datetime strings pass to Odoo unconverted
    When the client calls "odoo_core_count" with:
      """
      {"model": "sale.order", "domain": [["date_order", ">=", "2000-01-01 00:00:00"], ["validity_date", "<=", "2100-12-31"]]}
      """
    Then the result "count" is Odoo's own count of "sale.order" for [["date_order", ">=", "2000-01-01 00:00:00"], ["validity_date", "<=", "2100-12-31"]]
    When the client calls "odoo_core_count" with:
      """
      {"model": "sale.order", "domain": [["date_order", ">=", "2100-01-01 00:00:00"]]}
      """
    Then the result "count" is 0

  @REQ-04a-08 @reference
  Scenario: a malformed date is refused before Odoo
    When the client calls "odoo_core_count" with:
      """
      {"model": "sale.order", "domain": [["validity_date", ">=", "31/12/2025"]]}
      """
    Then the call fails with error code "INVALID_DOMAIN"
    And Odoo received no call

  # REQ-04a-12 (SHOULD) asks for the patterns in prompts or tool descriptions; putting them in
  # search_read's description is ours.
  @REQ-04a-12 @reference
  Scenario: the search tool shows the common patterns
    When the client lists the tools
    Then the tool "odoo_core_search_read" description contains "=ilike"
    And the tool "odoo_core_search_read" description contains "active_test"

  @REQ-04a-13 @REQ-04a-14 @REQ-04a-04
  Scenario Outline: an invalid domain is refused with a corrected example, before any Odoo call
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "domain": <domain>}
      """
    Then the call fails with error code "INVALID_DOMAIN"
    And the error category is "validation"
    And the result "suggestion" is "<str>"
    And Odoo received no call

    Examples:
      | domain                                      |
      | [["state", "in", "draft"]]                  |
      | [["name", "~", "x"]]                        |
      | [["name", "=?", "x"]]                       |
      | ["\|", ["name", "=", "a"]]                  |
      | ["&", "&", ["name", "=", "a"], ["id", "=", 1]] |
      | [["name", "="]]                             |
      | ["name", "=", "x"]                          |
      | [42]                                        |

  @REQ-04a-14
  Scenario: the suggestion shows the list form for a single value given to in
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "sale.order", "domain": [["state", "in", "draft"]]}
      """
    Then the call fails with error code "INVALID_DOMAIN"
    And [reference] the result "details.example" is [["state", "in", ["draft"]]]
    And [reference] the result "message" is "Invalid domain: operator 'in' requires a list value, got string 'draft'"
