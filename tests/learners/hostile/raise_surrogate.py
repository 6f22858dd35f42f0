"""Raises with a lone surrogate and a right-to-left override in its message and its type's
name: text that cannot be written as UTF-8, and text that reorders a terminal line."""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)

Bad = type("Bad\u202eError", (ValueError,), {})  # a name cannot hold a surrogate


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    raise Bad("bad \ud800 \u202e deliaf")
