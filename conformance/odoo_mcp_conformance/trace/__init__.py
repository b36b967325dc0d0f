"""Traceability: catalogue x code tags x scenario tags x results, per requirement."""
