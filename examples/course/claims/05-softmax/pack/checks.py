"""The checks of chapter 5's claims: each takes the implementation being judged."""

from __future__ import annotations

import numpy as np

from runner.pack import Implementation, Measurements

from . import pack


@pack.check(
    "softmax_properties",
    needs=("softmax",),
    measures=("max_sum_error", "max_shift_difference", "non_finite"),
)
def softmax_properties(
    impl: Implementation, rows: int, width: int, scale: float, rng: np.random.Generator
) -> Measurements:
    """Stage 1: rows of random scores of size ``scale``: sums, shift invariance, finiteness."""
    softmax = impl["softmax"]
    z = rng.standard_normal((rows, width)) * scale  # (rows, width)
    p = np.asarray(softmax(z), dtype=np.float64)  # (rows, width)
    shifted = np.asarray(softmax(z + 3.0), dtype=np.float64)
    finite = np.isfinite(p)
    return {
        "max_sum_error": float(np.max(np.abs(p.sum(axis=-1) - 1.0))),
        "max_shift_difference": float(np.max(np.abs(shifted - p))),
        "non_finite": int(p.size - finite.sum()),
    }


@pack.check(
    "bigram_table", needs=("bigram_counts",), measures=("pairs", "counts", "max_row_sum_error")
)
def bigram_table(impl: Implementation, text: str) -> Measurements:
    """Stage 2: the counts of one text, over its own sorted alphabet, and the rows they give."""
    alphabet = "".join(sorted(set(text)))
    counts = np.asarray(impl["bigram_counts"](text, alphabet))  # (V, V)
    totals = counts.sum(axis=1, keepdims=True)  # (V, 1)
    seen = totals[:, 0] > 0
    rows = counts[seen] / totals[seen]  # the conditional distributions of the seen rows
    return {
        "pairs": int(counts.sum()),
        "counts": counts.tolist(),
        "max_row_sum_error": float(np.max(np.abs(rows.sum(axis=1) - 1.0))) if seen.any() else 0.0,
    }
