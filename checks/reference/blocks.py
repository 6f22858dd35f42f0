"""Stage 3: the operators around attention that act on each position alone.

The chapter says attention is the only cross-position operator: "MLP、LayerNorm、embedding
查表、输出投影，没有一个是跨位置的". The MLP is in :mod:`checks.reference.attention`; these
are the other three, each a function of one position's row and weights with no T in them.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from checks.pack import subject

Array = NDArray[np.float64]


@subject("layer_norm")
def layer_norm(x: Array, gain: Array, bias: Array, eps: float = 1e-5) -> Array:
    """Stage 3 (LayerNorm): normalize each position's d features, then scale and shift.

    Shapes: x (T, d), gain (d,), bias (d,) -> (T, d). Mean and (biased) variance are taken
    over the feature axis of each row, so no position sees another: the variance of the
    centred row, mean((x − μ)²), not the one-pass E[x²] − μ², which cancels digits and is
    off by about 3e-8 relative for features near 1e4 (the claims pass such rows); eps is
    added to the variance before the square root, as in GPT-2. The result is float64 whatever the inputs'
    dtype (float32 or integer in, float64 out). ValueError for shapes that do not fit (a gain
    or bias of shape (1,) included: nothing is broadcast; a gain of shape (1, d) or a bias of
    shape (d, 1) has the right size but not the shape (d,), and is refused too) or an eps
    that is not > 0 (NaN included). T = 0 (no positions) is outside the contract: no claim
    passes it.
    """
    x = np.asarray(x, dtype=np.float64)  # (T, d)
    gain = np.asarray(gain, dtype=np.float64)  # (d,)
    bias = np.asarray(bias, dtype=np.float64)  # (d,)
    if x.ndim != 2 or gain.shape != (x.shape[1],) or bias.shape != (x.shape[1],):
        raise ValueError(
            f"need x (T, d), gain (d,), bias (d,); got {x.shape}, {gain.shape}, {bias.shape}"
        )
    if not eps > 0:
        raise ValueError(f"eps must be > 0, got {eps}")
    mean = x.mean(axis=1, keepdims=True)  # (T, 1)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)  # (T, 1)
    return (x - mean) / np.sqrt(var + eps) * gain + bias  # type: ignore[no-any-return]


@subject("embedding_lookup")
def embedding_lookup(tokens: NDArray[np.integer], table: Array) -> Array:
    """Stage 3 (embedding): row ``tokens[t]`` of the (V, d) table for each position t.

    Shapes: tokens (T,) integer ids in 0..V-1, table (V, d) -> (T, d). ValueError for ids
    that are not integers (a float array, even of whole numbers such as 2.0: never rounded
    or cast; a boolean array, which is a mask, not ids), ids that are not a vector (a 0-d id
    such as np.int64(3) included), an id outside 0..V-1, or a table that is not (V, d). An
    empty vector is T = 0, whatever its dtype (np.array([]) and [] included): (0, d). The
    rows are float64 whatever the table's dtype (a float32 or integer table gives float64 rows).
    """
    ids = np.asarray(tokens)  # (T,)
    table = np.asarray(table, dtype=np.float64)  # (V, d)
    if table.ndim != 2:
        raise ValueError(f"table must be (V, d), got {table.shape}")
    if ids.ndim != 1 or not (ids.size == 0 or np.issubdtype(ids.dtype, np.integer)):
        raise ValueError(f"tokens must be a vector of integer ids, got {ids.dtype} {ids.shape}")
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError(f"token ids must be in 0..{table.shape[0] - 1}")
    if ids.size == 0:  # T = 0, whatever the empty vector's dtype (np.array([]) is float64)
        return np.zeros((0, table.shape[1]))  # (0, d)
    return table[ids]  # (T, d), a copy (fancy indexing)


@subject("output_head")
def output_head(h: Array, table: Array) -> Array:
    """Stage 3 (output projection): V logits per position from the tied (V, d) embedding.

    Shapes: h (T, d), table (V, d) -> (T, V): logits = h @ tableᵀ, so the head adds no
    parameter of its own (the chapter's "输出头（embedding 共享时）0"). ValueError when the
    widths differ (a width of 1 on either side included: nothing is broadcast). The logits
    are float64 whatever the inputs' dtype (float32 or integer in, float64 out, computed in
    float64). T = 0 or V = 0 is outside the contract: no claim passes them.
    """
    h = np.asarray(h, dtype=np.float64)  # (T, d)
    table = np.asarray(table, dtype=np.float64)  # (V, d)
    if h.ndim != 2 or table.ndim != 2 or h.shape[1] != table.shape[1]:
        raise ValueError(f"need h (T, d) and table (V, d); got {h.shape}, {table.shape}")
    return h @ table.T
