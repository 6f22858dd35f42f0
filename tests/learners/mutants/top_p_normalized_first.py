"""Mutant: Normalizes the weights to sum 1 before the running sum (the same for probabilities,
not for weights that sum to 2: [0.6, 0.6, 0.6, 0.2] at p = 0.5 keeps two tokens, not one)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
from _base import *
from _base import top_p_renormalize as refuses_what_it_must


def top_p_renormalize(probs, p):
    refuses_what_it_must(probs, p)  # the same ValueErrors; the cut is this file's own
    weights = np.asarray(probs, dtype=np.float64)
    share = weights / weights.max()
    share = share / share.sum()  # probabilities first, then their running mass
    before = np.concatenate(([0.0], np.cumsum(share[np.argsort(-weights, kind="stable")])[:-1]))
    kept = np.argsort(-weights, kind="stable")[before < p] if p < 1 else np.arange(weights.size)
    out = np.zeros_like(weights)
    out[kept] = weights[kept]
    return to_one(out)
