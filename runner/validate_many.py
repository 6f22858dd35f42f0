"""Validate many submissions, in one process or several, in the order they were given."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

from runner.machine import usable_cpus
from runner.pools import quiet_worker, stop_pool
from runner.submission import Report, SubmissionFile, Validator

_WORKER: Validator | None = None


def make_validator(
    claims: Path, repo: Path | None, challenge: str | None, course_evidence: bool = False
) -> Validator:
    """A validator for the claim packs under ``claims``. Their files must be valid (else
    InvalidClaims, exit 2); their packs are found and their checks resolved only when a
    challenge will run them: judging submitted numbers needs the expectations alone."""
    if challenge is None:
        from runner.load import load_packs

        packs = load_packs([claims])
    else:
        from runner.validate import load_runnable

        packs = load_runnable([claims])
    return Validator(packs, repo=repo, challenge=challenge, course_evidence=course_evidence)


def _init(claims: Path, repo: Path | None, challenge: str | None, course_evidence: bool) -> None:
    global _WORKER
    quiet_worker()
    if _WORKER is None:  # a forked worker has the parent's already
        _WORKER = make_validator(claims, repo, challenge, course_evidence)


def _one(file: SubmissionFile) -> Report:
    if _WORKER is None:  # pragma: no cover - the pool always runs _init first
        raise RuntimeError("worker not initialised")
    return _WORKER.validate_file(file)


def validate_files(
    files: list[SubmissionFile],
    claims: Path,
    repo: Path | None,
    challenge: str | None,
    jobs: int,
    course_evidence: bool = False,
) -> Iterator[Report]:
    """A report per file, in order. Reports hold messages as data: workers choose no words.

    At most min(jobs, files, usable CPUs) processes; bad claim files are one clear error
    (exit 2) from the parent before any worker starts.
    """
    global _WORKER
    validator = make_validator(claims, repo, challenge, course_evidence)
    jobs = max(1, min(jobs, len(files), usable_cpus()))
    done = 0
    try:
        if jobs > 1:
            from concurrent.futures import ProcessPoolExecutor
            from concurrent.futures.process import BrokenProcessPool

            _WORKER = validator
            chunk = max(1, min(64, len(files) // (jobs * 4)))
            pool = ProcessPoolExecutor(
                max_workers=jobs,
                initializer=_init,
                initargs=(claims, repo, challenge, course_evidence),
            )
            try:
                with _sigint_deferred():  # the workers start inside: they never see Ctrl-C
                    reports = pool.map(_one, files, chunksize=chunk)
                for report in reports:
                    done += 1
                    yield report
                pool.shutdown()
                return
            except BrokenProcessPool:
                pool.shutdown()  # a worker died (killed, out of memory): the rest are judged here
            except BaseException:  # Ctrl-C, or the reader left: stop now, not after the batch
                stop_pool(pool)
                raise
            finally:
                _WORKER = None
        for file in files[done:]:
            yield validator.validate_file(file)
    finally:
        validator.close()


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Ctrl-C held back while worker processes are forked, then acted on: the workers
    inherit a handler that only takes note (their initializer ignores SIGINT at once), and
    an interrupt that came while the batch was being queued is not lost. Only the main
    thread may set a handler; elsewhere nothing is changed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: pending.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pending:
        signal.raise_signal(signal.SIGINT)  # now through the handler it would have met
