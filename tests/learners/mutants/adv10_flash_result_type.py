"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: flash_attention computes in np.result_type: long double q, k, v give a long double output."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# flash_attention computes in np.result_type(q, k, v, float64): longdouble inputs give a longdouble output
_flash_base = flash_attention


def flash_attention(q, k, v, block):
    dt = np.result_type(np.asarray(q).dtype, np.asarray(k).dtype, np.asarray(v).dtype, np.float64)
    if dt == np.float64:
        return _flash_base(q, k, v, block)
    q, k, v = (np.asarray(a, dtype=dt) for a in (q, k, v))
    if (
        q.ndim != 2
        or k.shape != q.shape
        or v.ndim != 2
        or v.shape[0] != q.shape[0]
        or 0 in q.shape
        or 0 in v.shape
    ):
        raise ValueError("shapes")
    b = as_int("block", block, 1)
    t, d = q.shape
    out = np.zeros((t, v.shape[1]), dtype=dt)
    for i in range(0, t, b):
        qi = q[i : i + b] / np.sqrt(dt.type(d))
        rows = np.arange(i, min(i + b, t))
        m = np.full(len(rows), -np.inf, dtype=dt)
        den = np.zeros(len(rows), dtype=dt)
        acc = np.zeros((len(rows), v.shape[1]), dtype=dt)
        for j in range(0, rows[-1] + 1, b):
            cols = np.arange(j, min(j + b, t))
            s = qi @ k[j : j + b].T
            s[cols[None, :] > rows[:, None]] = -np.inf
            nm = np.maximum(m, s.max(axis=1))
            p = np.exp(s - nm[:, None])
            al = np.exp(m - nm)
            den = den * al + p.sum(axis=1)
            acc = acc * al[:, None] + p @ v[j : j + b]
            m = nm
        out[i : i + b] = acc / den[:, None]
    return out
