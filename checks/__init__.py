"""Chapter 23's pack: its reference functions, checks, faults and other learner mistakes,
input generators, challenges and report figures, all registered in :data:`pack`.

Importing this package registers everything; the engine finds it through the entry point
``design-tradeoffs`` (``pyproject.toml``), named by ``claims/23-design-tradeoffs/module.yaml``.
"""

from checks import (
    challenge,
    faults,
    figures,
    generators,
    measure,
    mistakes,
    mistakes_contract,
    reference,
)
from checks.pack import pack

__all__ = [
    "challenge",
    "faults",
    "figures",
    "generators",
    "measure",
    "mistakes",
    "mistakes_contract",
    "pack",
    "reference",
]
