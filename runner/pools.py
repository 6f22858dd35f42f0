"""Ending a process pool that was interrupted: at once, with nothing of it left running."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, ClassVar


def quiet_worker() -> None:
    """A pool worker's signals: Ctrl-C reaches the whole process group, and the parent says
    so once and ends the pool (a worker's own KeyboardInterrupt would be a traceback per
    worker); SIGTERM, how the pool ends a worker, ends it at once, without unwinding (the
    command line's handler would raise inside the task, which the pool takes for that
    task's error, and the worker would go on with its queue). Forked inside
    :func:`signals_deferred`: a SIGTERM that came before this ends it now, the same way."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if signal.SIGTERM in held_back():
        os._exit(128 + signal.SIGTERM)


def stop_pool(pool: Any) -> None:
    """Cancel what is queued, end the pool's processes, and wait for its manager thread.

    Ctrl-C and SIGTERM are held meanwhile, and acted on once the pool is stopped: a second
    one cut the stopping short, and what it left undone hung the exit or printed Python's
    tracebacks after the command's line. (A KeyboardInterrupt between the pool's reaping of
    a worker and its noting so left the worker alive in its eyes for ever, and the pool's
    thread waiting for it to end.) Bounded: at most :data:`JOIN_S` for the thread.

    ``shutdown(wait=False)`` forgets the manager thread, so a second ``shutdown(wait=True)``
    does not wait for it; one still running when the interpreter exits races Python 3.11's
    exit hook for the pool's wake-up pipe, which then prints "Bad file descriptor" on the
    way out. Joining the thread taken beforehand closes that window.
    """
    with signals_deferred(signal.SIGINT, signal.SIGTERM):
        _stop(pool)


def _internals(pool: Any) -> tuple[Any, list[Any]]:
    """A pool's manager thread and processes (private, and only for ending it)."""
    manager = getattr(pool, "_executor_manager_thread", None)
    return manager, list((getattr(pool, "_processes", None) or {}).values())


def _stop(pool: Any) -> None:
    manager, processes = _internals(pool)
    results: Any = getattr(pool, "_result_queue", None)
    if isinstance(manager, threading.Thread):
        quiet_settled_futures(manager)
    pool.shutdown(wait=False, cancel_futures=True)
    _close_results(results)
    for process in processes:
        # not is_alive(): that reaps, and the pool's thread reaps as well; SIGTERM to one
        # already gone is nothing
        with contextlib.suppress(Exception):
            process.terminate()
    _kill_stragglers(processes, JOIN_S)
    pool.shutdown(wait=True)
    if manager is not None:
        # bounded: should a process this one does not know of hold the pipe, the caller
        # still hears of the interruption
        manager.join(timeout=JOIN_S)


JOIN_S = 5.0


def end_pool(pool: Any) -> None:
    """Shut a pool down, its work done or its pool broken: its processes take their
    sentinels and exit, and the pool's thread joins them. A pool broken by a process that
    died has had the others sent SIGTERM by that thread, which then joins them: one whose
    main thread was blocked writing a result nobody reads, while the signal went to another
    of its threads (OpenBLAS starts its own in a forked process), ran no handler and never
    ended, and the join waited for ever (a class run hung so once in many, a learner having
    killed its judge). Past :data:`JOIN_S`, what is left of the pool is killed."""
    manager, processes = _internals(pool)
    pool.shutdown(wait=False, cancel_futures=True)
    if not isinstance(manager, threading.Thread):
        pool.shutdown(wait=True)
        return
    manager.join(timeout=JOIN_S)
    if manager.is_alive():
        _kill_stragglers(processes, 0.0)
        manager.join(timeout=JOIN_S)


def _kill_stragglers(processes: list[Any], grace_s: float) -> None:
    """SIGKILL to each of ``processes`` not ended within ``grace_s`` (their sentinels: no
    reaping here, which the pool's thread does)."""
    from multiprocessing.connection import wait

    sentinels: dict[Any, Any] = {}
    for process in processes:
        with contextlib.suppress(Exception):  # closed already: it ended
            sentinels[process.sentinel] = process
    pending = set(sentinels)
    deadline = time.monotonic() + grace_s
    while pending and time.monotonic() < deadline:
        pending -= set(wait(list(pending), timeout=max(0.0, deadline - time.monotonic())))
    for sentinel in pending:
        with contextlib.suppress(Exception):
            sentinels[sentinel].kill()


def _close_results(results: Any) -> None:
    """Close this process's writing end of a pool's result pipe.

    A worker ended in the middle of sending its result leaves half a message in the pipe,
    and the manager thread reads on for the rest. This process never writes results, but
    it holds the pipe's writing end, so the end of file that would tell the thread that no
    more can come never came: the thread read for ever, and the interpreter, which joins it
    at exit, never exited (a class run hung after Ctrl-C about once in 50). Closed, the
    pipe ends when the last worker does, and the thread takes the pool as broken."""
    with contextlib.suppress(Exception):  # a queue of another shape: nothing to close
        results._writer.close()


def live_managers() -> list[threading.Thread]:
    """The manager threads of this process's process pools that have not ended (Python
    waits for each at exit)."""
    futures = sys.modules.get("concurrent.futures.process")
    managers = list(getattr(futures, "_threads_wakeups", None) or ())
    return [thread for thread in managers if thread.is_alive()]


def let_managers_end() -> None:
    """Once the command is done: let the manager threads of pools that were never stopped
    (an error between a pool's start and its stopping) end, once their workers are killed,
    by closing their result pipes (see :func:`_close_results`). One left running races
    Python 3.11's exit hook for the pool's wake-up pipe ("Bad file descriptor" on the way
    out), or waits for the rest of half a result for ever, and the exit with it."""
    for manager in live_managers():
        _close_results(getattr(manager, "result_queue", None))


def quiet_settled_futures(manager: threading.Thread) -> None:
    """Silence one known stdlib error of this manager thread, and only that.

    Python 3.11's manager, on finding a worker gone (the ones ``stop_pool`` ends), marks every
    future still pending as failed, and ``set_exception`` raises ``InvalidStateError`` for
    one the caller cancelled meanwhile: ``pool.map`` cancels what is left as soon as its
    reader stops. The thread's traceback would then follow the one line Ctrl-C prints.
    CPython ignores that error itself from 3.12 on (gh-107219). Pools are stopped only when
    a command is interrupted, so these hooks do not pile up.
    """
    from concurrent.futures import InvalidStateError  # a pool exists: it is imported

    previous = threading.excepthook

    def hook(args: Any) -> None:
        if args.thread is manager and isinstance(args.exc_value, InvalidStateError):
            return
        previous(args)

    threading.excepthook = hook


class _Held:
    """The signals that arrived while they were held back (see :func:`signals_deferred`): a
    process forked meanwhile has its own copy, and its initializer acts on it."""

    signals: ClassVar[list[int]] = []


def _hold(signum: int, frame: object) -> None:
    _Held.signals.append(signum)


@contextlib.contextmanager
def signals_deferred(*signums: int) -> Iterator[None]:
    """``signums`` (Ctrl-C, SIGTERM) held back while pool processes are forked, then acted
    on: a process forked meanwhile inherits a handler that only takes note (its initializer
    then sets its own, and asks :func:`held_back` what came before), and a signal that came
    to this process meanwhile is not lost. Only the main thread may set a handler; elsewhere
    nothing is changed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # nested (a process started while a pool's are forked): what the outer one held stays
    outer, _Held.signals = _Held.signals, []
    previous = {signum: signal.signal(signum, _hold) for signum in signums}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        held, _Held.signals = list(dict.fromkeys(_Held.signals)), outer
        for signum in held:
            signal.raise_signal(signum)  # now through the handler it would have met


def held_back() -> list[int]:
    """In a process forked inside :func:`signals_deferred`: the signals it received before
    its own handlers were set."""
    return list(_Held.signals)
