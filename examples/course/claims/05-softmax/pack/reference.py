"""The reference functions of chapter 5."""

from __future__ import annotations

import itertools

import numpy as np

from . import pack


@pack.subject("softmax")
def softmax(z: np.ndarray) -> np.ndarray:
    """softmax over the last axis of z (any shape, at least one value per row), as float64.

    Subtract each row's max before exp, so scores of ±1000 do not overflow. Raises
    ValueError for an empty last axis or a non-finite score.
    """
    x = _scores(z)  # (..., V)
    e = np.exp(x - x.max(axis=-1, keepdims=True))  # (..., V), the largest entry is exp(0) = 1
    return e / e.sum(axis=-1, keepdims=True)


@pack.subject("bigram_counts")
def bigram_counts(text: str, alphabet: str) -> np.ndarray:
    """counts[i, j]: how often alphabet[j] follows alphabet[i] in text, an int64 (V, V) array.

    Only adjacent characters count: len(text) - 1 pairs in all. Raises ValueError when the
    alphabet is empty or repeats a character, or the text uses a character outside it.
    """
    index = _indices(text, alphabet)
    v = len(alphabet)
    counts = np.zeros((v, v), dtype=np.int64)  # (V, V): row = this character, column = next
    for a, b in itertools.pairwise(text):
        counts[index[a], index[b]] += 1
    return counts


# -- the argument checks, shared with the twins (a twin differs by its one mistake only) -------
def _scores(z: object) -> np.ndarray:
    """z as float64 with at least one value per row, every one finite."""
    x = np.asarray(z, dtype=np.float64)  # (..., V)
    if x.ndim == 0 or x.shape[-1] == 0:
        raise ValueError(f"z needs at least one value per row, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError("z must be finite")
    return x


def _indices(text: str, alphabet: str) -> dict[str, int]:
    """Each character of a valid alphabet -> its index; the text must use only those."""
    if not alphabet or len(set(alphabet)) != len(alphabet):
        raise ValueError("alphabet must be non-empty, without repeated characters")
    index = {ch: i for i, ch in enumerate(alphabet)}
    if any(ch not in index for ch in text):
        raise ValueError("text uses a character outside the alphabet")
    return index
