"""Ending a process pool that was interrupted: at once, with nothing of it left running."""

from __future__ import annotations

import contextlib
import signal
import threading
from concurrent.futures import InvalidStateError
from typing import Any


def quiet_worker() -> None:
    """A pool worker's signals: Ctrl-C reaches the whole process group, and the parent says
    so once and ends the pool (a worker's own KeyboardInterrupt would be a traceback per
    worker); SIGTERM, how the pool ends a worker, ends it at once, without unwinding (the
    command line's handler would raise inside the task, which the pool takes for that
    task's error, and the worker would go on with its queue)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def stop_pool(pool: Any) -> None:
    """Cancel what is queued, end the pool's processes, and wait for its manager thread.

    ``shutdown(wait=False)`` forgets the manager thread, so a second ``shutdown(wait=True)``
    does not wait for it; one still running when the interpreter exits races Python 3.11's
    exit hook for the pool's wake-up pipe, which then prints "Bad file descriptor" on the
    way out. Joining the thread taken beforehand closes that window.
    """
    manager = getattr(pool, "_executor_manager_thread", None)  # private, and only for this
    processes = list((getattr(pool, "_processes", None) or {}).values())
    if isinstance(manager, threading.Thread):
        quiet_settled_futures(manager)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            if process.is_alive():
                process.terminate()
    pool.shutdown(wait=True)
    if manager is not None:
        # bounded: should a worker have died in the middle of sending a result and left the
        # thread reading, the caller still hears of the interruption
        manager.join(timeout=JOIN_S)


JOIN_S = 5.0


def quiet_settled_futures(manager: threading.Thread) -> None:
    """Silence one known stdlib error of this manager thread, and only that.

    Python 3.11's manager, on finding a worker gone (the ones ``stop_pool`` ends), marks every
    future still pending as failed, and ``set_exception`` raises ``InvalidStateError`` for
    one the caller cancelled meanwhile: ``pool.map`` cancels what is left as soon as its
    reader stops. The thread's traceback would then follow the one line Ctrl-C prints.
    CPython ignores that error itself from 3.12 on (gh-107219). Pools are stopped only when
    a command is interrupted, so these hooks do not pile up.
    """
    previous = threading.excepthook

    def hook(args: Any) -> None:
        if args.thread is manager and isinstance(args.exc_value, InvalidStateError):
            return
        previous(args)

    threading.excepthook = hook
