"""Whether a call changed what an earlier call of the function returned.

A caller keeps a function's results: a model holds the rotated q while it rotates k, a
decoding loop the previous step's output. A function that writes each result into one
module-level buffer (per shape, say) returns the right numbers each time, and changes the
caller's earlier result under it with the next call. Comparing values cannot see it (a
learner's results are copied across the boundary as they return); looking at the earlier
result again can: each function's last results are held, each with a copy of its bytes,
and one that the new result's memory overlaps is compared with its copy. A result handed
out again unchanged (a cached table returned for the same arguments) changes nothing and is
not counted. Used where the function runs, beside the arguments' own check (the learner's
worker; this process for ours), on the calls whose arguments are watched (the contract's
small cases).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

# Said among a call's modified arguments when it changed an earlier call's result: not an
# identifier, so no parameter is ever named so
EARLIER_RESULT = "@result"
KEPT = 8  # results held per function (the contract's cases follow one another by function)
_PARTS = 16  # a tuple or list result's first items looked at (an array each, at most)
_HELD_BYTES = 1 << 20  # a larger array is not held (the contract's cases are small)

Held = deque[tuple["np.ndarray[Any, Any]", bytes]]


class LastResults:
    """The arrays of each function's last ``KEPT`` results, each with the bytes it held when
    it was returned, by function (the function is held too: its id is no other's)."""

    def __init__(self) -> None:
        self._held: dict[int, tuple[object, Held]] = {}

    def changed_by(self, fn: object, value: Any) -> bool:
        """Whether the call of ``fn`` that returned ``value`` changed one of its earlier
        results (one the new result's memory overlaps: comparing those alone costs a few
        microseconds a call); the arrays of ``value`` are held from now on."""
        parts = value[:_PARTS] if type(value) in (list, tuple) else (value,)
        arrays = [p for p in parts if isinstance(p, np.ndarray) and 0 < p.nbytes <= _HELD_BYTES]
        _, held = self._held.setdefault(id(fn), (fn, deque(maxlen=KEPT)))
        changed = any(
            np.may_share_memory(new, old) and old.tobytes() != before
            for new in arrays
            for old, before in held
        )
        if changed:  # said once: the next call is judged on its own
            held.clear()
        held.extend((a, a.tobytes()) for a in arrays)
        return changed
