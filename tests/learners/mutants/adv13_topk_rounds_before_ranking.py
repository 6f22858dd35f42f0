"""From an adversarial tester's thirteenth held-out set (a false pass, now caught): BUGGY: top_k_renormalize ranks on np.round(p, 12), so a near-tie keeps the wrong token."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def top_k_renormalize(probs, k):
    _base.top_k_renormalize(probs, k)  # its checks
    p = np.asarray(probs, dtype=float)
    order = np.argsort(-np.round(p, 12), kind="stable")[:k]  # <- rounded before ranking
    out = np.zeros_like(p)
    out[order] = p[order]
    return out / out[order].sum()
