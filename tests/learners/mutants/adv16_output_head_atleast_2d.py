"""From an adversarial tester's sixteenth held-out set (a false pass, now caught): BUGGY: output_head passes h through np.atleast_2d: a (3,) h is a (1, 3) one."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np


def output_head(h, table):
    return _base.output_head(np.atleast_2d(h), table)
