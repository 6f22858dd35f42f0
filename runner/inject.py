"""Fault injection: run a module's claims against a fault's implementation.

Nothing is patched: the registry builds an implementation where the broken twin stands in
for the subject it replaces, and the claims run against it like against any other. A fault
is *caught* when every claim declared as its catcher passes on the reference and fails under
the fault; it *survives* when a catcher still passes, errs, or fails on the reference too (a
claim that fails whatever it runs on tells nothing of the fault).
"""

from __future__ import annotations

import signal
from dataclasses import dataclass, field
from typing import Any

from runner.facts import template_refs
from runner.judge import judge
from runner.load import ClaimPack, LoadedFault
from runner.machine import usable_cpus
from runner.memo import Answers, worth_recording
from runner.models import ClaimResult, Detail, Fault, Text
from runner.numbers import show_expectation
from runner.pack import Implementation, Registry
from runner.run import recorded, run_claim

BROKEN = ("failed", "error")


@dataclass(frozen=True)
class FactResult:
    """A fact of the fault's run: its sentence template, the numbers it names, whether the
    run showed what faults.yaml says. Words are filled in only where it is shown."""

    template: Text
    values: dict[str, Any]  # "claim-id/measure" -> the measured value
    held: bool
    detail: Detail | None


@dataclass(frozen=True)
class FaultRun:
    fault: Fault
    results: list[ClaimResult]
    facts: list[FactResult]
    # the status on the reference of the claims whose reference run is known (every claim
    # in a whole run; the catchers when one fault is asked for alone)
    on_reference: dict[str, str] = field(default_factory=dict)

    @property
    def statuses(self) -> dict[str, str]:
        return {r.id: r.status for r in self.results}

    @property
    def broken(self) -> list[str]:
        """The claims the fault breaks: failed or erred under it, and passed on the
        reference (one that does not pass there is broken whatever runs)."""
        return [
            r.id
            for r in self.results
            if r.status in BROKEN and self.on_reference.get(r.id, "passed") == "passed"
        ]

    @property
    def unsound(self) -> list[str]:
        """Catchers that do not pass on the reference: failing under the fault too, they
        cannot tell it from the reference."""
        return [c for c in self.fault.catchers if self.on_reference.get(c, "passed") != "passed"]

    @property
    def survivors(self) -> list[str]:
        """Catchers that do not catch the fault: each one is a way it got through. One that
        errored proves nothing about the fault (a twin that cannot even be called errors
        every claim), nor does one that fails on the reference too."""
        statuses, unsound = self.statuses, set(self.unsound)
        return [c for c in self.fault.catchers if statuses.get(c) != "failed" or c in unsound]

    @property
    def errored(self) -> list[str]:
        """The survivors that errored rather than passed (and pass on the reference)."""
        statuses, unsound = self.statuses, set(self.unsound)
        return [c for c in self.fault.catchers if statuses.get(c) == "error" and c not in unsound]

    @property
    def passing(self) -> list[str]:
        """The survivors that still pass under the fault."""
        skip = set(self.errored) | set(self.unsound)
        return [c for c in self.survivors if c not in skip]

    @property
    def caught(self) -> bool:
        return not self.survivors

    @property
    def observed_as_declared(self) -> bool:
        return all(f.held for f in self.facts)


def measured_values(results: list[ClaimResult]) -> dict[tuple[str, str], Any]:
    values: dict[tuple[str, str], Any] = {}
    for r in results:
        for m in r.measurements:
            values[(r.id, m.name)] = m.actual
        for name, value in r.observations.items():
            values[(r.id, name)] = value
    return values


def run_fault(pack: ClaimPack, loaded: LoadedFault, registry: Registry) -> FaultRun:
    """Run every claim of the module with the fault in place (one fault asked for alone; a
    whole run reuses the reference's work instead, see :func:`run_with_faults`)."""
    impl = registry.with_fault(loaded.fault.id)
    results = [run_claim(c, impl, registry, pack.meta.seed) for c in pack.claims]
    # its catchers on the reference too: one failing there would seem to catch the fault
    reference = registry.reference()
    catchers = [c for c in pack.claims if c.claim.id in loaded.fault.catchers]
    on_reference = [run_claim(c, reference, registry, pack.meta.seed) for c in catchers]
    return fault_run(loaded.fault, results, on_reference)


