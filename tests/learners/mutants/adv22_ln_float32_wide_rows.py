"""From an adversarial tester's twenty-second held-out set (a false pass, now caught): BUGGY: layer_norm computes rows of d >= 512 in float32 "to save memory" and casts the result back to float64 (off by about 1e-7 relative)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def layer_norm(x, gain, bias, eps=1e-5):
    a = np.asarray(x)
    if a.ndim >= 1 and a.shape[-1] >= 512:
        out = _base.layer_norm(
            a.astype(np.float32),
            np.asarray(gain, dtype=np.float32),
            np.asarray(bias, dtype=np.float32),
            eps,
        )
        return np.asarray(out).astype(np.float32).astype(np.float64)
    return _base.layer_norm(x, gain, bias, eps)
