"""One learner's visible claims, shared between this judge and one forked from it.

A learner's run waits on the learner's worker about as long as it computes here, and the two
never work at once: one run keeps one core busy. Two judges, each with a worker of its own,
judge about half the visible claims each, so both cores work. Each claim's budgets are CPU
time, and each judge caps its own checks (:mod:`.cost`); the split is fixed, so a learner's
code that keeps state between calls meets the same claims in the same worker in every run
(not the run of one judge: state that a claim relies on is not part of the contract).

The split (:func:`split`) weighs each claim by what it cost the reference when its evidence
was recorded, where the caller has those figures: they are the same in every run until the
evidence is recorded again, so the split stays fixed, and the two halves end near each
other. A claim's cost in a learner's run is not its cost in the reference's, but the long
claims are long in both (measured on chapter 23: the judge that finishes last does so
40–60 ms sooner than with every second claim). Without figures, every second claim.

What is not guarded here: a forked judge stopped (SIGSTOP) by a learner's code is waited
for. The learner's code can reach it only where neither namespaces nor Landlock's signal
scoping exist (the run then says so), and there it could stop the first judge as well. A
forked judge killed while its worker computes leaves that worker to end with the fork
server, at the end of the run: it can show nothing (its judge is gone), and every visible
claim is done before a hidden one starts.

The claims a learner may not see yet are not shared: the caller runs them after every
visible claim (the forked judge has handed back its share, its worker killed, or died), each
in a worker killed after it (``api._judged``). What a hidden claim sends its worker so never
reaches a visible claim's output.

Only where ``fork`` exists. If the forked judge cannot start, or dies (a learner's code may
kill processes of its user), the claims it did not hand back are the caller's to run.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import statistics
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeGuard

from runner.models import ClaimResult

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from runner.learner.session import LearnerSession

# A claim to run: its index among the run's claims, and a callable that runs it on the
# session it is given (the session is the forked judge's own copy there).
Task = tuple[int, Callable[[], ClaimResult]]


class _Shared:
    """What the forked judge inherits: the session and its share of the claims."""

    session: LearnerSession | None = None
    tasks: Sequence[Task] = ()


def split(tasks: Sequence[Task], costs: Sequence[float | None]) -> tuple[list[Task], list[Task]]:
    """``tasks`` as this judge's share and the forked judge's, each in the order given.

    ``costs`` are each task's recorded cost (any unit, ``None`` where none was recorded).
    The costliest first, each to the share that costs less so far (this judge's on a tie):
    the greedy rule that ends two shares near each other. A task without a usable cost (none,
    NaN, infinite, negative) is weighed as the median of those with one (the lower middle);
    with no cost above zero, this judge takes the first task and every second after it.
    Only ``tasks`` and ``costs`` decide: never a clock."""
    known = [c for c in costs if _usable(c)]
    if len(costs) != len(tasks) or not known or max(known) == 0:
        return list(tasks[0::2]), list(tasks[1::2])
    # as fractions of the largest, so that no sum overflows (1e308 twice is infinite)
    largest = max(known)
    usual = statistics.median_low(known) / largest
    weights = [c / largest if _usable(c) else usual for c in costs]
    totals = [0.0, 0.0]
    mine = [False] * len(tasks)
    for at in sorted(range(len(tasks)), key=lambda i: (-weights[i], i)):
        side = 0 if totals[0] <= totals[1] else 1
        mine[at] = side == 0
        totals[side] += weights[at]
    return (
        [t for t, here in zip(tasks, mine, strict=True) if here],
        [t for t, here in zip(tasks, mine, strict=True) if not here],
    )


def _usable(cost: float | None) -> TypeGuard[float]:
    return cost is not None and math.isfinite(cost) and cost >= 0


def share_claims(
    session: LearnerSession, tasks: Sequence[Task], costs: Sequence[float | None] = ()
) -> dict[int, ClaimResult]:
    """Run ``tasks`` here and in one judge forked from this process, split by :func:`split`
    (``costs``: each task's recorded cost, or none). The split is fixed, not taken as each
    judge comes free: which worker runs which claims, and so what a learner's code that
    keeps state between calls has seen, is the same in every run, however busy the machine.
    The results by index; those missing (the forked judge could not start, or died) are
    the caller's to run. This judge goes on with the session's worker; the forked one lets
    go of it and starts one of its own. The learner's wall-clock allowance is one, in
    memory both judges see."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return {}
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from runner.learner.session import remove_orphaned_workdirs
    from runner.models.results import build_before_fork
    from runner.pools import signals_deferred, stop_pool

    build_before_fork()
    context = multiprocessing.get_context("fork")
    session.share_allowance(context.RawValue("d", 0.0))
    here, there = split(tasks, costs)
    _Shared.session, _Shared.tasks = session, there
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
        results.update(_run(here))
        try:
            theirs, isolation, missing = forked.result()
        except (BrokenProcessPool, OSError):  # it died: what it did not return is the
            remove_orphaned_workdirs()  # caller's to run again; its worker's folder goes
        except Exception:  # it failed (a bug of ours a learner found): the same
            pass
        else:
            results.update(theirs)
            session.fold(isolation, missing)
    except BaseException:  # Ctrl-C, SIGTERM: the forked judge and its worker end now
        if pool is not None:
            stop_pool(pool)
            remove_orphaned_workdirs()
        raise
    finally:
        _Shared.session, _Shared.tasks = None, ()
    pool.shutdown(wait=True)
    return results


def _run(tasks: Sequence[Task]) -> list[tuple[int, ClaimResult]]:
    return [(index, run()) for index, run in tasks]


def _take_claims() -> tuple[list[tuple[int, ClaimResult]], str, list[str]]:
    """The forked judge's share, and what its worker could guarantee."""
    session = _Shared.session
    if session is None:  # pragma: no cover - set before the fork
        raise RuntimeError("no claims to share in this process")
    try:
        session.restart()
        done = _run(_Shared.tasks)
    finally:
        session.kill()
    return done, session.isolation, list(session.missing)


def _forked_judge() -> None:
    """The forked judge, as a class run's judges are (api._judge_init): it dies with this
    judge, lets go of this judge's worker, starts workers of its own from this judge's fork
    server (every worker of the learner comes from one server, as in a run on one core),
    ignores Ctrl-C (the parent stops it) and, on SIGTERM, kills its worker and exits."""
    from runner.learner.session import borrow_server
    from runner.learner.worker import die_with_parent
    from runner.machine import one_blas_thread
    from runner.pools import held_back

    die_with_parent()
    if _Shared.session is not None:  # before anything here could kill the parent's worker
        _Shared.session.disown()
    borrow_server()
    one_blas_thread()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)
    if signal.SIGTERM in held_back():  # stopped before it could say so
        _terminated(signal.SIGTERM, None)


def _terminated(signum: int, frame: Any) -> None:
    from runner.learner.session import LearnerSession

    with contextlib.suppress(Exception):
        LearnerSession.kill_all()
        LearnerSession.remove_workdirs()
    os._exit(128 + signum)