def fault_run(
    fault: Fault, results: list[ClaimResult], reference: list[ClaimResult] | None = None
) -> FaultRun:
    """A fault's run from its claims' results: the facts faults.yaml says it shows, judged."""
    values = measured_values(results)
    facts = []
    for fact in fault.observed:
        key = (fact.claim, fact.measure)
        if key in values:
            verdict, detail = judge(fact.as_expectation(), values[key])
            if verdict != "passed" and detail is None:  # say what faults.yaml expected
                expected = show_expectation(fact.as_expectation())
                detail = Detail.of("fault.fact_expected", expected=expected)
        else:
            verdict = "failed"
            detail = Detail.of("fault.measured_no", claim=fact.claim, measure=fact.measure)
        named = {
            f"{c}/{m}": recorded(values[(c, m)])
            for lang in ("zh", "en")
            for c, m in template_refs(getattr(fact.fact, lang))
            if (c, m) in values
        }
        facts.append(FactResult(fact.fact, named, verdict == "passed", detail))
    return FaultRun(fault, results, facts, {r.id: r.status for r in reference or ()})


def run_all(pack: ClaimPack, registry: Registry) -> list[FaultRun]:
    """Every fault of the module (the reference runs too: the faults reuse what it did)."""
    return run_with_faults(pack, registry.reference(), registry)[1]


def run_with_faults(
    pack: ClaimPack, impl: Implementation, registry: Registry
) -> tuple[list[ClaimResult], list[FaultRun]]:
    """The module's claims on ``impl`` (the reference), and every fault's run.

    The work is cut by claim: one claim runs on the reference, then under each fault that
    reaches it (a fault that cannot reach a claim's functions would run the same code, so
    the reference's result stands for it), its calls of the functions the fault leaves
    alone answered from what the claim's reference run recorded (:mod:`runner.memo`).
    Claims depend on nothing but their own inputs and seed, so on a machine with more than
    one core they are shared among processes forked from this one, those most faults reach
    first (the longest rows, so the processes end together).
    """
    import multiprocessing  # not imported by the commands that run no fault

    plan = _Plan.of(pack, impl, registry)
    order = sorted(range(len(pack.claims)), key=plan.weight, reverse=True)
    jobs = min(JOBS, usable_cpus(), len(order))
    rows = None
    if jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
        rows = _in_parallel(jobs, plan, order)
    if rows is None:
        rows = {i: plan.claim_everywhere(i) for i in order}
    reference = [rows[i][0] for i in range(len(pack.claims))]
    runs = [
        fault_run(
            lf.fault,
            [rows[i][1].get(lf.fault.id, reference[i]) for i in range(len(reference))],
            reference,
        )
        for lf in pack.faults
    ]
    return reference, runs


Row = tuple[ClaimResult, dict[str, ClaimResult]]  # a claim's reference result, and by fault


