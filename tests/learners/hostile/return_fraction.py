"""Returns a Fraction."""

from fractions import Fraction

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    return Fraction(_right(batch, length, vocab, bytes_per_value))
