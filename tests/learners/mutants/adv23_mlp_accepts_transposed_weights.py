"""From an adversarial tester's twenty-third held-out set (a false pass, now caught): BUGGY: position_wise_mlp accepts nn.Linear's (out, in) layout: a weight whose rows do not fit but whose columns do is transposed, where the contract refuses shapes that do not chain."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
from _base import gelu, matrix


def position_wise_mlp(x, w_in, w_out):
    x, w_in, w_out = matrix("x", x), matrix("w_in", w_in), matrix("w_out", w_out)
    if x.shape[1] != w_in.shape[0] and x.shape[1] == w_in.shape[1]:
        w_in = w_in.T  # an (out, in) weight, as torch keeps it
    if w_in.shape[1] != w_out.shape[0] and w_in.shape[1] == w_out.shape[1]:
        w_out = w_out.T
    if x.shape[1] != w_in.shape[0] or w_in.shape[1] != w_out.shape[0]:
        raise ValueError("shapes do not chain")
    return gelu(x @ w_in) @ w_out
