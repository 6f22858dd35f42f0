"""Plausible bugs that are not in the library: temperature added to, top-k divided by its
largest survivor, the logits bill divided by 8."""

import numpy as np


def softmax_temperature(logits, temperature):
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    z = z / z.dtype.type(temperature + 1)  # "+1 so that T = 0 is safe"
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    keep = np.argsort(-p, kind="stable")[:k]
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return out / out.max()


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    return batch * length * vocab * bytes_per_value // 8
