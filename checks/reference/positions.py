"""Stage 3: position information computed, not learned.

"参数量与 T 无关" holds for a model whose position information has no parameter indexed by
position. Two standard ways to get there are computed from the position index alone:
sinusoidal positions added to the input (Vaswani et al., 2017) and rotary embeddings applied
to queries and keys (RoFormer, Su et al., 2021). A learned table (GPT-2's ``wpe``) is an
array with one row per position, so the parameter count grows with the context.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from checks.pack import subject

Array = NDArray[np.float64]


def _frequencies(width: int) -> Array:
    """ω_i = 10000^(−2i/width) for i = 0..width/2−1: one angular frequency per pair (10000 is
    the wavelength base of both papers)."""
    if isinstance(width, bool) or not isinstance(width, int | np.integer) or width < 2 or width % 2:
        raise ValueError(f"the width must be an even integer >= 2, got {width!r}")
    return 10000.0 ** (-np.arange(0, width, 2, dtype=np.float64) / width)


@subject("sinusoidal_positions")
def sinusoidal_positions(length: int, d_model: int) -> Array:
    """Stage 3 (sinusoidal positions): the (T, d) table computed from t, no parameter.

    PE[t, 2i] = sin(t·ω_i) and PE[t, 2i+1] = cos(t·ω_i) with ω_i = 10000^(−2i/d), the
    interleaved layout of "Attention Is All You Need" (not sines then cosines in two halves).
    ValueError for a d_model that is odd or below 2 (d_model = 0 included: a table with no
    frequency is not a position code) or a negative length.
    """
    if isinstance(length, bool) or not isinstance(length, int | np.integer) or length < 0:
        raise ValueError(f"length must be an integer >= 0, got {length!r}")
    omega = _frequencies(d_model)  # (d/2,)
    angles = np.arange(length, dtype=np.float64)[:, None] * omega  # (T, d/2)
    pe = np.empty((int(length), int(d_model)))  # (T, d)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


@subject("rotary_embedding")
def rotary_embedding(x: Array, offset: int = 0) -> Array:
    """Stage 3 (rotary positions): rotate each feature pair of x by its position's angle.

    Shapes: x (T, hs) -> (T, hs), hs even. Row t sits at position offset + t; the pair
    (x[2i], x[2i+1]) is rotated by the angle (offset + t)·ω_i with ω_i = 10000^(−2i/hs), the
    interleaved pairs of RoFormer (not the rotate-half layout pairing i with i + hs/2).
    Applied to queries and keys, it makes q_m·k_n depend on m − n only; it has no parameter.
    ValueError for an odd hs or a negative offset (a NumPy integer such as np.int64(-1)
    included). The result is float64 whatever x's dtype (integer or float32 x included), and
    the positions offset + t are float64 too (float32 rounds 2^24 + 1 to 2^24). T = 0 is
    outside the contract, but the arguments are checked before any shortcut: an odd hs or a
    negative offset is a ValueError at T = 0 too.
    """
    x = np.asarray(x, dtype=np.float64)  # (T, hs)
    if x.ndim != 2:
        raise ValueError(f"x must be (T, hs), got {x.shape}")
    if isinstance(offset, bool) or not isinstance(offset, int | np.integer) or offset < 0:
        raise ValueError(f"offset must be an integer >= 0, got {offset!r}")
    t_len, hs = x.shape
    omega = _frequencies(hs)  # (hs/2,)
    angles = (offset + np.arange(t_len, dtype=np.float64))[:, None] * omega  # (T, hs/2)
    cos, sin = np.cos(angles), np.sin(angles)  # (T, hs/2) each
    even, odd = x[:, 0::2], x[:, 1::2]  # (T, hs/2) each, views
    out = np.empty_like(x)  # (T, hs)
    out[:, 0::2] = even * cos - odd * sin
    out[:, 1::2] = even * sin + odd * cos
    return out
