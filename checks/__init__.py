"""The chapters' subject functions, the checks that measure them, and their registry.

Importing this package fills :data:`checks.registry.REGISTRY`: the reference functions, the
checks, the chapter's faults and other known mistakes, input generators and challenges.
"""

from checks import challenge, faults, measure, mistakes, reference
from checks.registry import REGISTRY, Implementation, Registry

__all__ = [
    "REGISTRY",
    "Implementation",
    "Registry",
    "challenge",
    "faults",
    "measure",
    "mistakes",
    "reference",
]
