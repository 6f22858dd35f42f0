"""From an adversarial tester's fourteenth held-out set (a false pass, now caught): BUGGY: transformer_parameter_count checks n_head with d / n_head != d // n_head: a d_model of 3 * (2**55 + 1) that 3 divides is refused."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
import _base
import numpy as np
import operator


def transformer_parameter_count(*args, **kwargs):
    d = operator.index(args[1] if len(args) > 1 else kwargs["d_model"])
    heads = kwargs.get("n_head")
    if heads is not None and operator.index(heads) >= 1 and d / heads != d // heads:
        raise ValueError("n_head must divide d_model")
    return _base.transformer_parameter_count(*args, **kwargs)
