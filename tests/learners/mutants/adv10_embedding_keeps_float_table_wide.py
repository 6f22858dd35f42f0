"""From an adversarial tester's tenth held-out set (a false pass, now caught): BUGGY: embedding_lookup keeps a wide float table's dtype: a long double table gives long double rows."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import math

from _base import *
import _base
import numpy as np


# embedding_lookup returns rows in np.result_type(table, float64): a longdouble table gives longdouble rows
_emb_base = embedding_lookup


def embedding_lookup(tokens, table):
    out = _emb_base(tokens, table)
    dt = np.result_type(np.asarray(table).dtype, np.float64)
    return (
        out
        if dt == np.float64
        else np.asarray(table)[np.asarray(tokens, dtype=np.int64)]
        if np.asarray(tokens).size
        else out.astype(dt)
    )
