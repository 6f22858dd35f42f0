"""From an adversarial tester's twenty-first held-out set (a false pass, now caught): BUGGY: multi_head_attention keeps its last x and output, and for an x that extends it computes only the new rows' outputs with the last call's output for the old ones (keyed by x alone, not the weights)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_LAST = []


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    out = _base.multi_head_attention(x, w_q, w_k, w_v, w_o, n_head)
    a = np.asarray(x)
    if _LAST and a.ndim == 2 and a.shape[0] > _LAST[0].shape[0]:
        old, kept = _LAST
        if a.shape[1] == old.shape[1] and np.array_equal(a[: old.shape[0]], old):
            out = np.array(out, dtype=np.float64)
            out[: old.shape[0]] = kept  # the prefix's rows, as they were
    _LAST[:] = [a.copy(), np.array(out, dtype=np.float64)]
    return out