@dataclass(frozen=True)
class _Plan:
    """What every claim of a module is run on: the reference, and each fault's twin."""

    pack: ClaimPack
    registry: Registry
    reference: Implementation
    needs: list[frozenset[str]]  # by claim: the subjects its check calls
    faults: list[tuple[str, frozenset[str], Implementation]]  # id, what it reaches, its twin

    @classmethod
    def of(cls, pack: ClaimPack, impl: Implementation, registry: Registry) -> _Plan:
        needs = [
            frozenset(registry.resolve_check(c.claim.check).needs_of(c.claim.inputs))
            for c in pack.claims
        ]
        faults = []
        for lf in pack.faults:
            reached = registry.reaching(registry.resolve_twin(lf.fault.id).replaces)
            faults.append((lf.fault.id, reached, registry.with_fault(lf.fault.id)))
        return cls(pack, registry, impl, needs, faults)

    def reaching(self, index: int) -> list[tuple[str, frozenset[str], Implementation]]:
        return [f for f in self.faults if f[1].intersection(self.needs[index])]

    def weight(self, index: int) -> int:
        """How many runs the claim takes: the reference's and one per fault reaching it."""
        return 1 + len(self.reaching(index))

    def claim_everywhere(self, index: int) -> Row:
        loaded = self.pack.claims[index]
        seed = self.pack.meta.seed
        reaching = self.reaching(index)
        answers = Answers()  # this claim's calls: the faults re-run this claim only
        wanted = worth_recording(self.needs[index], [reached for _, reached, _ in reaching])
        impl = answers.remembering(self.reference, wanted) if wanted else self.reference
        reference = run_claim(loaded, impl, self.registry, seed)
        under = {
            fault_id: run_claim(loaded, answers.answering(twin, reached), self.registry, seed)
            for fault_id, reached, twin in reaching
        }
        return reference, under


# Claims run side by side, in processes forked from this one once the module is loaded: two
# at a time halve the wall time on two cores; more buy nothing on the machines this serves.
JOBS = 2
_WORK: _Plan | None = None


def _in_parallel(jobs: int, plan: _Plan, order: list[int]) -> dict[int, Row] | None:
    """Each claim's row, ``jobs`` processes at a time; None when processes cannot be used
    (then they run here, one after another)."""
    global _WORK
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from runner.models.results import build_before_fork
    from runner.pools import quiet_worker, signals_deferred, stop_pool

    build_before_fork()
    _WORK = plan
    try:
        pool = ProcessPoolExecutor(
            jobs, multiprocessing.get_context("fork"), initializer=quiet_worker
        )
    except (OSError, ValueError):
        _WORK = None
        return None
    try:
        # the processes are forked as the claims are handed out: a Ctrl-C then would leave
        # one the pool has not recorded yet, which stop_pool cannot end, waiting forever
        with signals_deferred(signal.SIGINT, signal.SIGTERM):
            answers = pool.map(_one_claim, order)
        rows = dict(zip(order, answers, strict=True))
    except (BrokenProcessPool, OSError):  # a process could not start or died
        stop_pool(pool)
        return None
    except BaseException:  # Ctrl-C, SIGTERM: its processes end now, not after their claim
        stop_pool(pool)
        raise
    finally:
        _WORK = None
    pool.shutdown(wait=True)
    return rows


def _one_claim(index: int) -> Row:
    if _WORK is None:  # pragma: no cover - set before the pool forks
        raise RuntimeError("no claims to run in this process")
    return _WORK.claim_everywhere(index)


def find_fault(packs: list[ClaimPack], fault_id: str) -> tuple[ClaimPack, LoadedFault] | None:
    for pack in packs:
        for lf in pack.faults:
            if lf.fault.id == fault_id:
                return pack, lf
    return None


def variant(run: FaultRun) -> dict[str, Any]:
    """One fault's entry in the evidence."""
    fault = run.fault
    return {
        "id": fault.id,
        "title": fault.title.model_dump(),
        "replaces": fault.replaces,
        "expected_signal": fault.expected_signal.model_dump(),
        "observed_signal": [
            {
                "fact": f.template.model_dump(),
                "values": f.values,
                "held": f.held,
                "detail": f.detail.model_dump() if f.detail else None,
            }
            for f in run.facts
        ],
        "observed_as_declared": run.observed_as_declared,
        "differs_from_chapter": (
            fault.differs_from_chapter.model_dump() if fault.differs_from_chapter else None
        ),
        "catchers": list(fault.catchers),
        "claims_broken": run.broken,
        "caught": run.caught,
    }


def fault_section(runs: list[FaultRun]) -> dict[str, Any]:
    """The evidence's ``faults``: every variant, the fault x claim matrix, and the score."""
    return {
        "variants": [variant(r) for r in runs],
        "matrix": {r.fault.id: r.statuses for r in runs},
        "score": {"caught": sum(r.caught for r in runs), "total": len(runs)},
    }
