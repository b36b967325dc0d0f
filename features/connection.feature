@SPEC-02
Feature: The Odoo connection
  What an MCP client can see of the connection (SPEC-02, L2/02a, L2/02b): the context every
  Odoo call carries, the protocol the calls go over, and the version, protocol, URL and
  modules the server reports. The fake Odoo's call log shows each call's endpoint and the
  context it was sent; the calls counted are those of the client's last request.

  @REQ-02-27 @REQ-02-29
  Scenario: every call carries the base context, lang en_US and tz UTC by default
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "fields": ["name"], "limit": 3}
      """
    Then the call succeeds
    And every call Odoo received carried the context:
      """
      {"lang": "en_US", "tz": "UTC"}
      """
    # SPEC-02 adds allowed_company_ids only when companies are configured
    And [reference] no call Odoo received carried "allowed_company_ids" in its context

  @REQ-02-27 @REQ-02b-05
  Scenario: the configured language and time zone reach every call
    Given the server setting "odoo_lang" is "es_AR"
    And the server setting "odoo_tz" is "America/Argentina/Buenos_Aires"
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner", "domain": [["is_company", "=", true]]}
      """
    Then the call succeeds
    And every call Odoo received carried the context:
      """
      {"lang": "es_AR", "tz": "America/Argentina/Buenos_Aires"}
      """

  @REQ-02-28 @REQ-02b-05
  Scenario: a tool's context keys join the base context for that call only
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "fields": ["name"], "limit": 3, "context": {"active_test": false}}
      """
    Then the call succeeds
    And every "search_read" call Odoo received carried the context:
      """
      {"lang": "en_US", "tz": "UTC", "active_test": false}
      """
    And every call Odoo received carried the context:
      """
      {"lang": "en_US", "tz": "UTC"}
      """
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "fields": ["name"], "limit": 3}
      """
    Then the call succeeds
    And every call Odoo received carried the context:
      """
      {"lang": "en_US", "tz": "UTC"}
      """
    And no call Odoo received carried "active_test" in its context

  @REQ-02-29
  Scenario Outline: configured companies become allowed_company_ids
    Given the server setting "<setting>" is "1"
    When the client calls "odoo_core_search_read" with:
      """
      {"model": "res.partner", "fields": ["name"], "limit": 3}
      """
    Then the call succeeds
    And every call Odoo received carried the context:
      """
      {"lang": "en_US", "tz": "UTC", "allowed_company_ids": [1]}
      """

    Examples:
      | setting          |
      | odoo_company_id  |
      | odoo_company_ids |

  @REQ-02-13 @REQ-02-14
  Scenario Outline: a protocol set explicitly is the one used, and the one reported
    Given the server talks to Odoo over "<protocol>"
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner"}
      """
    Then the call succeeds
    And every call Odoo received went over "<protocol>"
    When the client reads the resource "odoo://system/info"
    Then the result "protocol" is "<protocol>"

    Examples:
      | protocol |
      | xmlrpc   |
      | jsonrpc  |
      | json2    |

  @REQ-02a-07
  Scenario Outline: auto picks the protocol by Odoo version (<major>: <protocol>)
    The kit gives the server an API key, which JSON-2 needs; only the row of the run's Odoo
    version applies (run the kit with another --odoo-version for the others).

    Given Odoo's major version is <major>
    When the client calls "odoo_core_count" with:
      """
      {"model": "res.partner"}
      """
    Then the call succeeds
    And every call Odoo received went over "<protocol>"
    When the client reads the resource "odoo://system/info"
    Then the result "protocol" is "<protocol>"

    Examples:
      | major | protocol |
      | 14    | xmlrpc   |
      | 16    | xmlrpc   |
      | 17    | jsonrpc  |
      | 18    | jsonrpc  |
      | 19    | json2    |

  @REQ-02-10 @REQ-02a-06 @REQ-02a-12 @REQ-02-33
  Scenario: system/info reports the version, edition, URL and database of the connection
    The fake Odoo says neither is_enterprise nor has web_enterprise installed: community.

    When the client reads the resource "odoo://system/info"
    Then the version in "server_version" is the one Odoo reports
    And the result "server_edition" is "community"
    And the URL in "url" is the Odoo URL the server was given
    And the result "database" is "demo"
    And the result "user.uid" is 2
    And the result "protocol" matches the pattern "xmlrpc|jsonrpc|json2"
    # the connection's state is REQ-02-33's; the seed's system/info has no key for it
    And [reference] the result "state" is "ready"

  @REQ-02-33 @REQ-06-03
  Scenario: the installed modules the server reports leave out a module Odoo lacks
    Given Odoo has no "stock" module installed
    When the client reads the resource "odoo://system/modules"
    Then the result "modules[name=sale].state" is "installed"
    And the result has no "modules[name=stock]"
    And the result has no "modules[name=sale_stock]"
