"""Mutant: No nonlinearity at all: two linear maps in a row."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def position_wise_mlp(x, w_in, w_out):
    x, w_in, w_out = matrix("x", x), matrix("w_in", w_in), matrix("w_out", w_out)
    if x.shape[1] != w_in.shape[0] or w_in.shape[1] != w_out.shape[0]:
        raise ValueError("shapes do not chain")
    h = x @ w_in
    return (h) @ w_out
