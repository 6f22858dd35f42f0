"""Whether a call changed what an earlier call returned.

A caller keeps a function's results: a model holds the rotated q while it rotates k, a
decoding loop the previous step's output. A function that writes each result into one
module-level buffer (per shape, say) returns the right numbers each time, and changes the
caller's earlier result under it with the next call. Comparing values cannot see it (a
learner's results are copied across the boundary as they return); looking at the earlier
result again can: the last results are held, each with a copy of its bytes, and after each
call the held ones are compared with their copies. A result handed out again unchanged (a
cached table returned for the same arguments) changes nothing and is not counted. Used
where the function runs, beside the arguments' own check (the learner's worker; this
process for ours), on the calls whose arguments are watched (the contract's small cases).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

# Said among a call's modified arguments when it changed an earlier call's result: not an
# identifier, so no parameter is ever named so
EARLIER_RESULT = "@result"
KEPT = 16  # results held (the contract's cases follow one another by function)
_PARTS = 16  # a tuple or list result's first items looked at (an array each, at most)
_HELD_BYTES = 1 << 20  # a larger array is not held (the contract's cases are small)


class LastResults:
    """The arrays of the last ``KEPT`` results, each with the bytes it held when returned."""

    def __init__(self) -> None:
        self._held: deque[tuple[np.ndarray[Any, Any], bytes]] = deque(maxlen=KEPT)

    def changed_by(self, value: Any) -> bool:
        """Whether the call that returned ``value`` changed an earlier result; the arrays of
        ``value`` are held from now on."""
        changed = any(array.tobytes() != before for array, before in self._held)
        if changed:  # said once: the next call is judged on its own
            self._held.clear()
        parts = value[:_PARTS] if type(value) in (list, tuple) else (value,)
        for part in parts:
            if isinstance(part, np.ndarray) and 0 < part.nbytes <= _HELD_BYTES:
                self._held.append((part, part.tobytes()))
        return changed
