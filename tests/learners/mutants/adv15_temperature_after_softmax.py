"""From an adversarial tester's fifteenth held-out set (a false pass, now caught): BUGGY: softmax_temperature applies T to the probabilities (a softmax raised to 1/T, renormalised): a tail that underflowed to 0 stays 0 at any T."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def softmax_temperature(logits, temperature):
    p = _base.softmax_temperature(logits, 1.0)  # its checks, and the softmax at T = 1
    with np.errstate(divide="ignore"):
        scaled = np.log(np.asarray(p, dtype=np.float64)) / float(temperature)
    scaled -= scaled.max(axis=-1, keepdims=True)
    out = np.exp(scaled)
    return (out / out.sum(axis=-1, keepdims=True)).astype(np.asarray(p).dtype)
