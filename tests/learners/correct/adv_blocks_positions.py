"""Correct, from an adversarial tester's alternatives (alt_blocks_positions): layer_norm,
sinusoidal_positions, rotary_embedding, embedding_lookup, position_wise_mlp rewritten
independently from the contract."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from _base import *


Array = NDArray[np.float64]


def _matrix(name: str, a: object) -> Array:
    """``a`` as a float64 (rows, cols) array with both sizes >= 1, or a ValueError."""
    m = np.asarray(a, dtype=np.float64)
    if m.ndim != 2 or 0 in m.shape:
        raise ValueError(f"{name} must be a 2-D array with both sizes >= 1, got shape {m.shape}")
    return m


def position_wise_mlp(x, w_in, w_out):
    x = _matrix("x", x)
    w_in, w_out = _matrix("w_in", w_in), _matrix("w_out", w_out)
    if w_in.shape[0] != x.shape[1] or w_out.shape[0] != w_in.shape[1]:
        raise ValueError("shapes")
    out = np.zeros((x.shape[0], w_out.shape[1]))
    c = math.sqrt(2.0 / math.pi)
    for t in range(x.shape[0]):  # position by position
        h = x[t] @ w_in
        with np.errstate(over="ignore"):
            g = h * (0.5 + 0.5 * np.tanh(c * h * (1.0 + 0.044715 * h * h)))
        out[t] = g @ w_out
    return out


def layer_norm(x, gain, bias, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    gain = np.asarray(gain, dtype=np.float64)
    bias = np.asarray(bias, dtype=np.float64)
    if x.ndim != 2 or gain.shape != (x.shape[1],) or bias.shape != (x.shape[1],):
        raise ValueError("shapes")
    if not eps > 0:
        raise ValueError("eps")
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return gain * ((x - mu) * (1.0 / np.sqrt(var + eps))) + bias


def embedding_lookup(tokens, table):
    ids = np.asarray(tokens)
    table = np.asarray(table, dtype=np.float64)
    if table.ndim != 2:
        raise ValueError("table")
    if ids.ndim != 1:
        raise ValueError("ids")
    if ids.size == 0:
        return np.zeros((0, table.shape[1]))
    if ids.dtype.kind not in "iu":
        raise ValueError("ids must be integers")
    if ids.min() < 0 or ids.max() >= table.shape[0]:
        raise ValueError("id out of range")
    return np.take(table, ids.astype(np.int64), axis=0)


def sinusoidal_positions(length, d_model):
    """Via complex exponentials: e^{i t ω} = cos + i sin, ω = exp(-2i ln(10000)/d)."""
    for v in (length, d_model):
        if isinstance(v, bool) or not isinstance(v, int | np.integer):
            raise ValueError("sizes must be integers")
    if length < 0 or d_model < 2 or d_model % 2:
        raise ValueError("bad sizes")
    length, d_model = int(length), int(d_model)
    omega = np.exp(-np.arange(0, d_model, 2) * (math.log(10000.0) / d_model))
    ang = np.outer(np.arange(length), omega)
    pe = np.zeros((length, d_model))
    pe[:, ::2] = np.sin(ang)
    pe[:, 1::2] = np.cos(ang)
    return pe


def rotary_embedding(x, offset=0):
    """Pairs as complex numbers, multiplied by e^{i (offset+t) ω_i}."""
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or x.shape[1] % 2 or x.shape[1] < 2:
        raise ValueError("x must be (T, hs), hs even")
    if isinstance(offset, bool) or not isinstance(offset, int | np.integer) or offset < 0:
        raise ValueError("offset")
    t_len, hs = x.shape
    z = x[:, 0::2] + 1j * x[:, 1::2]
    omega = 10000.0 ** (-np.arange(0, hs, 2) / hs)
    rot = np.exp(1j * np.outer(int(offset) + np.arange(t_len), omega))
    w = z * rot
    out = np.empty_like(x)
    out[:, 0::2] = w.real
    out[:, 1::2] = w.imag
    return out
