@SPEC-11
Feature: Tool annotations
  Every tool says, explicitly, whether it reads, destroys, repeats safely and reaches out.

  Background:
    Given the server runs in "full" mode

  @REQ-11-17 @REQ-11-18 @REQ-03-13 @REQ-03-14
  Scenario Outline: read and listing tools are read-only, safe and idempotent
    When the client lists the tools
    Then the tool "<tool>" has the annotations:
      """
      {"title": "<str>", "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}
      """

    Examples:
      | tool                    |
      | odoo_core_search_read   |
      | odoo_core_read          |
      | odoo_core_count         |
      | odoo_core_fields_get    |
      | odoo_core_name_get      |
      | odoo_core_default_get   |
      | odoo_core_list_models   |
      | odoo_core_list_toolsets |

  @REQ-11-17 @REQ-11-18 @REQ-04-18 @REQ-03-13 @REQ-03-14
  Scenario Outline: write tools carry their own hints
    When the client lists the tools
    Then the tool "<tool>" has the annotations:
      """
      {"title": "<str>", "readOnlyHint": false, "destructiveHint": <destructive>, "idempotentHint": <idempotent>, "openWorldHint": true}
      """

    Examples:
      | tool              | destructive | idempotent |
      | odoo_core_create  | false       | false      |
      | odoo_core_write   | false       | true       |
      | odoo_core_unlink  | true        | true       |
      | odoo_core_execute | false       | false      |

  @REQ-11-17
  Scenario Outline: every listed tool, whatever its name, states its hints in every mode
    Given the server runs in "<mode>" mode
    When the client lists the tools
    Then every listed tool states all four annotation hints and a title

    Examples:
      | mode       |
      | readonly   |
      | restricted |
      | full       |
