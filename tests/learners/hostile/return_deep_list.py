"""Returns a list nested 10,000 deep."""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    value = [batch]
    for _ in range(10_000):
        value = [value]
    return value
