"""Counts the bits of each value."""


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    bits = 8 * bytes_per_value
    return batch * length * vocab * bits
