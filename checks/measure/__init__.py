"""Check functions: each takes the implementation being judged and returns named measurements.

Importing this package registers every check in :data:`checks.registry.REGISTRY`.
"""

from checks.measure import (
    attention,
    beyond,
    challenge,
    contract,
    memory,
    params,
    sampling,
    support,
)

__all__ = [
    "attention",
    "beyond",
    "challenge",
    "contract",
    "memory",
    "params",
    "sampling",
    "support",
]
