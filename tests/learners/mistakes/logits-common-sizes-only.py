"""Only 1, 2, 4 or 8 bytes.

The scaffold's reference logits_memory_bytes() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821


def logits_memory_bytes(batch: int, length: int, vocab: int, bytes_per_value: int = 4) -> int:
    batch = _integer("batch", batch, 0)
    length = _integer("length", length, 0)
    vocab = _integer("vocab", vocab, 0)
    bytes_per_value = _integer("bytes_per_value", bytes_per_value, 1)
    if bytes_per_value not in (1, 2, 4, 8):
        raise ValueError(f"bytes_per_value must be 1, 2, 4 or 8, got {bytes_per_value}")
    return batch * length * vocab * bytes_per_value
