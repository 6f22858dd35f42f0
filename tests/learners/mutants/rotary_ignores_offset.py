"""Mutant: Numbers the rows from 0 whatever the offset."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

import numpy as np
from _base import *


_correct_rotary = rotary_embedding


def rotary_embedding(x, offset=0):
    as_int("offset", offset, 0)
    return _correct_rotary(x, 0)
