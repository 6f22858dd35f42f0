"""Always FP32: 4 bytes per value."""


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    return batch * length * vocab * 4
