"""The chapters' subject functions, the checks that measure them, and their registry."""

from checks import faults, measure, reference
from checks.registry import REGISTRY, Implementation, Registry

__all__ = ["REGISTRY", "Implementation", "Registry", "faults", "measure", "reference"]
