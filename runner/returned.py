"""Whether a call's result shares memory with what an earlier call of the function returned.

A caller keeps a function's results: a model holds the rotated q while it rotates k, a
decoding loop the previous step's output. A function that hands out one module-level buffer
(or a cached table) call after call returns the right numbers each time, and changes the
caller's earlier result under it with the next call. Comparing values cannot see it (a
learner's results are copied across the boundary as they return); comparing where they lie
can: each function's last result is held, so its memory cannot go to another array, and the
next result is asked whether it overlaps it. Used where the function runs, beside the
arguments' own check (the learner's worker; this process for ours).
"""

from __future__ import annotations

from typing import Any

import numpy as np

# Said among a call's modified arguments when its result shares memory with an earlier
# result: not an identifier, so no parameter is ever named so
EARLIER_RESULT = "@result"
_PARTS = 16  # a tuple or list result's first items looked at (an array each, at most)
# results held per function: a buffer kept per shape comes back when its shape does, and the
# calls between may have had other shapes (the claims' cases are small arrays)
KEPT = 8


class LastResults:
    """The arrays of each function's last ``KEPT`` results, by function, held alive."""

    def __init__(self) -> None:
        self._last: dict[int, tuple[object, list[np.ndarray[Any, Any]]]] = {}

    def shares(self, fn: object, value: Any) -> bool:
        """Whether ``value`` (an array, or a tuple or list holding arrays) shares memory with
        one of ``fn``'s last results; ``value`` becomes the latest of them."""
        parts = value[:_PARTS] if type(value) in (list, tuple) else (value,)
        arrays = [a for a in parts if isinstance(a, np.ndarray) and a.size]
        _, earlier = self._last.get(id(fn), (None, []))
        shared = any(np.may_share_memory(a, b) for a in arrays for b in earlier)
        # fn held too: its id is no other function's while its results are kept
        self._last[id(fn)] = (fn, (earlier + arrays)[-KEPT * _PARTS :] if arrays else earlier)
        return shared
