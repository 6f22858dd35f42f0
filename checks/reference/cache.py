"""Stages 3 and 7: the KV cache that incremental decoding keeps.

Stage 3 says training runs every position at once while decoding must go step by step;
stage 7 says the KV cache grows linearly with the number of tokens. A decoder that keeps
each layer's keys and values of every past token pays for exactly that.
"""

from __future__ import annotations

import numpy as np

from checks.pack import subject


def _count(name: str, value: int, minimum: int) -> int:
    """An exact Python int from an integer argument (NumPy integers too), or ValueError."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


@subject("kv_cache_bytes")
def kv_cache_bytes(
    batch: int, length: int, n_layer: int, d_model: int, bytes_per_value: int = 4
) -> int:
    """Stage 7 (KV cache): 2 × B × T × L × d × bytes, the keys and values of T tokens.

    Each of the L layers keeps one key and one value vector of width d (all heads together)
    for each of the T tokens of each of the B sequences; FP32 is 4 bytes. Sizes are integers
    >= 0 (0 is valid: 0 bytes; bytes_per_value >= 1, any integer: 3 included), Python or
    NumPy; the result is an exact Python int, past 2^63 too (an int64 product wraps around).
    """
    b = _count("batch", batch, 0)
    t = _count("length", length, 0)
    n_layer_ = _count("n_layer", n_layer, 0)
    d = _count("d_model", d_model, 0)
    size = _count("bytes_per_value", bytes_per_value, 1)
    return 2 * b * t * n_layer_ * d * size
