"""A call made again on the very objects of the call before it, their arrays written over.

Every other call hands a function new array objects. A function that keeps something it
derived from an argument under the argument's ``id()`` (a transposed weight, a table of
cosines), and holds the argument so that the id stays its own, is right for every new object
and wrong for a caller who writes into its array and calls again (a training step updates
its weights in place). Only a call on the same objects with other contents shows it: the
objects of the call before, each array's contents replaced by the new call's, everything
else as it was.

Used in the learner's worker (with nothing but NumPy). Our own functions are called on new
objects: they keep nothing under an id().
"""

from __future__ import annotations

from typing import Any

import numpy as np

_PLAIN = (bool, int, float, complex, str, bytes, type(None))


def written_over(kept: Any, new: Any) -> Any | None:
    """``kept`` with the contents of each of its arrays replaced by those of the array at the
    same place in ``new``: the same objects, other contents. None, with nothing written,
    where the two differ in anything but their arrays' contents (a shape, a dtype, another
    number) or an array of ``kept`` is not writable: the call is then made on ``new``."""
    pairs: list[tuple[np.ndarray, np.ndarray]] = []
    if not _alike(kept, new, pairs):
        return None
    for old, fresh in pairs:
        np.copyto(old, fresh, casting="no")
    return kept


def _alike(kept: Any, new: Any, pairs: list[tuple[np.ndarray, np.ndarray]]) -> bool:
    """Whether ``new`` fits ``kept`` as its contents (collecting the arrays to write)."""
    if type(kept) is not type(new):
        return False
    if type(kept) is np.ndarray:
        if kept.shape != new.shape or kept.dtype != new.dtype or not kept.flags.writeable:
            return False
        pairs.append((kept, new))
        return True
    if type(kept) in (list, tuple):
        return len(kept) == len(new) and all(
            _alike(k, n, pairs) for k, n in zip(kept, new, strict=True)
        )
    if type(kept) is dict:
        return list(kept) == list(new) and all(_alike(kept[k], new[k], pairs) for k in kept)
    if type(kept) in _PLAIN or isinstance(kept, np.generic):
        # the same text: NaN is NaN, and -0.0 is not 0.0
        return repr(kept) == repr(new)
    return False
