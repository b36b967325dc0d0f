"""SPEC-07: the model registry (field metadata, modules, methods, states).

``fields``: ``FieldInfo``; ``cache``: ``ModelRegistry``; ``introspection``: the start-up
build; ``static``: the static registry file (imported from there: a start without one does
not load its models, issue 41); ``merge``: static and live merged;
``workflows``: decision 8's methods and transitions; ``key_fields``: decision 10;
``lookups``: the bounded lookups of one tool call (issue 37).
"""

from odoo_mcp.registry.cache import FieldSource, ModelRegistry, StartupSettings
from odoo_mcp.registry.fields import (
    FIELDS_GET_ATTRIBUTES,
    REGISTRY_ATTRIBUTES,
    RELATIONAL_TYPES,
    X2MANY_TYPES,
    FieldInfo,
)
from odoo_mcp.registry.introspection import (
    DEFAULT_INTROSPECT_MODELS,
    InstalledModule,
    IntrospectionLimits,
    IntrospectionReport,
)
from odoo_mcp.registry.key_fields import KEY_FIELDS, BlockedFieldCheck, key_fields

__all__ = [
    "DEFAULT_INTROSPECT_MODELS",
    "FIELDS_GET_ATTRIBUTES",
    "KEY_FIELDS",
    "REGISTRY_ATTRIBUTES",
    "RELATIONAL_TYPES",
    "X2MANY_TYPES",
    "BlockedFieldCheck",
    "FieldInfo",
    "FieldSource",
    "InstalledModule",
    "IntrospectionLimits",
    "IntrospectionReport",
    "ModelRegistry",
    "StartupSettings",
    "key_fields",
]
