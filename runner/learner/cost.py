"""What the judge may spend on one claim's check while it computes on a learner's values.

A check measures what a learner's function returned: it decodes merges into pieces, replays
them, compares arrays. A hostile value can make that cost anything (merges that each double
the previous piece: 1 GB of the judge's memory at 29 merges). So while a learner's claim is
checked, the judge's own process runs under a cap of its own: its address space may grow by
at most ``memory_mib`` (the soft ``RLIMIT_AS``, lowered for the check and restored after),
and its CPU time by at most ``cpu_s`` (``ITIMER_PROF``, CPU time: a busy machine does not
bring it closer). Exceeding either is that claim's error, blamed on the learner's value that
came back last (:class:`~runner.pack.outcome.BoundaryError` ``boundary.check_cost``); the
next claim starts with the judge as it was.

Every claim's check, whatever it judges (the reference, a fault's twin, a learner), has a
wall-clock backstop of its own too (``ITIMER_REAL``), stopped while the judge waits on a
learner's worker (whose calls have budgets of their own): a pack's check that sleeps or
blocks would otherwise hold the run, and a class, for ever. Past it, and past the CPU cap
where no learner is judged, the claim is an error said to be the check's own
(:class:`CheckOverrun`).
"""

from __future__ import annotations

import contextlib
import resource
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from runner.pack.outcome import BoundaryError


class _OverCpu(BaseException):
    """Raised by the timer inside the check (a BaseException: a check's ``except Exception``
    cannot swallow it)."""


class _OverWall(BaseException):
    """Raised by the wall-clock backstop inside the check."""


class CheckOverrun(Exception):
    """A check ran past its own limit (``what``: "cpu" or "wall", ``seconds``) with no
    learner's value to blame: the pack's check, not the implementation judged."""

    def __init__(self, what: str, seconds: float) -> None:
        super().__init__(what)
        self.what = what
        self.seconds = seconds


def _address_space() -> int | None:
    """The judge's address space now, in bytes (Linux: /proc/self/statm), or None."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * resource.getpagesize()


class Overrun(Exception):
    """The capped block used more than its CPU time (``what="cpu"``) or memory (``"memory"``)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


@contextlib.contextmanager
def capped(memory_mib: int, cpu_s: float, wall_s: float = 0.0) -> Iterator[None]:
    """Run the block with the judge's address space allowed to grow by ``memory_mib`` (0: as
    it is), its CPU time by ``cpu_s`` and its own wall-clock time (see :func:`wall_paused`)
    by ``wall_s`` (the timers in the main thread only; 0: none): :class:`Overrun` when it
    would use more; the limits are as they were after."""
    saved_as = resource.getrlimit(resource.RLIMIT_AS)
    used = _address_space() if memory_mib > 0 else None
    lowered = False
    if used is not None:
        soft, hard = saved_as
        cap = used + memory_mib * 2**20
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        if soft == resource.RLIM_INFINITY or cap < soft:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
                lowered = True
    main = threading.current_thread() is threading.main_thread()
    armed = [True]  # the handlers raise only while the block runs, never in the clean-up

    def over(signum: int, frame: object) -> None:
        if armed[0]:
            raise _OverCpu if signum == signal.SIGPROF else _OverWall

    timers: list[_Armed] = []
    if main and cpu_s > 0:
        timers.append(_arm(signal.ITIMER_PROF, signal.SIGPROF, cpu_s, over, time.process_time))
    if main and wall_s > 0:
        timers.append(_arm(signal.ITIMER_REAL, signal.SIGALRM, wall_s, over, time.monotonic))
    try:
        try:
            yield
        finally:
            try:  # a timer that fires right as the block ends raises here, and is an overrun
                armed[0] = False
            finally:
                _release(timers)
                if lowered:
                    with contextlib.suppress(ValueError, OSError):
                        resource.setrlimit(resource.RLIMIT_AS, saved_as)
    except _OverCpu:
        raise Overrun("cpu") from None
    except _OverWall:
        raise Overrun("wall") from None
    except MemoryError:
        if memory_mib <= 0:  # no cap of ours was lowered: the check's own MemoryError
            raise
        raise Overrun("memory") from None


class _Armed(NamedTuple):
    """A timer capped armed: which, its signal, the handler and timer it replaced (a
    caller's own watchdog, say), and when, on the timer's clock."""

    timer: int
    signum: int
    handler: Any
    replaced: tuple[float, float]
    clock: Callable[[], float]
    started: float


def _arm(
    timer: int, signum: int, seconds: float, handler: Any, clock: Callable[[], float]
) -> _Armed:
    previous = signal.signal(signum, handler)
    replaced = signal.setitimer(timer, seconds)
    return _Armed(timer, signum, previous, replaced, clock, clock())


def _release(timers: list[_Armed]) -> None:
    """Every timer disarmed first, then each handler and each caller's timer as they were
    (less the time the block took on that timer's clock)."""
    for armed in timers:
        signal.setitimer(armed.timer, 0)
    for armed in timers:
        signal.signal(armed.signum, armed.handler)
        delay, interval = armed.replaced
        if delay > 0:
            left = delay - (armed.clock() - armed.started)
            signal.setitimer(armed.timer, max(left, 1e-6), interval)


@contextlib.contextmanager
def wall_paused() -> Iterator[None]:
    """The block (the judge waiting on a learner's worker) does not count against the
    check's wall-clock backstop: the worker's calls have budgets of their own."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    left, _ = signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        yield
    finally:
        if left > 0:
            signal.setitimer(signal.ITIMER_REAL, left)


@contextlib.contextmanager
def check_limits(cpu_s: float, wall_s: float) -> Iterator[None]:
    """Run the block (one claim's check on our own code: the reference or a fault's twin)
    with the judge's CPU time and wall-clock time capped: :class:`CheckOverrun` past them."""
    try:
        with capped(0, cpu_s, wall_s):
            yield
    except Overrun as exc:
        raise CheckOverrun(exc.what, cpu_s if exc.what == "cpu" else wall_s) from None


@contextlib.contextmanager
def check_cost(memory_mib: int, cpu_s: float, session: Any, wall_s: float = 0.0) -> Iterator[None]:
    """Run the block (one claim's check on a learner's values) under the judge's own cap.
    ``session.last_returned`` names the learner's function whose value came back last; on
    an overrun its worker is killed (the cap may have stopped the judge mid-exchange), and
    the next claim starts a fresh one. The wall-clock backstop (the judge's own time, not
    its waits on the worker) is the check's: no value of the learner's makes it sleep."""
    try:
        with capped(memory_mib, cpu_s, wall_s):
            yield
    except Overrun as exc:
        session.kill()
        if exc.what == "wall":
            raise CheckOverrun("wall", wall_s) from None
        function = session.last_returned or "?"
        if exc.what == "cpu":
            raise BoundaryError(
                "boundary.check_cpu", {"function": function, "seconds": cpu_s}
            ) from None
        raise BoundaryError(
            "boundary.check_memory", {"function": function, "mib": memory_mib}
        ) from None
