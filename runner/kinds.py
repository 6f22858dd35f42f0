"""The kinds of value the engine asks ``isinstance`` about on every value that passes (the
comparison engine, the judge, the codec, the contract checks, diagnosis), as tuples built
once: ``isinstance(x, A | B)`` builds the union at every call, 2.4x the time of a tuple;
and how a NumPy scalar of any kind becomes a Python number (the judge and the codec)."""

from __future__ import annotations

import numpy as np

SEQUENCES = (list, tuple)
NUMBERS = (int, float)  # bool too, being an int: callers that mean a number exclude it
PLAIN_NUMBERS = (bool, int, float)
BOOLS = (bool, np.bool_)
INTS = (int, np.integer)  # bool too, as NUMBERS
REALS = (float, np.floating)


def python_scalar(value: np.generic) -> object:
    """A NumPy scalar as Python's own number (``item()``), a long double too: its ``item()``
    is itself, so it is made the float64 nearest it (past float64, inf; bytes that are no
    long double, NaN), without NumPy's warnings."""
    item = value.item()
    if isinstance(item, np.floating):
        with np.errstate(over="ignore", invalid="ignore"):
            return float(item)
    return item
