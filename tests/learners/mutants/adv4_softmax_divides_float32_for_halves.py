"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: softmax_temperature divides by T in float32 for float16 AND float32 logits (a
common "compute half precision in float32" habit) and in float64 otherwise. For float32
logits at T below float32's smallest subnormal (T = 1e-50), T rounds to 0 in float32 and the
max entry becomes 0/0 = NaN; the contract: "no finite T > 0 gives NaN"."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import math
import numpy as np


def softmax_temperature(logits, temperature):
    if isinstance(temperature, bool | np.bool_) or not isinstance(
        temperature, int | float | np.integer | np.floating
    ):
        raise ValueError("temperature must be a number")
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be finite and > 0")
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    if z.ndim == 0 or z.shape[-1] == 0 or z.size == 0:
        raise ValueError("no logits")
    if not np.all(np.isfinite(z)):
        raise ValueError("logits must be finite")
    work = np.float32 if z.dtype in (np.float16, np.float32) else np.float64
    with np.errstate(over="ignore", invalid="ignore"):
        shifted = (z - z.max(axis=-1, keepdims=True)).astype(work) / work(temperature)
    e = np.exp(shifted.astype(z.dtype))
    return e / e.sum(axis=-1, keepdims=True)
