"""Scales the logits by T, multiplying."""

import numpy as np


def softmax_temperature(logits, temperature):
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    z = z * z.dtype.type(temperature)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
