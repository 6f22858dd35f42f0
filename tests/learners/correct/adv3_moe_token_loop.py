"""Correct, from an adversarial tester's third held-out set (moe_token_loop): moe_layer one token at a time: sorted(range(E), key=-score) (stable), softmax of the kept scores, each kept expert run on that token alone."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from _base import *

Array = NDArray[np.float64]


def _integer(name: str, value: object, minimum: int) -> int:
    """``value`` as a Python int >= ``minimum``, or a ValueError naming the argument."""
    # bool is an int to Python, and np.bool_ was once an index: neither is a size
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be an integer, got the boolean {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {number}")
    return number


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):  # noqa: F811
    x = np.asarray(x, dtype=np.float64)
    w_router = np.asarray(w_router, dtype=np.float64)
    w_in = np.asarray(experts_w_in, dtype=np.float64)
    w_out = np.asarray(experts_w_out, dtype=np.float64)
    if x.ndim != 2 or 0 in x.shape or w_router.ndim != 2 or w_router.shape[0] != x.shape[1]:
        raise ValueError("bad x or w_router")
    t_len, d = x.shape
    n_exp = w_router.shape[1]
    if w_in.ndim != 3 or w_in.shape[:2] != (n_exp, d):
        raise ValueError("bad experts_w_in")
    if w_out.shape != (n_exp, w_in.shape[2], d):
        raise ValueError("bad experts_w_out")
    top_k = _integer("top_k", top_k, 1)
    if top_k > n_exp:
        raise ValueError("top_k > E")
    y = np.zeros((t_len, d))
    for t in range(t_len):
        scores = x[t] @ w_router
        chosen = sorted(range(n_exp), key=lambda e: -scores[e])[:top_k]
        kept = scores[chosen]
        g = np.exp(kept - kept.max())
        g = g / g.sum()
        for gate, e in zip(g, chosen):
            y[t] += gate * position_wise_mlp(x[t : t + 1], w_in[e], w_out[e])[0]
    return y
