"""Mutant: Computes the right output the naive way: it builds the (T, T) scores."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def flash_attention(q, k, v, block):
    q, k, v = qkv(q, k, v)
    as_int("block", block, 1)
    return causal_masked_attention(q @ k.T / math.sqrt(q.shape[1])) @ v
