"""Mutant: The right function in its parallel form, (φ(Q)φ(K)ᵀ ⊙ mask) V: a (T, T) matrix, quadratic in T."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def linear_attention(q, k, v):
    q, k, v = qkv(q, k, v)
    a = np.tril(phi(q) @ phi(k).T)
    return (a @ v) / a.sum(axis=1, keepdims=True)
