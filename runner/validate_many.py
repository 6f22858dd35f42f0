"""Validate many submissions, in one process or several, in the order they were given."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

from runner.machine import usable_cpus
from runner.pools import quiet_worker, signals_deferred, stop_pool
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
                # the workers start inside: neither Ctrl-C nor the pool's SIGTERM reaches one
                # through this process's handlers (Python runs a handler still pending when
                # the worker sets its own, the old one: a traceback, not an end)
                with signals_deferred(signal.SIGINT, signal.SIGTERM):
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
