"""One learner's visible claims, shared between this judge and one forked from it.

A learner's run waits on the learner's worker about as long as it computes here, and the two
never work at once: one run keeps one core busy. Two judges, each with a worker of its own,
take the visible claims in turn from a counter they share (in the module's order), so both
cores work. A claim's result does not depend on which judge ran it: each claim's budgets are
CPU time, and each judge caps its own checks (:mod:`.cost`).

The claims a learner may not see yet are not shared: the caller runs them after every
visible claim (the forked judge has handed back its share, its worker killed, or died), each
in a worker killed after it (``api._judged``). What a hidden claim sends its worker so never
reaches a visible claim's output.

Only where ``fork`` exists. If the forked judge cannot start, or dies (a learner's code may
kill processes of its user), the claims it did not hand back are the caller's to run.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from runner.models import ClaimResult

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from runner.learner.session import LearnerSession

# A claim to run: its index among the run's claims, and a callable that runs it on the
# session it is given (the session is the forked judge's own copy there).
Task = tuple[int, Callable[[], ClaimResult]]


class _Shared:
    """What the forked judge inherits: the session, the claims and the counter."""

    session: LearnerSession | None = None
    tasks: Sequence[Task] = ()
    counter: Any = None  # a c_int in memory shared with the forked judge


def share_claims(session: LearnerSession, tasks: Sequence[Task]) -> dict[int, ClaimResult]:
    """Run ``tasks`` here and in one judge forked from this process, each taking the next
    claim when it is done with one: the results by index. Those missing (the forked judge
    could not start, or died) are the caller's to run. This judge goes on with the
    session's worker; the forked one lets go of it and starts one of its own."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return {}
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from runner.pools import signals_deferred, stop_pool

    context = multiprocessing.get_context("fork")
    _Shared.session, _Shared.tasks = session, tasks
    # no lock: a judge killed while holding one would hang this one (see _take)
    _Shared.counter = counter = context.RawValue("i", 0)
    pool: ProcessPoolExecutor | None = None
    results: dict[int, ClaimResult] = {}
    try:
        # Ctrl-C and SIGTERM wait until the forked judge exists and has its task: then
        # this judge stops it (here, below); before, it would be left waiting for a task
        # its parent was stopped before giving it, and the parent's exit would wait on it
        with signals_deferred(signal.SIGINT, signal.SIGTERM):
            try:
                pool = ProcessPoolExecutor(1, context, initializer=_forked_judge)
                forked = pool.submit(_take_claims)
            except (OSError, ValueError, RuntimeError):  # no process: all of them here
                if pool is not None:
                    stop_pool(pool)
                pool = None
        if pool is None:
            return {}
        results.update(_take(tasks, counter))
        try:
            theirs, isolation, missing, wall_left = forked.result()
        except (BrokenProcessPool, OSError):  # it died: what it took and did not return is
            pass  # the caller's to run again
        except Exception:  # it failed (a bug of ours a learner found): the same
            pass
        else:
            results.update(theirs)
            session.fold(isolation, missing, wall_left)
    except BaseException:  # Ctrl-C, SIGTERM: the forked judge and its worker end now
        if pool is not None:
            stop_pool(pool)
        raise
    finally:
        _Shared.session, _Shared.tasks, _Shared.counter = None, (), None
    pool.shutdown(wait=True)
    return results


def _take(tasks: Sequence[Task], counter: Any) -> list[tuple[int, ClaimResult]]:
    """Run the next claim nobody has taken, until none is left.

    The counter is read, then set one past what was read, without a lock. Two judges may so
    both take a claim (each runs it: judged twice, one result kept), but none is ever
    skipped: the counter only moves to one past a value someone read, so every value up to
    the end is read by one of them."""
    done: list[tuple[int, ClaimResult]] = []
    while True:
        at = counter.value
        counter.value = at + 1
        if at >= len(tasks):
            return done
        index, run = tasks[at]
        done.append((index, run()))


def _take_claims() -> tuple[list[tuple[int, ClaimResult]], str, list[str], float]:
    """The forked judge's share, and what its worker could guarantee and what it left of
    the learner's wall-clock allowance."""
    session, counter = _Shared.session, _Shared.counter
    if session is None or counter is None:  # pragma: no cover - set before the fork
        raise RuntimeError("no claims to share in this process")
    try:
        session.restart()
        done = _take(_Shared.tasks, counter)
    finally:
        session.kill()
    return done, session.isolation, list(session.missing), session.wall_left


def _forked_judge() -> None:
    """The forked judge, as a class run's judges are (api._judge_init): it dies with this
    judge, lets go of this judge's worker, starts workers of its own from this judge's fork
    server (every worker of the learner comes from one server, as in a run on one core),
    ignores Ctrl-C (the parent stops it) and, on SIGTERM, kills its worker and exits."""
    from runner.learner.session import borrow_server
    from runner.learner.worker import die_with_parent
    from runner.pools import held_back

    die_with_parent()
    if _Shared.session is not None:  # before anything here could kill the parent's worker
        _Shared.session.disown()
    borrow_server()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)
    if signal.SIGTERM in held_back():  # stopped before it could say so
        _terminated(signal.SIGTERM, None)


def _terminated(signum: int, frame: Any) -> None:
    from runner.learner.session import LearnerSession

    with contextlib.suppress(Exception):
        LearnerSession.kill_all()
    os._exit(128 + signum)
