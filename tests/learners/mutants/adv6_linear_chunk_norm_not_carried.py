"""From an adversarial tester's sixth held-out set (a false pass, now caught): BUGGY: linear_attention works in chunks of 64 positions and carries S but not the normalizer z across chunks: rows from 64 on are wrong (T = 100: off by 11)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    out = _base.linear_attention(q, k, v)  # its checks, and rows 0..63 as they are
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    fq, fk = (
        np.where(q > 0, q + 1, np.exp(np.minimum(q, 0))),
        np.where(k > 0, k + 1, np.exp(np.minimum(k, 0))),
    )
    s = np.zeros((q.shape[1], v.shape[1]))
    for c0 in range(0, len(q), 64):
        c1 = min(c0 + 64, len(q))
        states = s + np.cumsum(fk[c0:c1, :, None] * v[c0:c1, None, :], axis=0)  # S carried
        norms = np.cumsum(fk[c0:c1], axis=0)  # <- z restarts in every chunk
        out[c0:c1] = (
            np.einsum("td,tdv->tv", fq[c0:c1], states)
            / np.einsum("td,td->t", fq[c0:c1], norms)[:, None]
        )
        s = states[-1]
    return out
