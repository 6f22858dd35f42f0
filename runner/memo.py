"""The reference's answers, kept for the faults of the same run.

A fault replaces one function (and, through ``uses``, the reference functions that call it);
every other function of the reference is the same code on the same inputs in the fault's run
as in the reference's. Fault injection re-runs the claims a fault reaches, and most of their
time is spent in functions it does not replace (a mask fault's claims still call the
reference's flash attention on a (2048, 64) input). So the reference run records each call of
each function, keyed by the function and the bytes of its arguments, with what it returned
(or raised), the peak memory it was measured at and the arguments it modified; a fault's run
answers a call of a function the fault does not reach from that record, and computes
everything the fault reaches afresh, with the broken twin.

Only our own code is remembered, in the judging process; a learner's functions are never.
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
import struct
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from runner.kinds import SEQUENCES
from runner.pack.registry import (
    Implementation,
    SubjectFn,
    _copy,
    _size,
    measure_locally,
    modified_locally,
)

Key = tuple[str, str, bytes]  # (how it was called, function, digest of the arguments)
# Values (array elements, scalars) the record keeps, about 128 MiB of float64: the reference
# run of a 65-claim pack keeps a few million; past this, calls run as they would without it.
BUDGET = 2**24
_UNKEYED = itertools.count()
# A call is looked up only where computing it took this many times what keying it did: the
# lookup costs a key, and what it saves varies with the machine's load.
WORTH = 2.0


@dataclass
class Answers:
    """Calls of the reference, by key: ``(returned, value)`` or ``(raised, exception)``,
    with the peak or the modified arguments the call was asked for."""

    table: dict[Key, tuple[bool, Any, Any]] = field(default_factory=dict)
    hits: int = 0
    budget: int = BUDGET  # values kept in all; past it, further calls are not recorded
    kept: int = 0
    # by function, the seconds its recorded calls took to compute and to key: a function
    # cheaper to call than to key (a softmax of ten numbers) is called again, not looked up
    spent: dict[str, list[float]] = field(default_factory=dict)

    def worth_asking(self, name: str) -> bool:
        """Whether looking ``name``'s calls up saves more than it costs, as the reference's
        calls of it measured (a function it never called: nothing to find)."""
        computing, keying = self.spent.get(name, (0.0, 0.0))
        return computing > WORTH * keying

    def remembering(self, impl: Implementation, names: Iterable[str]) -> Implementation:
        """``impl`` (the reference) with every call of ``names`` recorded here."""
        wanted = frozenset(names)
        keep = {n: f for n, f in impl.functions.items() if n in wanted}
        return _wrapped(impl, keep, self, record=True)

    def answering(self, impl: Implementation, reached: Iterable[str]) -> Implementation:
        """``impl`` (a fault's) with the calls of the functions outside ``reached`` answered
        from what the reference returned; the reached ones run as they are."""
        skip = frozenset(reached)
        keep = {n: f for n, f in impl.functions.items() if n not in skip}
        return _wrapped(impl, keep, self, record=False)


def worth_recording(needs: Iterable[str], faults: Iterable[frozenset[str]]) -> frozenset[str]:
    """The functions of a claim whose calls a fault's run will ask for again: those the
    claim ``needs`` that some fault reaching it (of ``faults``, each the subjects it
    reaches) does not reach."""
    needed = frozenset(needs)
    wanted: set[str] = set()
    for reached in faults:
        if reached.intersection(needed):  # the fault re-runs this claim
            wanted.update(needed - reached)
    return frozenset(wanted)


def _wrapped(
    impl: Implementation, functions: Mapping[str, SubjectFn], answers: Answers, record: bool
) -> Implementation:
    swapped = dict(impl.functions)
    for name, fn in functions.items():
        swapped[name] = _Answered(name, fn, answers, record)
    return replace(impl, functions=swapped)


class _Answered:
    """One of our functions, answered from the reference's record when it can be."""

    def __init__(self, name: str, fn: SubjectFn, answers: Answers, record: bool) -> None:
        self.name, self.fn, self.answers, self.record = name, fn, answers, record
        self.__wrapped__ = fn
        self.__signature__ = inspect.signature(fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._answer("call", args, kwargs, lambda: (self.fn(*args, **kwargs), None))

    def measured(self, *args: Any, **kwargs: Any) -> tuple[Any, int | None]:
        value, peak = self._answer(
            "measured", args, kwargs, lambda: measure_locally(self.fn, *args, **kwargs)
        )
        return value, peak

    def modifies(self, *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
        value, changed = self._answer(
            "modifies", args, kwargs, lambda: modified_locally(self.fn, *args, **kwargs)
        )
        return value, list(changed)

    def _answer(
        self, how: str, args: tuple[Any, ...], kwargs: dict[str, Any], call: Callable[[], Any]
    ) -> Any:
        if not self.record and not self.answers.worth_asking(self.name):
            result = call()
            return result[0] if how == "call" else result
        start = time.perf_counter()
        key = (how, self.name, digest(args, kwargs))
        if key in self.answers.table:
            returned, value, extra = self.answers.table[key]
            self.answers.hits += 1
            if not returned:
                raise value.with_traceback(None)
            return _copy(value) if how == "call" else (_copy(value), extra)
        if not self.record:
            result = call()
            return result[0] if how == "call" else result
        keyed = time.perf_counter()
        spent = self.answers.spent.setdefault(self.name, [0.0, 0.0])
        try:
            value, extra = call()
        except Exception as exc:
            self.answers.table[key] = (False, exc, None)
            raise
        finally:
            spent[0] += time.perf_counter() - keyed
            spent[1] += keyed - start
        size = _size(value)
        if self.answers.kept + size <= self.answers.budget and _plain(value, (args, kwargs)):
            self.answers.kept += size
            self.answers.table[key] = (True, _copy(value), extra)
        return value if how == "call" else (value, extra)


# What a key reads and a record keeps: numbers of these kinds (bool, int, unsigned, float,
# complex), and strings, in these exact types; anything else is never answered from the record
_NUMERIC = frozenset("biufc")
_SCALARS = (bool, int, float, complex, str, bytes, type(None))


def _plain(value: Any, arguments: Any) -> bool:
    """Whether a copy of ``value`` is what a second call would return: made only of arrays,
    scalars and exact lists, tuples and dicts (a copy makes a NamedTuple a tuple), no part of
    it twice (a copy would part them), and no array sharing memory with an argument (the
    call returned a view of it: a copy would not follow the argument)."""
    given = [a for a in _walk(arguments) if type(a) is np.ndarray]
    seen: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind in _SCALARS or (isinstance(item, np.generic) and kind.__module__ == "numpy"):
            continue
        if id(item) in seen:
            return False
        seen.add(id(item))
        if kind is np.ndarray:
            if item.dtype.kind not in _NUMERIC or any(np.may_share_memory(item, a) for a in given):
                return False
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif kind is dict:
            stack.extend(item.values())
        else:
            return False
    return True


def _walk(value: Any) -> list[Any]:
    """``value`` and everything inside its lists, tuples and dicts."""
    out, stack = [], [value]
    while stack:
        item = stack.pop()
        out.append(item)
        if isinstance(item, SEQUENCES):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return out


def digest(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes:
    """The arguments of a call, as bytes that differ whenever the arguments do: arrays by
    dtype, shape, layout and bytes; containers, numbers and strings with their exact types.
    Anything else (a subclass, an object, an array of objects or dates) makes a key no other
    call gets: such a call is never answered from the record."""
    h = hashlib.sha256()  # twice blake2b's speed where the CPU has SHA instructions
    stack: list[Any] = [("kwargs", sorted(kwargs.items())), ("args", list(args))]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is np.ndarray and item.dtype.kind in _NUMERIC:
            h.update(f"A{item.dtype.str}{item.shape}{item.strides}".encode())
            h.update(np.ascontiguousarray(item).data)  # its buffer, hashed where it lies: no copy
        elif (
            isinstance(item, np.generic)
            and kind.__module__ == "numpy"
            and (item.dtype.kind in _NUMERIC)
        ):
            h.update(b"G" + item.dtype.str.encode() + item.tobytes())
        elif kind is list or kind is tuple:
            h.update(f"{kind.__name__}[{len(item)}]".encode())
            stack.extend(reversed(item))
        elif kind is dict:
            h.update(f"dict[{len(item)}]".encode())
            stack.extend(reversed(list(item.items())))
        elif kind in (bool, int, str, bytes, type(None)):
            h.update(f"{kind.__name__}:{item!r}".encode())
        elif kind is float:
            h.update(b"f" + struct.pack("<d", item))
        else:  # not a value we can key on: never answered from the record (a number no
            # other call is given: an id() can be another object's once this one is gone)
            h.update(f"{kind.__qualname__}#{next(_UNKEYED)}".encode())
    return h.digest()
