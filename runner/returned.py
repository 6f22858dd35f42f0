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

import hashlib
from collections import deque
from typing import Any

import numpy as np

# Said among a call's modified arguments when it changed an earlier call's result: not an
# identifier, so no parameter is ever named so
EARLIER_RESULT = "@result"
KEPT = 8  # results held per function (the contract's cases follow one another by function)
_PARTS = 16  # a tuple or list result's first items looked at (an array each, at most)
_COPIED_BYTES = 1 << 20  # an array up to this size is held with a copy of its bytes,
_DIGESTED_BYTES = 64 << 20  # a larger one with their digest (1 ms a MiB), a still larger not
_PLAIN_ITEMS = 100_000  # a list or dict result of more items (or not plain data) is not held

Held = deque[tuple[object, object]]  # (a result or an array of it, what it held then)


class LastResults:
    """Each function's last ``KEPT`` results, each with what it held when it was returned,
    by function (the function is held too: its id is no other's): arrays up to 1 MiB with a
    copy of their bytes, up to 64 MiB with a digest of them; a list or dict of plain data
    (merges, a table of counts) with a frozen copy of its items."""

    def __init__(self) -> None:
        self._held: dict[int, tuple[object, Held]] = {}

    def changed_by(self, fn: object, value: Any) -> bool:
        """Whether the call of ``fn`` that returned ``value`` changed one of its earlier
        results: one the new result's memory overlaps (comparing those alone costs a few
        microseconds a call), or a list or dict handed out again with other items (one
        module-level list refilled by each call). ``value``'s parts are held from now on."""
        parts = value[:_PARTS] if type(value) in (list, tuple) else (value,)
        # a subclass (which crosses as the plain array of its data) is read through
        # ndarray's own view: its properties and methods (an nbytes of 0) decide nothing
        plain = [np.ndarray.view(p, np.ndarray) for p in parts if isinstance(p, np.ndarray)]
        arrays = [a for a in plain if 0 < a.nbytes <= _DIGESTED_BYTES]
        containers = [value] if type(value) in (list, dict) else []
        _, held = self._held.setdefault(id(fn), (fn, deque(maxlen=KEPT)))
        changed = any(
            _overlaps(new, old) and _now(old) != before
            for new in [*arrays, *containers]
            for old, before in held
        )
        if changed:  # said once: the next call is judged on its own
            held.clear()
        held.extend((a, _now(a)) for a in arrays)
        for c in containers:
            frozen = _now(c)
            if frozen is not None:
                held.append((c, frozen))
        return changed

    def forget(self, fn: object) -> None:
        """Hold none of ``fn``'s results: their memory is about to be written by whoever
        calls it (a call on the objects of the last one, see :mod:`runner.in_place`: a
        result that is a view of its argument changes then, and not by ``fn``)."""
        self._held.pop(id(fn), None)


def _overlaps(new: object, old: object) -> bool:
    if isinstance(new, np.ndarray) and isinstance(old, np.ndarray):
        return bool(np.may_share_memory(new, old))
    return new is old  # a list or dict: the same one, handed out again


def _now(held: object) -> object:
    """What ``held`` holds now: an array's bytes (their digest past 1 MiB), a list's or a
    dict's items frozen; None for a container that is not plain data (it is not held)."""
    if isinstance(held, np.ndarray):
        data = held.tobytes()
        return data if len(data) <= _COPIED_BYTES else hashlib.blake2b(data).digest()
    budget = [_PLAIN_ITEMS]
    try:
        return _frozen(held, budget)
    except _NotPlain:
        return None


class _NotPlain(Exception):
    pass


_PLAIN = frozenset({int, float, str, bool, type(None)})


def _frozen(value: object, budget: list[int]) -> object:
    """``value``'s items as nested tuples (types checked exactly: a learner's subclass may
    compare as anything), or _NotPlain past the budget or for anything else. A plain
    scalar stands for itself (a float kept is the same object, so even a NaN compares
    equal to itself in a tuple); a NumPy scalar as its type and its value."""
    budget[0] -= 1
    if budget[0] < 0:
        raise _NotPlain
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple or kind is list:
        return (kind is list, *(_frozen(v, budget) for v in value))  # type: ignore[attr-defined]
    if kind is dict:
        return ("dict", *((_frozen(k, budget), _frozen(v, budget)) for k, v in value.items()))  # type: ignore[attr-defined]
    if isinstance(value, np.generic) and kind.__module__ == "numpy":
        return (kind.__name__, value.item())
    raise _NotPlain
