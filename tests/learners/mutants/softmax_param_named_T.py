"""Mutant: Names its parameter T, not the contract's temperature: softmax_temperature(z,
temperature=0.5) raises TypeError. From an adversarial tester's second held-out set (softmax_param_named_T)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_softmax = softmax_temperature


def softmax_temperature(logits, T):
    return _correct_softmax(logits, T)
