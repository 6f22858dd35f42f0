"""Check functions: each takes the implementation being judged and returns named measurements.

Importing this package registers every check in :data:`checks.registry.REGISTRY`.
"""

from checks.measure import (
    attention,
    audit,
    beyond,
    challenge,
    contract,
    memory,
    params,
    sampling,
    support,
    tokenizer,
)

__all__ = [
    "attention",
    "audit",
    "beyond",
    "challenge",
    "contract",
    "memory",
    "params",
    "sampling",
    "support",
    "tokenizer",
]
