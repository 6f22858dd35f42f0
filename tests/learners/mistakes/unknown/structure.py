"""Plausible bugs that are not in the library: the support one order too large, a running
median for the average, tanh as the MLP's activation, attention counted with its biases."""

import math

import numpy as np


def sequence_support_log10(vocab, length):
    return length * math.log10(vocab) + 1


def averaging_model(x):
    x = np.asarray(x, dtype=np.float64)
    return np.stack([np.median(x[: t + 1], axis=0) for t in range(x.shape[0])])


def position_wise_mlp(x, w_in, w_out):
    return np.tanh(np.asarray(x, dtype=np.float64) @ w_in) @ w_out


def attention_parameter_count(d_model, n_head):
    if d_model % n_head:
        raise ValueError("n_head must divide d_model")
    return 4 * d_model * d_model + 4 * d_model
