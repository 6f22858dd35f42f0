"""Stage 7: the tokenizer's bill, as the bytes of one logits tensor."""

from __future__ import annotations

from checks.pack import subject
from checks.reference._args import _integer


@subject("logits_memory_bytes")
def logits_memory_bytes(batch: int, length: int, vocab: int, bytes_per_value: int = 4) -> int:
    """Stage 7: B x T x V x bytes, the size of the (B, T, V) logits (FP32 = 4 bytes).

    batch, length, vocab >= 0 and bytes_per_value >= 1 are integers (Python or NumPy,
    else ValueError; a size of 0 is valid, 0 bytes; bytes_per_value may be any integer >= 1,
    3 included); the product is an exact Python int, never wrapped around in int32 or int64
    (2^21 · 2^21 · 2^21 · 2 = 2^64 exactly).
    """
    batch = _integer("batch", batch, 0)
    length = _integer("length", length, 0)
    vocab = _integer("vocab", vocab, 0)
    bytes_per_value = _integer("bytes_per_value", bytes_per_value, 1)
    return batch * length * vocab * bytes_per_value
