"""From an adversarial tester's twenty-first held-out set (a false pass, now caught): BUGGY: causal_masked_attention slices a (1024, 1024) mask made once, as GPT-2's buffer: scores past T = 1,024 do not fit it."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np

_MASK = np.tril(np.ones((1024, 1024), dtype=bool))


def causal_masked_attention(scores):
    s = np.asarray(scores)
    if s.ndim >= 2 and s.shape[-1] == s.shape[-2] and s.shape[-1] > 1024:
        t = s.shape[-1]
        np.where(_MASK[:t, :t], s, -np.inf)  # (1024, 1024) against (T, T): a ValueError
    return _base.causal_masked_attention(scores)
