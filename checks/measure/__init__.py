"""Check functions: each takes the implementation being judged and returns named measurements.

Importing this package registers every check of :data:`checks.pack.pack`.
"""

from checks.measure import (
    attention,
    audit,
    beyond,
    challenge,
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
    "memory",
    "params",
    "sampling",
    "support",
    "tokenizer",
]
