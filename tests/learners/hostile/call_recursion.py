"""Unbounded recursion with the recursion limit lifted."""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import sys

    sys.setrecursionlimit(10**8)

    def deeper(n):
        return deeper(n + 1) + 1

    return deeper(0)
