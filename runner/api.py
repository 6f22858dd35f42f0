"""The core API: run claim packs against an implementation, get results as data.

Every front end calls this: the command line, the pytest plugin, the benchmarks. It decides
everything about a run (which claims, which implementation, the faults, the challenge, the
worker a learner's code runs in) and returns :class:`Run` objects; reporters only render
them, recording only writes them.

    packs = load_claims([Path("claims/")])
    run = run_packs(packs, Reference())                 # our NumPy code, faults included
    run = run_packs(packs, LearnerFile(Path("me.py")))  # a learner's file, in a worker
    for path, run in run_class(packs, paths, jobs=2):   # a class, two at a time
        ...
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from checks import REGISTRY
from checks.registry import Implementation, Registry
from runner.exits import EXIT_FOUND_WANTING, EXIT_MISUSE, EXIT_OK
from runner.inject import FaultRun, run_all
from runner.learner.limits import WorkerLimits
from runner.load import ClaimPack, LoadedClaim
from runner.models import ClaimResult
from runner.run import Diagnoser, run_claims, select
from runner.validate import load_runnable

if TYPE_CHECKING:
    from runner.learner.session import LoadFailure


# -- what is judged ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Reference:
    """Our own NumPy code (with the module's faults run beside it)."""


@dataclass(frozen=True)
class Fault:
    """The reference with one of the chapter's faults in place."""

    id: str


@dataclass(frozen=True)
class LearnerFile:
    """A learner's Python file: imported and called only in a worker process."""

    path: Path


Subject = Reference | Fault | LearnerFile


@dataclass(frozen=True)
class RunOptions:
    pattern: str | None = None  # -k: only claims whose id matches
    challenge: str | None = None  # a grader's nonce: add the module's challenge claims
    faults: bool = True  # run the chapter's faults beside a whole reference run
    limits: WorkerLimits = field(default_factory=WorkerLimits)
    diagnose: bool = True  # name the known mistake a failing learner function makes


# -- what a run returns -----------------------------------------------------------------------
@dataclass
class PackRun:
    """One module's claims against one implementation."""

    pack: ClaimPack
    results: list[ClaimResult]
    duration_ms: float
    challenge: list[LoadedClaim] = field(default_factory=list)
    faults: list[FaultRun] | None = None

    @property
    def whole(self) -> bool:
        return self.pack.complete


@dataclass
class Run:
    """Everything one implementation's run decided."""

    implementation: dict[str, Any]  # kind, name, sha256 (the evidence's `implementation`)
    packs: list[PackRun]
    options: RunOptions
    load_failure: LoadFailure | None = None  # a learner's file that could not be used at all
    load_output: str = ""  # what the learner's file printed while it was imported

    @property
    def results(self) -> list[ClaimResult]:
        return [r for p in self.packs for r in p.results]

    @property
    def complete(self) -> bool:
        """Whole modules, no -k: the only runs whose evidence is written."""
        return all(p.whole for p in self.packs) and not self.options.pattern

    def exit_code(self) -> int:
        if self.load_failure is not None:
            return EXIT_MISUSE
        failing = any(r.status != "passed" for r in self.results)
        return EXIT_FOUND_WANTING if failing else EXIT_OK

    def counts(self) -> dict[str, int]:
        statuses = ("passed", "failed", "error", "skipped")
        return {s: sum(r.status == s for r in self.results) for s in statuses}

    def points(self) -> tuple[float, float]:
        results = self.results
        return sum(r.score for r in results), sum(r.points for r in results)


def load_claims(paths: list[Path], registry: Registry = REGISTRY) -> list[ClaimPack]:
    """Load and validate claim packs: every check resolves, every input binds, before any
    claim runs (InvalidClaims lists every problem)."""
    return load_runnable(paths, registry)


# -- running ----------------------------------------------------------------------------------
def run_packs(
    packs: list[ClaimPack],
    subject: Subject,
    options: RunOptions | None = None,
    registry: Registry = REGISTRY,
) -> Run:
    """Run every pack's claims (those matching ``options.pattern``) against ``subject``."""
    options = options or RunOptions()
    challenges = _challenges(packs, options, registry)
    if isinstance(subject, LearnerFile):
        return _learner_run(packs, subject.path, options, registry, challenges)
    impl = (
        registry.reference() if isinstance(subject, Reference) else registry.with_fault(subject.id)
    )
    info = {"kind": impl.kind, "name": impl.name, "sha256": None}
    runs = []
    for pack in packs:
        claims = select(pack.claims, options.pattern) + challenges.get(pack.meta.id, [])
        start = time.perf_counter()
        results = run_claims(claims, impl, registry, pack.meta.seed)
        pack_run = PackRun(pack, results, _ms(start), challenges.get(pack.meta.id, []))
        whole = pack.complete and not options.pattern
        if isinstance(subject, Reference) and options.faults and whole and pack.faults:
            reference = results[: len(pack.claims)]  # the challenge claims come after
            pack_run.faults = run_all(pack, registry, reference=reference)
        runs.append(pack_run)
    return Run(info, runs, options)


def _learner_run(
    packs: list[ClaimPack],
    path: Path,
    options: RunOptions,
    registry: Registry,
    challenges: dict[str, list[LoadedClaim]],
) -> Run:
    # only a learner's run needs the worker machinery (multiprocessing, selectors)
    from runner.learner.scaffold import module_subjects
    from runner.learner.session import LearnerSession

    subjects = module_subjects(packs, registry)
    with LearnerSession(path, subjects, options.limits) as session:
        info = {"kind": "learner", "name": path.name, "sha256": session.sha256 or None}
        failure = session.open()
        if failure is not None:
            return Run(info, [], options, load_failure=failure, load_output=session.load_output)
        impl = session.implementation()
        diagnoser = _diagnoser(registry) if options.diagnose else None
        runs = []
        for pack in packs:
            claims = select(pack.claims, options.pattern) + challenges.get(pack.meta.id, [])
            start = time.perf_counter()
            results = run_claims(claims, impl, registry, pack.meta.seed, session, diagnoser)
            runs.append(PackRun(pack, results, _ms(start), challenges.get(pack.meta.id, [])))
        return Run(info, runs, options, load_output=session.load_output)


def _diagnoser(registry: Registry) -> Diagnoser | None:
    try:
        from runner.diagnose import diagnoser
    except ImportError:  # pragma: no cover - until the library of mistakes exists
        return None
    return diagnoser(registry)


def _challenges(
    packs: list[ClaimPack], options: RunOptions, registry: Registry
) -> dict[str, list[LoadedClaim]]:
    if options.challenge is None:
        return {}
    from runner.challenges import challenge_claims

    return {p.meta.id: challenge_claims(p, options.challenge, registry) for p in packs}


# -- a class ------------------------------------------------------------------------------------
def run_class(
    packs: list[ClaimPack],
    paths: list[Path],
    options: RunOptions | None = None,
    jobs: int = 1,
    claim_paths: list[Path] | None = None,
) -> Iterator[tuple[Path, Run]]:
    """Each learner's run, in the order given. With ``jobs`` > 1, that many judging
    processes share the class (each loads the claims once; each learner still gets a fresh
    worker of its own, so one that hangs or crashes affects only its own row).

    ``claim_paths`` are what ``packs`` were loaded from, for the judging processes to load
    the same packs themselves."""
    options = options or RunOptions()
    jobs = max(1, min(jobs, len(paths), os.cpu_count() or 1))
    if jobs == 1 or claim_paths is None:
        for path in paths:
            yield path, run_packs(packs, LearnerFile(path), options)
        return
    from concurrent.futures import ProcessPoolExecutor  # a class run's cost only

    with ProcessPoolExecutor(
        max_workers=jobs, initializer=_judge_init, initargs=(claim_paths,)
    ) as pool:
        futures = [pool.submit(_judge_one, path, options) for path in paths]
        for path, future in zip(paths, futures, strict=True):
            yield path, future.result()


_JUDGE_PACKS: list[ClaimPack] = []


def _judge_init(claim_paths: list[Path]) -> None:
    _JUDGE_PACKS[:] = load_claims(claim_paths)


def _judge_one(path: Path, options: RunOptions) -> Run:
    return run_packs(_JUDGE_PACKS, LearnerFile(path), options)


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


__all__ = [
    "Fault",
    "Implementation",
    "LearnerFile",
    "PackRun",
    "Reference",
    "Run",
    "RunOptions",
    "load_claims",
    "run_class",
    "run_packs",
]
