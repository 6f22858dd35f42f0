"""Mutant: Checks only that h and the table are 2-D and multiplies by broadcasting, so a width of 1
on one side is stretched to the other's instead of refused. From an adversarial tester's second held-out set (output_head_no_width_check_broadcast)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


def output_head(h, table):
    h, table = matrix("h", h), matrix("table", table)
    return (h[:, None, :] * table[None, :, :]).sum(axis=-1)  # (T, V); widths broadcast
