"""Mutant: Normalizes over axis 1 whenever the logits are batched: right for (B, V), wrong for (B,
T, V), where the contract says the last axis of (..., V). From an adversarial tester's second held-out set (softmax_axis1_when_batched)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_softmax = softmax_temperature


def softmax_temperature(logits, temperature):
    z = np.asarray(logits)
    if z.ndim > 2:  # "the vocabulary is axis 1 of a batch"
        return np.moveaxis(_correct_softmax(np.moveaxis(z, 1, -1), temperature), -1, 1)
    return _correct_softmax(logits, temperature)
