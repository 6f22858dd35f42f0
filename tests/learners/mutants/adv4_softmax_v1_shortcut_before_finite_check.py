"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: softmax_temperature returns ones for V = 1 after checking T but before checking the
logits: softmax_temperature(np.array([np.nan]), 1.0) gives [1.0] instead of ValueError (the
contract: "ValueError for ... non-finite logits (±inf, NaN: test each entry ...)")."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    if isinstance(temperature, bool | np.bool_) or not isinstance(
        temperature, int | float | np.integer | np.floating
    ):
        raise ValueError("temperature must be a number")
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be finite and > 0")
    z = np.asarray(logits)
    if z.ndim >= 1 and z.shape[-1] == 1 and z.size:
        dtype = z.dtype if np.issubdtype(z.dtype, np.floating) else np.float64
        return np.ones(z.shape, dtype=dtype)  # <- shortcut before the logits' checks
    return _base.softmax_temperature(logits, temperature)
