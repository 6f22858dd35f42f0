"""Mutant: Returns (output, cost) as the old README said, not the output alone."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *

_correct_flash = flash_attention


def flash_attention(q, k, v, block):
    out = _correct_flash(q, k, v, block)
    t = out.shape[0]
    return out, {"multiply_adds": t * t, "largest_temporary": as_int("block", block, 1) ** 2}
