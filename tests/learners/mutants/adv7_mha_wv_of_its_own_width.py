"""From an adversarial tester's seventh held-out set (a false pass, now caught): BUGGY: multi_head_attention lets w_v have a width of its own and checks w_o against it: w_q, w_k (4, 4) with w_v (4, 2) return (T, d_out) where the contract raises."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    w_q, w_v = np.asarray(w_q), np.asarray(w_v)
    if w_v.shape != w_q.shape and w_v.shape[1] % n_head == 0:  # <- "like d_v != d in flash"
        x = np.asarray(x, dtype=np.float64)
        hs, hv = w_q.shape[1] // n_head, w_v.shape[1] // n_head
        heads = []
        for h in range(n_head):
            q, kk = x @ w_q[:, h * hs : (h + 1) * hs], x @ np.asarray(w_k)[:, h * hs : (h + 1) * hs]
            heads.append(
                _base.causal_masked_attention(q @ kk.T / np.sqrt(hs))
                @ (x @ w_v[:, h * hv : (h + 1) * hv])
            )
        return np.concatenate(heads, axis=1) @ np.asarray(w_o)
    return _base.multi_head_attention(x, w_q, w_k, w_v, w_o, n_head)
