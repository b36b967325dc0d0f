@LUJ @needs_contracts
Feature: The storefront contracts
  Four read-only operations a storefront middleware calls with the contract's exact shapes,
  on the demo data's Spanish-speaking storefront.

  Background:
    Given the server setting "enabled_toolsets" is "core, contracts"

  @REQ-LUJ-16
  Scenario: the four operations are read-only tools
    When the client lists the tools
    Then the tool "orders.get" has the annotations:
      """
      {"readOnlyHint": true, "destructiveHint": false}
      """
    And the tool list includes "customers.search"
    And the tool list includes "products.list"
    And the tool list includes "deliveries.track"

  @REQ-LUJ-01 @REQ-LUJ-02 @REQ-LUJ-03 @REQ-LUJ-04
  Scenario: orders.get gives an order with its lines
    When the client calls "orders.get" with:
      """
      {"orderId": "S00038", "includeLines": true}
      """
    Then [needs REQ-LUJ-01] the call succeeds
    And [for REQ-LUJ-02] the result contains:
      """
      {"orderId": "S00038", "customerName": "Valentina López", "totalAmount": 86300.0,
       "createdAt": "<str>"}
      """
    And [for REQ-LUJ-04] the result "status" is "confirmed"
    And [for REQ-LUJ-02] the result "createdAt" matches the pattern "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
    And [for REQ-LUJ-03] the result "lines[0]" is {"productId": "<str>", "productName": "Yerba mate con palo 500 g", "quantity": 2, "price": 1900.0}
    # "@NotNull Integer quantity": 2.0 is the integer 2, 2.5 is no Integer
    And [for REQ-LUJ-03] every "quantity" of "lines" is a whole number
    And [decision 28] the result "lines[0].productId" is "LUJ-YERB-002"
    And [reference] Odoo received at most 2 calls

  @REQ-LUJ-01 @REQ-LUJ-04
  Scenario: a quotation is a draft and lines only come when asked
    When the client calls "orders.get" with:
      """
      {"orderId": "S00001"}
      """
    Then [for REQ-LUJ-04] the result "status" is "draft"
    And [for REQ-LUJ-01] the result has no "lines"
    And [reference] Odoo received 1 call

  @REQ-LUJ-04 @decision-8
  Scenario: a locked order counts as done
    Given the id of the "sale.order" record matching [["name", "=", "S00036"]] is "order"
    And the "sale.order" record "order" is edited outside the server with:
      """
      {"locked": true}
      """
    When the client calls "orders.get" with:
      """
      {"orderId": "S00036"}
      """
    Then the result "status" is "done"

  @REQ-LUJ-05 @REQ-LUJ-06
  Scenario Outline: customers.search matches the name, the email or the phone
    When the client calls "customers.search" with:
      """
      {"query": "<query>"}
      """
    Then the call succeeds
    And [needs REQ-LUJ-05] the result "totalCount" is 1
    And [for REQ-LUJ-06] the result "customers[0]" is {"customerId": "44", "name": "Juan Pérez", "email": "juan.perez@example.com.ar", "phone": "<str>"}

    Examples:
      | query             |
      | Juan Pérez        |
      | juan.perez@       |
      | 555-0102          |

  @REQ-LUJ-06
  Scenario: totalCount counts every match, not just the page
    When the client calls "customers.search" with:
      """
      {"query": "example.com.ar", "limit": 2}
      """
    Then the result "customers" has 2 items
    And the result "totalCount" is Odoo's own count of "res.partner" for ["&", ["customer_rank", ">", 0], "|", "|", ["name", "ilike", "example.com.ar"], ["email", "ilike", "example.com.ar"], ["phone", "ilike", "example.com.ar"]]

  # The seed's filters on a leaf category ("Office Furniture", 3: ten products, seven in
  # stock once the demo's deliveries are done), so that subcategories (ours: child_of) do not matter; "available" is in stock.
  # limit and offset page the matches, totalCount counts them all ("totalCount: number").
  @REQ-LUJ-07 @REQ-LUJ-08
  Scenario: products.list honours categoryId, available, limit and offset, and counts all matches
    When the client calls "products.list" with:
      """
      {"categoryId": "3", "available": true, "limit": 3, "offset": 0}
      """
    Then [needs REQ-LUJ-07] the call succeeds
    And [needs REQ-LUJ-07] each of "products[*].categoryId" is "3"
    And [needs REQ-LUJ-07] every "stock" of "products" is above 0
    And [needs REQ-LUJ-07] the result "products" has 3 items
    And [for REQ-LUJ-08] the result "totalCount" is 7
    When the client calls "products.list" with:
      """
      {"categoryId": "3", "available": true, "limit": 3, "offset": 5}
      """
    Then [needs REQ-LUJ-07] the result "products" has 2 items
    And [for REQ-LUJ-08] the result "totalCount" is 7
    When the client calls "products.list" with:
      """
      {"categoryId": "3", "limit": 20}
      """
    Then [needs REQ-LUJ-07] the result "products" has 10 items
    And [for REQ-LUJ-08] the result "totalCount" is 10

  # The contract does not say whether a category takes in its subcategories (ours: child_of),
  # which products are in the catalogue (ours: sale_ok) nor what productId holds (decision 28).
  @REQ-LUJ-07 @REQ-LUJ-08 @reference
  Scenario: products.list filters by category and availability and pages
    When the client calls "products.list" with:
      """
      {"categoryId": "5", "available": true, "limit": 2, "offset": 0}
      """
    Then [seed] the call succeeds
    And [seed] the result contains:
      """
      {"products": "<list>", "totalCount": "<int>"}
      """
    And [seed] every item of "products" has the key "productId"
    And the result "products" has 2 items
    And the result "products[0]" is {"productId": "LUJ-BOMB-001", "name": "Bombilla pico de loro", "price": 4500.0, "stock": 51.0, "categoryId": "7"}
    And the result "totalCount" is Odoo's own count of "product.product" for [["sale_ok", "=", true], ["categ_id", "child_of", 5], ["qty_available", ">", 0]]
    And [reference] Odoo received at most 2 calls
    When the client calls "products.list" with:
      """
      {"categoryId": "5", "available": true, "limit": 2, "offset": 2}
      """
    Then the result "products[0].productId" is "LUJ-MATE-002"

  @REQ-LUJ-09 @REQ-LUJ-10 @REQ-LUJ-11 @REQ-LUJ-12
  Scenario: a delivered picking shows its history
    When the client calls "deliveries.track" with:
      """
      {"deliveryId": "WH/OUT/00021"}
      """
    Then [needs REQ-LUJ-09] the call succeeds
    And [for REQ-LUJ-10] the result contains:
      """
      {"deliveryId": "WH/OUT/00021", "orderId": "S00038", "trackingEvents": "<list>"}
      """
    And [for REQ-LUJ-11] the result "status" is one of "pending, in_transit, delivered, failed"
    And [decision 28] the result "status" is "delivered"
    And [for REQ-LUJ-10] the result "actualDelivery" matches the pattern "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
    # a delivered picking has a history in Odoo (scheduled, then done): it has events
    And [for REQ-LUJ-12] the result "trackingEvents[*].timestamp" matches the pattern "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"
    And [decision 28] the result "trackingEvents[*].status" is ["pending", "delivered"]
    And [reference] Odoo received 1 call

  @REQ-LUJ-11 @REQ-LUJ-12 @decision-28
  Scenario Outline: picking states map to the contract's statuses
    When the client calls "deliveries.track" with:
      """
      {"deliveryId": "<picking>"}
      """
    Then the result "status" is "<status>"
    And the result has no "actualDelivery"

    Examples:
      | picking      | status     |
      | WH/OUT/00019 | in_transit |
      | WH/OUT/00018 | failed     |

  @REQ-LUJ-13
  Scenario: errors use the contract's codes in the SPEC-10 structure
    When the client calls "orders.get" with:
      """
      {"orderId": "S99999"}
      """
    Then the call fails with error code "NOT_FOUND"
    And the error response has the SPEC-10 structure
    # categoryId is typed a string: the contract does not say it is an Odoo id, so a name
    # ("mates") is refused as INVALID_PARAMS or read as a category (decision 45 is ours)
    When the client calls "products.list" with:
      """
      {"categoryId": "mates"}
      """
    Then the call fails with error code "INVALID_PARAMS" or its result fits the seed's "products.list" response
    And [decision 45] the call fails with error code "INVALID_PARAMS"

  # The contract names INVALID_PARAMS for invalid parameters without saying how it travels;
  # answering a request that fails the schema as the contract's tool error, like its other
  # errors (not JSON-RPC -32602), is decision 28.
  @REQ-LUJ-13 @decision-28
  Scenario: a request that fails the contract's schema gets the contract's INVALID_PARAMS
    When the client calls "orders.get" with:
      """
      {"includeLines": true}
      """
    Then the call fails with error code "INVALID_PARAMS"
    And the error response has the SPEC-10 structure
    And Odoo received no call

  @REQ-LUJ-13
  Scenario: a model the safety settings block gets UNAUTHORIZED
    Given the server setting "model_blocklist" is "stock.picking"
    When the client calls "deliveries.track" with:
      """
      {"deliveryId": "WH/OUT/00021"}
      """
    Then the call fails with error code "UNAUTHORIZED"
    And Odoo received no call

  # "Sin permisos en Odoo": Odoo's own access rights refuse the read. The demo user loses
  # the two groups that give it stock.picking (Inventory / User, and Sales / User: Own
  # Documents Only, which reads transfers); Odoo then answers the read with an AccessError.
  @REQ-LUJ-13
  Scenario: a user Odoo itself refuses gets UNAUTHORIZED
    Given the server connects to Odoo as the demo user
    And the demo user loses the group "Inventory / User"
    And the demo user loses the group "Sales / User: Own Documents Only"
    When the client calls "deliveries.track" with:
      """
      {"deliveryId": "WH/OUT/00021"}
      """
    Then the call fails with error code "UNAUTHORIZED"
    And the error response has the SPEC-10 structure
    And the error says not to retry
    And [reference] Odoo received 1 call

  # The server is set to give up quickly, as in errors_network.feature: a one-second timeout
  # and one reconnection attempt; the fault is persistent.
  @REQ-LUJ-13
  Scenario: an Odoo that does not answer in time is the contract's TIMEOUT
    Given the server setting "odoo_timeout" is "1"
    And the server setting "reconnect_max_attempts" is "1"
    And the server setting "reconnect_backoff_base" is "0.1"
    And Odoo has the fault:
      """
      {"kind": "latency", "seconds": 3}
      """
    When the client calls "orders.get" with:
      """
      {"orderId": "S00038"}
      """
    Then the call fails with error code "TIMEOUT"
    And the error response has the SPEC-10 structure

  # "Error inesperado en Odoo": Odoo's HTTP 500 Internal Server Error is an unexpected error
  # in Odoo, none of NOT_FOUND, INVALID_PARAMS, UNAUTHORIZED or TIMEOUT.
  @REQ-LUJ-13
  Scenario: an unexpected Odoo server error is the contract's INTERNAL_ERROR
    Given the server setting "reconnect_max_attempts" is "1"
    And the server setting "reconnect_backoff_base" is "0.1"
    And Odoo has the fault:
      """
      {"kind": "http_status", "status": 500}
      """
    When the client calls "customers.search" with:
      """
      {"query": "Juan"}
      """
    Then the call fails with error code "INTERNAL_ERROR"
    And the error response has the SPEC-10 structure

  # The seed versions each contract (semantic versioning) but does not say how an MCP client
  # sees the version; the tool listing's _meta.contractVersion is decision 31.
  @REQ-LUJ-14 @decision-31
  Scenario: each contract tool shows its semantic version
    When the client lists the tools
    Then the tool "orders.get" shows a semantic contract version
    And the tool "customers.search" shows a semantic contract version
    And the tool "products.list" shows a semantic contract version
    And the tool "deliveries.track" shows a semantic contract version

  @REQ-LUJ-15
  Scenario Outline: a real <operation> answer fits the seed's response interface
    When the client calls "<operation>" with:
      """
      <arguments>
      """
    Then the call succeeds
    And the result fits the seed's "<operation>" response

    Examples:
      | operation        | arguments                                                    |
      | orders.get       | {"orderId": "S00038", "includeLines": true}                  |
      | orders.get       | {"orderId": "S00001"}                                        |
      | customers.search | {"query": "example.com.ar", "limit": 3}                      |
      | products.list    | {"categoryId": "5", "limit": 5}                              |
      | products.list    | {}                                                           |
      | deliveries.track | {"deliveryId": "WH/OUT/00021"}                               |
      | deliveries.track | {"deliveryId": "WH/OUT/00019"}                               |
      | deliveries.track | {"deliveryId": "WH/OUT/00018"}                               |

  @REQ-LUJ-15
  Scenario: the answers carry exactly the contract's fields
    When the client calls "orders.get" with:
      """
      {"orderId": "S00038", "includeLines": true}
      """
    Then the result contains:
      """
      {"orderId": "<str>", "status": "<str>", "customerName": "<str>", "totalAmount": "<number>",
       "createdAt": "<str>", "lines": "<list>"}
      """
    And [reference] the result has exactly the keys "orderId, status, customerName, totalAmount, createdAt, lines"
    When the client calls "customers.search" with:
      """
      {"query": "Juan"}
      """
    Then the result contains:
      """
      {"customers": "<list>", "totalCount": "<int>"}
      """
    And [reference] the result has exactly the keys "customers, totalCount"
