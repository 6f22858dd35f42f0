"""From an adversarial tester's eleventh held-out set (a false pass, now caught): BUGGY: transformer_parameter_count counts an untied head as int(np.prod((V, d))), which wraps past 2**63."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import inspect

from _base import *
import _base
import numpy as np


def transformer_parameter_count(*args, **kwargs):
    table = _base.transformer_parameter_count(*args, **kwargs)
    # <- head = int(np.prod((v, d))): an int64 product, wrapping past 2**63
    head = (table["head"] + 2**63) % 2**64 - 2**63
    table["total"] += head - table["head"]
    table["head"] = head
    return table
