"""One sequence of logits: T x V x bytes."""


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    return length * vocab * bytes_per_value
