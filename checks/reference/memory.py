"""Stage 7: the tokenizer's bill, as the bytes of one logits tensor."""

from __future__ import annotations

from checks.registry import subject


@subject("logits_memory_bytes")
def logits_memory_bytes(batch: int, length: int, vocab: int, bytes_per_value: int = 4) -> int:
    """Stage 7: B x T x V x bytes, the size of the (B, T, V) logits (FP32 = 4 bytes)."""
    for name, value in (("batch", batch), ("length", length), ("vocab", vocab)):
        if value < 0:
            raise ValueError(f"{name} must be >= 0, got {value}")
    if bytes_per_value < 1:
        raise ValueError(f"bytes_per_value must be >= 1, got {bytes_per_value}")
    return batch * length * vocab * bytes_per_value
