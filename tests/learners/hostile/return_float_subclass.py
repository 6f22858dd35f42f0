"""Returns a float subclass whose arithmetic lies."""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    class Liar(float):
        def __sub__(self, other):
            return 0.0

        def __eq__(self, other):
            return True

        __hash__ = float.__hash__

    return Liar(_right(batch, length, vocab, bytes_per_value))
