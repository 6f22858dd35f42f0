"""The arrays a watched call is given, in memory the judge reads back after it.

Whether a learner's function changed its arguments cannot be asked of the worker: its
process runs the learner's code, which can reach the worker's own frames and rewrite what
it reports. So the judge places every array of a watched request in a shared memory file
(``memfd``), the worker hands the learner's function views of that memory rather than
copies, and once the replies are in, the judge compares each array's bytes with what it
placed there. The file is sealed at its size: the worker cannot shrink it under the judge's
mapping (reading past its end would kill the judge with SIGBUS).

What the learner's code can still do with it: write into arrays it was given, which is
what is being watched for, or into other arrays of the same request, which only changes
its own inputs (the judge computes what it expects from its own copies).
"""

from __future__ import annotations

import contextlib
import mmap
import os
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from runner.learner.codec import DTYPES, REQUEST, Placed

# room for the largest request's arrays twice over: placements go on where the last request
# ended, so the arrays a function kept from one call are seldom overwritten by the next
SIZE = 2 * REQUEST.max_bytes
ALIGN = 64  # every array starts on a cache line, as NumPy's own allocations do


# an argument's position, or its keyword, and the arrays placed for it (nested ones too)
Watched = list[tuple[int | str, Placed]]


class Arena:
    """The judge's side of one worker's shared memory."""

    def __init__(self, fd: int, memory: mmap.mmap) -> None:
        self.fd: int | None = fd
        self.memory = memory
        self.next = 0

    @classmethod
    def create(cls) -> Arena | None:
        """A sealed shared memory file and the judge's mapping of it; None where the
        machine has none (then the worker's own report is all there is)."""
        if sys.byteorder != "little" or not hasattr(os, "memfd_create"):
            return None
        import fcntl

        try:
            fd = os.memfd_create("learn-llm-arguments", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        except OSError:
            return None
        try:
            os.ftruncate(fd, SIZE)
            seals = fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL
            fcntl.fcntl(fd, fcntl.F_ADD_SEALS, seals)
            memory = mmap.mmap(fd, SIZE)
        except (OSError, ValueError, AttributeError):
            os.close(fd)
            return None
        return cls(fd, memory)

    def give_fd(self) -> int:
        """The descriptor, for the worker's start, which closes it: the mapping stays."""
        fd, self.fd = self.fd, None
        if fd is None:
            raise ValueError("the descriptor was given already")
        return fd

    def close(self) -> None:
        fd, self.fd = self.fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(BufferError, ValueError):
            self.memory.close()

    def place_cases(
        self, cases: list[list[Any]], over: Watched | None = None
    ) -> tuple[list[list[Any]], list[Watched]] | None:
        """Each case's ``[args, kwargs]`` with its arrays placed here (in the request they
        become :class:`Placed` markers), and what was placed for each argument; None when
        they do not fit at all (the request is then made smaller).

        ``over``: what was placed for the call before, whose objects the worker keeps. The
        first case's arrays are written where those were, one for one, when they have the
        same sizes (its call is made on those objects, :mod:`runner.in_place`); else they
        are placed as any. The other cases' arrays go where the last placement ended, never
        starting again at the front (they could land on the first case's): None where they
        do not fit before the end."""
        arrays = [a for args, kwargs in cases for a in _arrays([args, kwargs])]
        at = _slots(over, _arrays(cases[0])) if over and cases else None
        need = sum(_aligned(a.nbytes) for a in arrays[len(at or ()) :])
        if need > SIZE:
            return None
        if self.next + need > SIZE:
            if at is not None:
                return None
            self.next = 0  # start again at the front: this request's arrays stay together
        placed_cases: list[list[Any]] = []
        watched: list[Watched] = []
        for args, kwargs in cases:
            record: Watched = []
            slots = iter(at) if at is not None and not watched else None
            new_args = [self._placed(v, i, record, slots) for i, v in enumerate(args)]
            new_kwargs = {k: self._placed(v, k, record, slots) for k, v in kwargs.items()}
            placed_cases.append([new_args, new_kwargs])
            watched.append(record)
        return placed_cases, watched

    def changed(self, watched: Watched) -> list[int | str]:
        """The arguments whose arrays no longer hold the bytes placed for them."""
        out: list[int | str] = []
        for key, placed in watched:
            if key in out:
                continue
            now = self.memory[placed.offset : placed.offset + placed.nbytes]
            if now != placed.data:
                out.append(key)
        return out

    def _placed(
        self, value: Any, key: int | str, record: Watched, slots: Iterator[int] | None = None
    ) -> Any:
        """``value`` with its arrays placed: at the offsets ``slots`` gives, one each, else
        where the last placement ended."""
        if type(value) is np.ndarray and _placeable(value):
            data = np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<")).tobytes()
            if slots is not None:
                offset = next(slots)
            else:
                offset = self.next
                self.next = offset + _aligned(len(data))
            self.memory[offset : offset + len(data)] = data
            placed = Placed(value.dtype.name, tuple(value.shape), offset, data)
            record.append((key, placed))
            return placed
        if type(value) is list or type(value) is tuple:
            items = [self._placed(v, key, record, slots) for v in value]
            return items if type(value) is list else tuple(items)
        if type(value) is dict:
            return {k: self._placed(v, key, record, slots) for k, v in value.items()}
        return value


def _slots(over: Watched, arrays: list[np.ndarray]) -> list[int] | None:
    """The offsets of ``over``'s arrays, one for each of ``arrays`` in order, where each
    has the size of the one it replaces; None where they differ."""
    if len(over) != len(arrays):
        return None
    if any(p.nbytes != a.nbytes for (_, p), a in zip(over, arrays, strict=True)):
        return None
    return [p.offset for _, p in over]


def _placeable(a: np.ndarray) -> bool:
    # anything else stays as it is, for the codec to send (or refuse) as before
    return a.dtype.name in DTYPES and a.dtype.fields is None and a.nbytes > 0


def _arrays(value: Any) -> list[np.ndarray]:
    if type(value) is np.ndarray:
        return [value] if _placeable(value) else []
    if type(value) is list or type(value) is tuple:
        return [a for v in value for a in _arrays(v)]
    if type(value) is dict:
        return [a for v in value.values() for a in _arrays(v)]
    return []


def _aligned(n: int) -> int:
    return -(-n // ALIGN) * ALIGN
