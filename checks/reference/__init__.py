"""The reference implementation of chapter 23's functions, under the chapter's names.

Importing this package registers every function as a subject of :data:`checks.pack.pack`.
"""

from checks.reference import (
    attention,
    beyond,
    blocks,
    cache,
    decoding,
    memory,
    params,
    positions,
    sampling,
    support,
    tokenizer,
)

__all__ = [
    "attention",
    "beyond",
    "blocks",
    "cache",
    "decoding",
    "memory",
    "params",
    "positions",
    "sampling",
    "support",
    "tokenizer",
]
