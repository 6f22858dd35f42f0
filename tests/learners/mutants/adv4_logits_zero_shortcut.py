"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: logits_memory_bytes returns 0 as soon as one size is 0, before checking the other
arguments: logits_memory_bytes(0, -1, 50257) gives 0 instead of ValueError (the contract's
"no shortcut before the checks", the very mistake kv_cache_bytes' generator tests)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    if batch == 0 or length == 0 or vocab == 0:
        return 0  # <- shortcut before the checks
    b = as_int("batch", batch, 0)
    t = as_int("length", length, 0)
    v = as_int("vocab", vocab, 0)
    nbytes = as_int("bytes_per_value", bytes_per_value, 1)
    return b * t * v * nbytes
