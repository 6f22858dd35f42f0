"""The textbook softmax: exp(z / T) / sum exp(z / T)."""

import numpy as np


def softmax_temperature(logits, temperature):
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    e = np.exp(z / z.dtype.type(temperature))
    return e / np.sum(e, axis=-1, keepdims=True)
