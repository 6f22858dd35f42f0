"""Returns the size in MiB, as the chapter's table shows it."""


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    return batch * length * vocab * bytes_per_value / (1024 * 1024)
