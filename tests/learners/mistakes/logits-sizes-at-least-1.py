"""Every size >= 1.

The scaffold's reference logits_memory_bytes() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821


def logits_memory_bytes(batch: int, length: int, vocab: int, bytes_per_value: int = 4) -> int:
    batch = _integer("batch", batch, 1)
    length = _integer("length", length, 1)
    vocab = _integer("vocab", vocab, 1)
    bytes_per_value = _integer("bytes_per_value", bytes_per_value, 1)
    return batch * length * vocab * bytes_per_value
