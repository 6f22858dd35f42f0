"""From an adversarial tester's eighteenth held-out set (a false pass, now caught): BUGGY: causal_masked_attention writes weights of 1 MiB or more into one module-level workspace per shape and returns it (a result past 1 MiB was not held to be looked at again)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_WORKSPACE = {}


def causal_masked_attention(scores):
    out = _base.causal_masked_attention(scores)
    if out.nbytes < 1 << 20:
        return out
    buf = _WORKSPACE.setdefault((out.shape, out.dtype), np.empty_like(out))
    buf[...] = out
    return buf
