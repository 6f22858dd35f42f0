"""Converts the logits to float64 first, whatever their dtype."""

import numpy as np


def softmax_temperature(logits, temperature):
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    z = np.array(logits, dtype=np.float64) / temperature
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
