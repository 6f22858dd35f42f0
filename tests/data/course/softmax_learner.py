"""A learner's chapter-5 functions, written independently of the pack's reference."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np


def softmax(z):
    z = np.array(z, dtype=np.float64)
    if z.ndim == 0 or z.shape[-1] == 0 or not np.isfinite(z).all():
        raise ValueError("bad scores")
    shifted = z - np.max(z, axis=-1, keepdims=True)
    w = np.exp(shifted)
    return w / np.sum(w, axis=-1, keepdims=True)


def bigram_counts(text, alphabet):
    if len(alphabet) == 0 or len(set(alphabet)) < len(alphabet):
        raise ValueError("bad alphabet")
    where = {c: i for i, c in enumerate(alphabet)}
    if not set(text) <= set(where):
        raise ValueError("character outside the alphabet")
    out = np.zeros((len(alphabet), len(alphabet)), dtype=np.int64)
    for i in range(len(text) - 1):
        out[where[text[i]], where[text[i + 1]]] += 1
    return out
