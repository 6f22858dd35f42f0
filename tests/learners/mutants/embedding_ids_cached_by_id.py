"""Mutant: embedding_lookup keeps the ids it checked and converted under the id() of the
tokens array, and holds it: ids written in place are looked up as the old ones (an attack
round, 2026-12-08: the in-place call wrote floating arrays only)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import numpy as np
import _base
from _base import *

_IDS = {}


def embedding_lookup(tokens, table):
    if isinstance(tokens, np.ndarray):
        if id(tokens) not in _IDS:
            _IDS[id(tokens)] = (tokens, tokens.copy())
        tokens = _IDS[id(tokens)][1]
    return _base.embedding_lookup(tokens, table)
