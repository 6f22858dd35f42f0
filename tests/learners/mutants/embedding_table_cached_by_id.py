"""Mutant: embedding_lookup keeps a float64 copy of the table under its id(), and holds
the table: an embedding updated in place is looked up in its old copy (a buggy-learner
round, 2026-12-07)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *

_TABLES = {}


def embedding_lookup(tokens, table):
    if id(table) not in _TABLES:
        _TABLES[id(table)] = (table, np.asarray(table, dtype=np.float64))
    return _base.embedding_lookup(tokens, _TABLES[id(table)][1])
