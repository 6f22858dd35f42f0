"""Computes the softmax in float16 to save memory."""

import numpy as np


def softmax_temperature(logits, temperature):
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    z = np.asarray(logits, dtype=np.float16) / np.float16(temperature)
    e = np.exp(z - z.max())
    return (e / e.sum()).astype(np.float64)
