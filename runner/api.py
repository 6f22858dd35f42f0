"""The core API: run claim packs against an implementation, get results as data.

Every front end calls this: the command line, the pytest plugin, the benchmarks. It decides
everything about a run (which claims, which implementation, the faults, the challenge, the
worker a learner's code runs in) and returns :class:`Run` objects; reporters only render
them, recording only writes them.

    packs = load_claims([Path("claims/")])
    run = run_packs(packs, Reference())                 # each pack's NumPy code, faults too
    run = run_packs(packs, LearnerFile(Path("me.py")))  # a learner's file, in a worker
    for path, run in run_class(packs, paths, jobs=2):   # a class, two at a time
        ...

Each loaded module carries the pack its ``module.yaml`` names (``ClaimPack.pack``: its
registry of reference functions, checks, twins and generators), found when it was loaded;
nothing here reaches for a pack of its own. ``load_claims(paths, packs={"name": pack})``
hands in packs directly (a name ``module.yaml`` uses, mapped to a :class:`~runner.pack.Pack`).
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import os
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from runner.errors import UsageError
from runner.exits import EXIT_FOUND_WANTING, EXIT_MISUSE, EXIT_OK
from runner.inject import FaultRun, run_with_faults
from runner.learner.limits import WorkerLimits
from runner.load import ClaimPack, LoadedClaim
from runner.machine import one_blas_thread, usable_cpus
from runner.models import ClaimResult
from runner.pack import Implementation, Pack, Registry
from runner.pools import end_pool, held_back, signals_deferred, stop_pool
from runner.problems import Problem
from runner.run import Diagnoser, run_claim, run_claims, select
from runner.validate import Packs, load_modules, load_runnable

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from runner.learner.session import LearnerSession
    from runner.learner.staging import LoadFailure


# -- what is judged ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Reference:
    """Our own NumPy code (with the module's faults run beside it)."""


@dataclass(frozen=True)
class Fault:
    """The reference with one of a module's faults in place (in the modules whose pack has
    it; the others run their reference)."""

    id: str


@dataclass(frozen=True)
class LearnerFile:
    """A learner's submission: a Python file, or a folder of the learner's own modules
    (``entry`` names its entry module: by default ``my_impl.py``, or the folder's only
    ``*.py``). Imported and called only in a worker process, from a private copy."""

    path: Path
    entry: str | None = None


Subject = Reference | Fault | LearnerFile


# who may see a learner's claims, and when: now, after the due date, once grades are
# published, never (a claim's visibility)
Phase = Literal["visible", "after_due_date", "after_published", "hidden"]


@dataclass(frozen=True)
class RunOptions:
    pattern: str | None = None  # -k: only claims whose id matches
    challenge: str | None = None  # a grader's nonce: add the module's challenge claims
    faults: bool = True  # run the chapter's faults beside a whole reference run
    limits: WorkerLimits = field(default_factory=WorkerLimits)
    diagnose: bool = True  # name the known mistake a failing learner function makes
    # the judge's own folders (outputs, where it runs): never in a learner's worker's view,
    # beside the claim modules, the engine and the packs, which are never there either
    private: tuple[Path, ...] = ()
    # a learner's file alone: its visible claims shared between this many judges, each
    # with a worker of its own (1 or 2: see runner.learner.share); a class run's judges
    # each take one learner at a time, and share nothing
    learner_jobs: int = 1
    # what each claim cost the reference when its evidence was recorded (module id -> claim
    # id -> ms): how a learner's claims are split between its two judges (only how: see
    # runner.learner.share.split); none, and every second claim goes to each
    claim_costs: Mapping[str, Mapping[str, float]] = field(default_factory=dict, hash=False)
    # a learner's claims by who may see them and when: None all, else those of one
    # visibility (judged apart, in the order of PHASES)
    shown: Phase | None = None
    # a learner judged alone in phases: called with the run so far before each later phase,
    # the claims still to come not judged (a grader's result written then stands if the run
    # is stopped: see runner.bundle.autograder). Never pickled: a class run sets none.
    on_phase: Callable[[Run], None] | None = field(default=None, compare=False, hash=False)


# -- what a run returns -----------------------------------------------------------------------
@dataclass
class PackRun:
    """One module's claims against one implementation."""

    pack: ClaimPack
    results: list[ClaimResult]
    duration_ms: float
    challenge: list[LoadedClaim] = field(default_factory=list)
    faults: list[FaultRun] | None = None
    # a learner's file: the other functions it defines (a misspelt name is pointed out)
    defined: tuple[str, ...] = ()

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
    # how the learner's worker was confined: its user ("own-user", "same-user", ...) and
    # every guarantee this machine could not give ("namespaces: ..."), for the grader
    sandbox: dict[str, Any] | None = None
    # a learner's: the wall-clock seconds its calls may still wait (--learner-wall-timeout,
    # grown by the CPU time they used); a class run's second phase starts from it
    wall_left: float | None = None

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
        # a reference run's faults: one that got through, or a faults.yaml fact that no
        # longer holds, is found wanting as a failing claim is
        faults = [f for p in self.packs for f in p.faults or []]
        wanting = any(not f.caught or not f.observed_as_declared for f in faults)
        return EXIT_FOUND_WANTING if failing or wanting else EXIT_OK

    def counts(self) -> dict[str, int]:
        statuses = ("passed", "failed", "error", "skipped")
        return {s: sum(r.status == s for r in self.results) for s in statuses}

    def points(self) -> tuple[float, float]:
        results = self.results
        return sum(r.score for r in results), sum(r.points for r in results)

    @property
    def missing(self) -> list[str]:
        """Every guarantee the learner's worker could not give on this machine."""
        return [str(what) for what in (self.sandbox or {}).get("missing", [])]


def load_claims(
    paths: Sequence[Path | str] | Path | str, packs: Packs | None = None
) -> list[ClaimPack]:
    """Load and validate modules (``paths``: folders of modules or of one module, one or a
    list): each one's pack found, every check resolves in it, every input binds, before any
    claim runs (InvalidClaims lists every problem of every module)."""
    return load_runnable(_paths(paths), packs)


def load_each(
    paths: Sequence[Path | str] | Path | str, packs: Packs | None = None
) -> tuple[list[ClaimPack], list[Problem]]:
    """As :func:`load_claims`, one module at a time: the modules that can run, and the
    problems of those that cannot (a module's unknown check or broken pack is its own)."""
    return load_modules(_paths(paths), packs)


def _paths(paths: Sequence[Path | str] | Path | str) -> list[Path]:
    if isinstance(paths, str | Path):
        return [Path(paths)]
    return [Path(p) for p in paths]


# -- running ----------------------------------------------------------------------------------
def run_packs(packs: list[ClaimPack], subject: Subject, options: RunOptions | None = None) -> Run:
    """Run every module's claims (those matching ``options.pattern``) against ``subject``,
    each module with its own pack."""
    options = options or RunOptions()
    challenges = _challenges(packs, options)
    if isinstance(subject, LearnerFile):
        phases = _phases(packs, options)
        if options.shown is not None or len(phases) < 2:
            return _learner_run(packs, subject.path, subject.entry, options, challenges)
        # One learner in phases, as a class (see run_class): every result shown now is final
        # before a claim shown later is sent anything, and so on to those never shown.
        # One worker and one judge for all let a hidden claim's answer reach a visible one
        # after the fact (diagnoses pooled over the run, the file's names read again by a
        # later import: an attack round read the hidden input 4,242 back from visible
        # Gradescope tests, a bit per submission; the next, from a test shown after the due
        # date, through the diagnoses and the allowance the two shared).
        first = dataclasses.replace(options, shown=phases[0])
        run = _learner_run(packs, subject.path, subject.entry, first, challenges)
        for at, phase in enumerate(phases[1:], 1):
            if run.load_failure is not None:
                break
            if options.on_phase is not None:
                options.on_phase(_pending(run, options, phases[at:]))
            later = _next_phase(options, run, phase)
            run = _merged(
                run, _learner_run(packs, subject.path, subject.entry, later, challenges), later
            )
        return dataclasses.replace(run, options=options)
    if isinstance(subject, Fault) and not any(subject.id in p.code.registry.twins for p in packs):
        known = sorted({t for p in packs for t in p.code.registry.twins})
        raise UsageError("use.unknown_fault", fault=subject.id, valid=", ".join(known))
    info = {
        "kind": "reference" if isinstance(subject, Reference) else "fault",
        "name": "reference" if isinstance(subject, Reference) else subject.id,
        "sha256": None,
    }
    runs = []
    for pack in packs:
        registry = pack.code.registry
        impl = _implementation(registry, subject)
        whole = pack.complete and not options.pattern
        with_faults = isinstance(subject, Reference) and options.faults and whole and pack.faults
        challenge = challenges.get(pack.meta.id, [])
        start = time.perf_counter()
        faults = None
        if with_faults:  # each claim beside the faults that reach it
            results, faults = run_with_faults(pack, impl, registry)
            results += run_claims(challenge, impl, registry, pack.meta.seed)
        else:
            claims = select(pack.claims, options.pattern, registry) + challenge
            results = run_claims(claims, impl, registry, pack.meta.seed)
        runs.append(PackRun(pack, results, _ms(start), challenge, faults))
    return Run(info, runs, options)


def _implementation(registry: Registry, subject: Reference | Fault) -> Implementation:
    if isinstance(subject, Fault) and subject.id in registry.twins:
        return registry.with_fault(subject.id)
    return registry.reference()


def _learner_run(
    packs: list[ClaimPack],
    path: Path,
    entry: str | None,
    options: RunOptions,
    challenges: dict[str, list[LoadedClaim]],
) -> Run:
    # only a learner's run needs the worker machinery (multiprocessing, selectors)
    from runner.learner.scaffold import module_subjects
    from runner.learner.session import LearnerSession

    subjects = module_subjects(packs)
    private = (*(str(p.directory) for p in packs), *(str(p) for p in options.private))
    with LearnerSession(
        path, subjects, options.limits, hidden=_hidden(packs), private=private, entry=entry
    ) as session:
        info = {"kind": "learner", "name": session.name, "sha256": session.sha256 or None}
        failure = session.open()
        sandbox = {"isolation": session.isolation, "missing": list(session.missing)}
        if failure is not None:
            return Run(
                info, [], options, load_failure=failure, load_output=session.load_output,
                sandbox=sandbox if session.isolation else None,
            )  # fmt: skip
        impl = session.implementation()
        claims: list[tuple[int, LoadedClaim, Callable[[], ClaimResult]]] = []
        for at, pack in enumerate(packs):
            registry = pack.code.registry
            diagnoser = _diagnoser(pack, registry) if options.diagnose else None
            chosen = select(pack.claims, options.pattern, registry)
            for loaded in chosen + challenges.get(pack.meta.id, []):
                if options.shown is not None and options.shown != _shown(loaded):
                    continue
                claims.append(
                    (
                        at,
                        loaded,
                        functools.partial(
                            run_claim, loaded, impl, registry, pack.meta.seed, session, diagnoser
                        ),
                    )
                )
        start = time.perf_counter()
        costs = [
            options.claim_costs.get(packs[at].meta.id, {}).get(c.claim.id) for at, c, _ in claims
        ]
        done = _judged(
            session,
            [(c.claim.visibility == "visible", run) for _, c, run in claims],
            options.learner_jobs,
            costs,
        )
        # the claims of every module ran together: each module's duration is theirs
        spent = _ms(start)
        runs = [
            PackRun(
                pack,
                [done[i] for i, (where, _, _) in enumerate(claims) if where == at],
                spent,
                challenges.get(pack.meta.id, []),
                defined=tuple(session.defined),
            )
            for at, pack in enumerate(packs)
        ]
        sandbox = {"isolation": session.isolation, "missing": list(session.missing)}
        return Run(
            info,
            runs,
            options,
            load_output=session.load_output,
            sandbox=sandbox,
            wall_left=session.wall_left(),
        )


def _judged(
    session: LearnerSession,
    claims: list[tuple[bool, Callable[[], ClaimResult]]],
    jobs: int,
    costs: list[float | None] | None = None,
) -> dict[int, ClaimResult]:
    """Each claim's result, by its index: claims the learner may see first (shared between
    ``jobs`` judges where there are CPUs for them, split by ``costs``, each claim's recorded
    cost: see :mod:`runner.learner.share`), then,
    one after another, those it may not see yet, each in a worker killed after it. What a
    hidden claim sent its worker (its inputs) dies with that worker: no visible claim runs
    after it, and none of the learner's processes that outlive it can show anything."""
    visible = [(i, run) for i, (shown, run) in enumerate(claims) if shown]
    done: dict[int, ClaimResult] = {}
    if jobs > 1 and len(visible) > 1 and usable_cpus() > 1:
        from runner.learner.share import share_claims

        weights = [costs[i] if costs else None for i, _ in visible]
        done = share_claims(session, visible, weights)
    for i, run in visible:  # those the sharing did not run (its judge could not, or died)
        if i not in done:
            done[i] = run()
    for i, (shown, run) in enumerate(claims):
        if not shown:
            done[i] = run()
            session.kill()
    return done


def _hidden(packs: list[ClaimPack]) -> tuple[list[str], list[str]]:
    """The packages a learner's code may not import, and the directories of the course's
    code no function of a learner's may come from: the engine's and every pack's."""
    import runner

    found: list[Pack] = list({id(p.code): p.code for p in packs}.values())
    names = ["runner", *(name for pack in found for name in pack.code)]
    directories = [
        *(str(Path(d).resolve()) + os.sep for d in runner.__path__),
        *(d for pack in found for d in pack.code_directories()),
    ]
    return list(dict.fromkeys(names)), list(dict.fromkeys(directories))


def _diagnoser(pack: ClaimPack, registry: Registry) -> Diagnoser:
    from runner.diagnose import diagnoser

    return diagnoser(registry, pack.claims, (lf.fault.id for lf in pack.faults))


def _challenges(packs: list[ClaimPack], options: RunOptions) -> dict[str, list[LoadedClaim]]:
    if options.challenge is None:
        return {}
    from runner.challenges import course_challenges

    return course_challenges(packs, options.challenge)


# -- a class ------------------------------------------------------------------------------------
def run_class(
    packs: list[ClaimPack],
    paths: list[Path],
    options: RunOptions | None = None,
    jobs: int = 1,
    claim_paths: list[Path] | None = None,
    entry: str | None = None,
) -> Iterator[tuple[Path, Run]]:
    """Each learner's run, in the order given, exactly as :func:`run_packs` would judge the
    file alone. ``jobs`` judging processes (capped at the number of files and of CPUs)
    share the class; each starts its own fork server once, and each learner still gets a
    worker of its own, so one that hangs or crashes costs only its own row. A judging
    process that dies (a learner's code can kill processes of its user when the judge is
    not root) is replaced, and the learners it had not finished are judged again, each
    alone; a learner that kills its judge alone too gets a row saying so.

    ``claim_paths`` are what ``packs`` were loaded from: judging processes that are not
    forked from this one (where ``fork`` is not available) load the packs from them.
    ``entry`` names the entry module of folder submissions (see :class:`LearnerFile`).

    Any failure while judging one learner (its judge died, or raised) is that learner's
    row (``load.judge_died``, ``load.judge_failed``); the others are judged regardless.
    This process and its judges are not dumpable (no process of the user reads their
    memory or environment, or traces them), and the judges die with it (SIGKILL included),
    their fork servers and workers with them."""
    # each judge takes one learner at a time: the class already uses the CPUs
    options = dataclasses.replace(options or RunOptions(), learner_jobs=1)
    if not paths:
        return
    from runner.learner.worker import not_dumpable

    not_dumpable()  # before any judge exists: they inherit it
    # judged in processes of their own even one at a time: this one survives a learner
    # whose code kills the process judging it
    jobs = max(1, min(jobs, len(paths), usable_cpus()))
    judges = [_judges(jobs, packs, claim_paths)]  # the pool in use (a fresh one per phase)
    try:
        phases = _phases(packs, options)
        if len(phases) < 2:
            yield from _each_judged(judges[0], paths, entry, options, packs, claim_paths)
            return
        # Hidden claims' inputs must reach no learner's visible output. A worker shares the
        # machine with its classmates' (the page cache, machine-wide counters), so one
        # learner's code could pass what its hidden claims were sent to a classmate judged
        # at the same time or later (an attack round read 4,242 back that way). Every
        # learner's visible claims are judged first, then every learner's claims shown
        # later, and only then any never shown: no output is made after an input it may not
        # carry was sent anywhere, and nothing of a later phase but its own claims' results
        # reaches a row (see _merged). Each phase's runs wait on disk between the phases,
        # without their packs (this process stays flat).
        import pickle
        import tempfile

        with tempfile.TemporaryDirectory(prefix="learn-llm-class-") as held:
            first = dataclasses.replace(options, shown=phases[0])
            judged = _each_judged(judges[0], paths, entry, first, packs, claim_paths)
            nexts: list[RunOptions] = []  # each learner's next phase, its allowance left
            for at, (_, run) in enumerate(judged):
                Path(held, f"{at}.pickle").write_bytes(pickle.dumps(_shipped(run)))
                nexts.append(_next_phase(options, run, phases[1]))
            for k in range(1, len(phases)):
                # a judge that died broke the last pool: each phase gets its own
                end_pool(judges[0])
                judges[0] = _judges(jobs, packs, claim_paths)
                judged = _each_judged(judges[0], paths, entry, nexts, packs, claim_paths)
                following: list[RunOptions] = []
                for at, (path, run) in enumerate(judged):
                    kept = Path(held, f"{at}.pickle")
                    earlier = _unpacked(pickle.loads(kept.read_bytes()), packs, first)
                    merged = _merged(earlier, run, nexts[at])
                    if k == len(phases) - 1:
                        kept.unlink()
                        yield path, dataclasses.replace(merged, options=options)
                    else:
                        kept.write_bytes(pickle.dumps(_shipped(merged)))
                        following.append(_next_phase(options, merged, phases[k + 1]))
                nexts = following
    except BaseException:
        # stopped (Ctrl-C, SIGTERM, the reader gone): the judges stop too, each cleaning up
        # its learner's worker, rather than finishing the learner they are judging
        stop_pool(judges[0])
        raise
    finally:
        end_pool(judges[0])


# A learner's run as it crosses from a judge to the class run and waits on disk: its modules'
# packs left out (each holds its registry and the reference's answers to every contract case,
# 12.5 MB pickled), put back from the class run's own.
Shipped = tuple[dict[str, Any], list[tuple[Any, ...]], "LoadFailure | None", str, Any, Any]


def _shipped(run: Run) -> Shipped:
    parts = [(p.results, p.duration_ms, p.challenge, p.faults, p.defined) for p in run.packs]
    return (
        run.implementation,
        parts,
        run.load_failure,
        run.load_output,
        run.sandbox,
        run.wall_left,
    )


def _unpacked(shipped: Shipped, packs: list[ClaimPack], options: RunOptions) -> Run:
    """The run ``shipped`` stands for, each module's results with its pack again (a judge
    runs every module of the class run, in its order)."""
    implementation, parts, failure, output, sandbox, wall_left = shipped
    runs = [
        PackRun(pack, results, spent, challenge, faults, defined)
        for pack, (results, spent, challenge, faults, defined) in zip(packs, parts, strict=False)
    ]
    return Run(implementation, runs, options, failure, output, sandbox, wall_left)


def _next_phase(options: RunOptions, previous: Run, phase: Phase) -> RunOptions:
    """A learner's options for its claims of ``phase``: the wall-clock allowance its
    earlier phases left (it is one allowance for all of a learner's calls, not one per
    phase)."""
    limits = options.limits
    if previous.wall_left is not None:
        limits = dataclasses.replace(limits, learner_wall_s=max(previous.wall_left, 0.001))
    return dataclasses.replace(options, shown=phase, limits=limits)


def _each_judged(
    pool: ProcessPoolExecutor,
    paths: list[Path],
    entry: str | None,
    options: RunOptions | list[RunOptions],
    packs: list[ClaimPack],
    claim_paths: list[Path] | None,
) -> Iterator[tuple[Path, Run]]:
    """Each learner's run under ``options`` (or each its own), in the order given, from the
    pool's judges."""
    from concurrent.futures.process import BrokenProcessPool

    each = options if isinstance(options, list) else [options] * len(paths)
    # taken off the queue as each is yielded: a judged learner's run is not kept here; the
    # judges are forked at the first submit, with Ctrl-C and SIGTERM held (see _judge_init)
    with signals_deferred(signal.SIGINT, signal.SIGTERM):
        pending = collections.deque(
            (path, mine, pool.submit(_judge_one, path, entry, mine))
            for path, mine in zip(paths, each, strict=True)
        )
    while pending:
        path, mine, future = pending.popleft()
        try:
            run = _unpacked(future.result(), packs, mine)
        except BrokenProcessPool:
            run = _judge_alone(path, entry, mine, packs, claim_paths)
        except Exception as exc:  # the judge raised (a bug of ours a learner found)
            run = _failed(path, mine, "load.judge_failed", exc)
        yield path, run


# The order in which a learner's claims are judged, by who may see them and when: each
# phase's results are final before the next phase's claims are sent anything.
PHASES: tuple[Phase, ...] = ("visible", "after_due_date", "after_published", "hidden")


def _phases(packs: list[ClaimPack], options: RunOptions) -> list[Phase]:
    """The phases a run's chosen claims fall in, in order (its challenge claims take their
    visibility from the claims they vary)."""
    present = {_shown(c) for p in packs for c in select(p.claims, options.pattern, p.code.registry)}
    return [phase for phase in PHASES if phase in present]


def _chosen(run: PackRun, options: RunOptions) -> list[LoadedClaim]:
    """The claims ``run``'s module chose, its challenge claims included."""
    return [*select(run.pack.claims, options.pattern, run.pack.code.registry), *run.challenge]


def _in_order(run: PackRun, results: list[ClaimResult]) -> list[ClaimResult]:
    """``results`` in the order of ``run``'s module's claims."""
    order = {c.claim.id: i for i, c in enumerate((*run.pack.claims, *run.challenge))}
    return sorted(results, key=lambda r: order.get(r.id, len(order)))


def _phase_claims(run: PackRun, options: RunOptions) -> list[LoadedClaim]:
    """The claims of ``options.shown``'s phase that ``run``'s module chose."""
    return [c for c in _chosen(run, options) if _shown(c) == options.shown]


def _pending(run: Run, options: RunOptions, rest: Sequence[Phase]) -> Run:
    """``run`` (a learner's phases so far) with the claims of the phases in ``rest`` not
    judged yet, in the claims' order: what a grader's result holds if the run is stopped
    before them."""
    packs = []
    for p in run.packs:
        waiting = [
            _unjudged(c, "claim.not_judged_in_time")
            for c in _chosen(p, options)
            if _shown(c) in rest
        ]
        packs.append(dataclasses.replace(p, results=_in_order(p, [*p.results, *waiting])))
    return dataclasses.replace(run, packs=packs, options=options)


def _unjudged(loaded: LoadedClaim, why: str = "claim.hidden_unjudged") -> ClaimResult:
    """A claim of a later phase that was not judged: an error that says only ``why`` (what
    the file did then is not shown: see _merged)."""
    from runner.models import Detail

    claim = loaded.claim
    return ClaimResult(
        id=claim.id,
        proposition=loaded.proposition,
        stage=loaded.stage,
        statement=claim.statement,
        check=claim.check,
        notes=claim.notes,
        points=claim.points,
        visibility=claim.visibility,
        kind=claim.kind,
        status="error",
        duration_ms=0.0,
        reason=Detail.of(why),
    )


def _merged(visible: Run, hidden: Run, options: RunOptions) -> Run:
    """One learner's run from its phases so far (``visible``) and the next one (``hidden``,
    judged with ``options``): each module's results in the claims' order, and nothing else
    of the next phase (its output, its sandbox, its failure) in the row but the allowance
    it left. A learner whose file could not be loaded is the first phase's row; one whose
    next phase could not be judged at all has that phase's claims err, saying only that;
    one whose file changed between the phases is a row saying so, and nothing judged."""
    if visible.load_failure is not None:
        return dataclasses.replace(visible, options=options)
    left = hidden.wall_left
    if hidden.load_failure is not None:
        # nothing of it is shown (its import ran after a classmate's hidden inputs were
        # sent, and could say what it found): the hidden claims err, the row stays the first
        # phase's
        hidden = dataclasses.replace(
            visible,
            packs=[
                PackRun(p.pack, [_unjudged(c) for c in _phase_claims(p, options)], 0.0, p.challenge)
                for p in visible.packs
            ],
        )
    elif visible.implementation.get("sha256") != hidden.implementation.get("sha256"):
        # the two phases read different bytes: no row may mix them
        from runner.learner.staging import LoadFailure

        failure = LoadFailure("load.changed_between", {})
        return Run(visible.implementation, [], options, load_failure=failure)
    packs = []
    for shown, kept in zip(visible.packs, hidden.packs, strict=True):
        results = _in_order(shown, [*shown.results, *kept.results])
        spent = shown.duration_ms + kept.duration_ms
        packs.append(dataclasses.replace(shown, results=results, duration_ms=spent))
    return dataclasses.replace(visible, packs=packs, options=options, wall_left=left)


def _shown(loaded: LoadedClaim) -> Phase:
    return loaded.claim.visibility


def _judges(
    jobs: int, packs: list[ClaimPack], claim_paths: list[Path] | None
) -> ProcessPoolExecutor:
    """Judging processes: forked from this one where possible (they inherit the packs and
    every module already imported), else started afresh and loading the packs."""
    import multiprocessing  # a class run's cost only
    from concurrent.futures import ProcessPoolExecutor

    if "fork" in multiprocessing.get_all_start_methods():
        from runner.models.results import build_before_fork

        build_before_fork()
        context = multiprocessing.get_context("fork")
        return ProcessPoolExecutor(jobs, context, initializer=_judge_init, initargs=(packs, None))
    if claim_paths is None:
        raise ValueError("run_class needs claim_paths where judging processes cannot be forked")
    return ProcessPoolExecutor(jobs, initializer=_judge_init, initargs=(None, claim_paths))


def _judge_alone(
    path: Path,
    entry: str | None,
    options: RunOptions,
    packs: list[ClaimPack],
    claim_paths: list[Path] | None,
) -> Run:
    from concurrent.futures.process import BrokenProcessPool

    with _judges(1, packs, claim_paths) as pool:
        try:
            with signals_deferred(signal.SIGINT, signal.SIGTERM):  # forked inside
                future = pool.submit(_judge_one, path, entry, options)
            return _unpacked(future.result(), packs, options)
        except BrokenProcessPool:
            return _failed(path, options, "load.judge_died")
        except Exception as exc:
            return _failed(path, options, "load.judge_failed", exc)


def _failed(path: Path, options: RunOptions, code: str, exc: BaseException | None = None) -> Run:
    """The row of a learner whose judging failed: it says how, and nothing is judged."""
    from runner.learner.staging import LoadFailure
    from runner.text import printable_line

    info = {"kind": "learner", "name": printable_line(path.name), "sha256": None}
    params: dict[str, Any] = {}
    if exc is not None:
        lines = str(exc).strip().splitlines()
        text = f"{type(exc).__name__}: {lines[-1] if lines else ''}"
        params["error"] = printable_line(text)[:300]
    return Run(info, [], options, load_failure=LoadFailure(code, params))


_JUDGE_PACKS: list[ClaimPack] = []


def _judge_init(packs: list[ClaimPack] | None, claim_paths: list[Path] | None) -> None:
    from runner.learner.session import forget_inherited_server
    from runner.learner.worker import die_with_parent, not_dumpable

    not_dumpable()  # inherited from the class run where forked; said again where spawned
    die_with_parent()  # the class run is killed: this judge too (its workers follow)
    # The parent's fork server is not this process's child. (When the pool ends this
    # process, its fork server ends with it, and so, by their parent-death signal, do its
    # workers: see runner.learner.worker.confine.)
    forget_inherited_server()
    one_blas_thread()
    # SIGTERM (from the class run that started it, or the pool ending a broken pool): kill
    # the learner's worker and what it started, then exit at once. Not by unwinding: a
    # thread of the pool's may be blocked writing a result nobody reads, and an interpreter
    # that exits normally waits for it forever. Ctrl-C is the class run's to act on: it
    # stops the judges. Forked with both held: one that came before is acted on now.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _judge_terminated)
    if signal.SIGTERM in held_back():
        _judge_terminated(signal.SIGTERM, None)
    _JUDGE_PACKS[:] = packs if packs is not None else load_claims(claim_paths or [])


def _judge_terminated(signum: int, frame: object) -> None:
    from runner.learner.session import LearnerSession

    LearnerSession.kill_all()
    os._exit(128 + signum)


def _judge_one(path: Path, entry: str | None, options: RunOptions) -> Shipped:
    return _shipped(run_packs(_JUDGE_PACKS, LearnerFile(path, entry), options))


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
    "load_each",
    "run_class",
    "run_packs",
]
