@SPEC-03-07 @needs_contracts @needs_resources
Feature: Toolsets
  A toolset registers only when Odoo has the modules it needs (SPEC-03); one whose
  prerequisites fail is skipped with its reason, and every registration has a result in a
  report with totals and a timestamp. The storefront contracts toolset (decision 28) reads
  deliveries, so it needs the stock module. The report's place, under the key "registration"
  of odoo://system/toolsets and of odoo_core_list_toolsets' result, is decision 35, and so is
  the contracts toolset's need for stock: no seed names it, so these checks rest on decision 35
  even where the statuses and the skip reason are SPEC-03's (REQ-03-08/09). The core tools
  registering on an Odoo without stock is SPEC-03's alone.

  @REQ-03-07 @REQ-03-08 @REQ-03-09 @decision-35
  Scenario: the contracts toolset is skipped on an Odoo without stock
    Given the server setting "enabled_toolsets" is "core,contracts"
    And Odoo has no "stock" module installed
    When the client lists the tools
    Then the tool list does not include "orders.get"
    And the tool list does not include "customers.search"
    And the tool list does not include "products.list"
    And the tool list does not include "deliveries.track"
    And [seed] the tool list includes "odoo_core_search_read"
    When the client reads the resource "odoo://system/toolsets"
    Then the result "registration.results" includes {"name": "contracts", "status": "skipped"}
    And the result "registration.results[name=contracts].skip_reason" mentions "stock"
    And the result "registration" has exactly the keys "results, total_toolsets, registered_toolsets, total_tools, timestamp"
    When the client calls "odoo_core_list_toolsets" without arguments
    Then the result "registration.results" includes {"name": "contracts", "status": "skipped"}
    And the result "registration.results[name=contracts].skip_reason" mentions "stock"

  @REQ-03-07 @REQ-03-09 @decision-35
  Scenario: the contracts toolset registers its four operations on an Odoo with stock
    Given the server setting "enabled_toolsets" is "core,contracts"
    When the client lists the tools
    Then the tool list includes "orders.get"
    And the tool list includes "deliveries.track"
    When the client reads the resource "odoo://system/toolsets"
    Then the result "registration.results" includes {"name": "contracts", "status": "registered"}
    And the result "registration.results[name=contracts].tools_registered" includes "orders.get"
    And the result "registration.results[name=contracts].tools_registered" includes "customers.search"
    And the result "registration.results[name=contracts].tools_registered" includes "products.list"
    And the result "registration.results[name=contracts].tools_registered" includes "deliveries.track"
    And the result "registration.results[name=contracts].skip_reason" is null
    When the client calls "odoo_core_list_toolsets" without arguments
    Then the result "registration.results" includes {"name": "contracts", "status": "registered"}

  @REQ-03-17 @REQ-03-18 @decision-35 @fresh_server
  Scenario: a reconnection to an Odoo that lost stock drops the contracts and says so
    Given the server setting "enabled_toolsets" is "core,contracts"
    When the client lists the tools
    Then the tool list includes "orders.get"
    When Odoo loses its "stock" module and drops the next connection
    And the client calls "odoo_core_count" with:
      """
      {"model": "res.partner"}
      """
    And the client calls "odoo_core_count" with:
      """
      {"model": "res.partner"}
      """
    And the client lists the tools
    Then [seed] the client is sent notifications/tools/list_changed within 5 seconds
    And the tool list does not include "orders.get"
    And [seed] the tool list includes "odoo_core_count"

  @REQ-03-10 @REQ-03-19 @decision-35
  Scenario: the tool and the resource report the same registration
    When the client reads the resource "odoo://system/toolsets"
    Then [seed] the result "toolsets" includes {"name": "core", "status": "active"}
    And the result "registration.results" includes {"name": "core", "status": "registered"}
    And the result "registration.results[name=core].tools_registered" includes "odoo_core_list_toolsets"
    When the client calls "odoo_core_list_toolsets" without arguments
    Then the result "registration.results" includes {"name": "core", "status": "registered"}
