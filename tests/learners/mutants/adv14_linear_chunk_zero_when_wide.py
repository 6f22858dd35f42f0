"""From an adversarial tester's fourteenth held-out set (a false pass, now caught): BUGGY: linear_attention sizes its chunk as min(64, 65536 // (d * d_v)) without max(1, ...): a step of 0 once d * d_v passes 65,536."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def linear_attention(q, k, v):
    d, d_v = np.shape(q)[-1], np.shape(v)[-1]
    if min(64, 65_536 // (d * d_v)) == 0:
        range(0, 1, 0)  # the chunked loop's step
    return _base.linear_attention(q, k, v)
