"""Forgets to return: None crosses (it is what the function returned) and the check errs."""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    batch * length * vocab * bytes_per_value
