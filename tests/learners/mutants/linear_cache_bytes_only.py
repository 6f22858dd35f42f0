"""Mutant: linear_attention keeps its last result keyed by the raw bytes of q, k and v, not
their shapes or dtypes: the same bytes as (2, 4) after (4, 2), or as int64 after float64,
get the first call's result. The cases that tell those keys apart were flash_attention's
only (a buggy-learner round, 2026-12-07)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *

_LAST = {}


def linear_attention(q, k, v):
    key = b"|".join(np.ascontiguousarray(a).tobytes() for a in (q, k, v))
    if key in _LAST:
        return _LAST[key].copy()
    out = _base.linear_attention(q, k, v)
    _LAST.clear()
    _LAST[key] = out.copy()
    return out
