"""Fault injection: run a module's claims against a fault's implementation.

Nothing is patched: the registry builds an implementation where the broken twin stands in
for the subject it replaces, and the claims run against it like against any other. A fault
is *caught* when every claim declared as its catcher fails (or errors); it *survives* when a
catcher still passes.
"""

from __future__ import annotations

import multiprocessing
from dataclasses import dataclass
from typing import Any

from runner.facts import template_refs
from runner.judge import judge
from runner.load import ClaimPack, LoadedClaim, LoadedFault
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

    @property
    def statuses(self) -> dict[str, str]:
        return {r.id: r.status for r in self.results}

    @property
    def broken(self) -> list[str]:
        return [r.id for r in self.results if r.status in BROKEN]

    @property
    def survivors(self) -> list[str]:
        """Catchers that did not fail: each one is a way the fault got through. One that
        errored proves nothing about the fault (a twin that cannot even be called errors
        every claim), so it does not catch it either."""
        statuses = self.statuses
        return [c for c in self.fault.catchers if statuses.get(c) != "failed"]

    @property
    def errored(self) -> list[str]:
        """The survivors that errored rather than passed."""
        statuses = self.statuses
        return [c for c in self.fault.catchers if statuses.get(c) == "error"]

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


def run_fault(
    pack: ClaimPack,
    loaded: LoadedFault,
    registry: Registry,
    reference: list[ClaimResult] | None = None,
    answers: Answers | None = None,
) -> FaultRun:
    """Run the module's claims with the fault in place.

    A claim whose check cannot reach the replaced subject (checks may only call what they
    declare in ``needs``, and reference functions receive their dependencies by name) runs
    exactly the same functions as under the reference, so its ``reference`` result is reused;
    in a claim it reaches, a call of a function it does not reach is answered from the
    reference run's record (``answers``, see :mod:`runner.memo`).
    """
    fault = loaded.fault
    reached = registry.reaching(registry.resolve_twin(fault.id).replaces)
    impl = registry.with_fault(fault.id)
    if answers is not None:
        impl = answers.answering(impl, reached)
    previous = {r.id: r for r in reference or []}
    results = []
    for loaded_claim in pack.claims:
        needs = registry.resolve_check(loaded_claim.claim.check).needs_of(loaded_claim.claim.inputs)
        known = previous.get(loaded_claim.claim.id)
        if known is not None and not reached.intersection(needs):
            results.append(known)
        else:
            results.append(run_claim(loaded_claim, impl, registry, pack.meta.seed))
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
    return FaultRun(fault, results, facts)


def run_all(
    pack: ClaimPack,
    registry: Registry,
    reference: list[ClaimResult] | None = None,
    answers: Answers | None = None,
) -> list[FaultRun]:
    """Every fault of the module; ``reference`` (the module's reference results) and
    ``answers`` (that run's record) when the reference has run already, else both made here."""
    if reference is None:
        answers = Answers()
        reference = run_remembering(pack, list(pack.claims), registry.reference(), answers)
    faults = list(pack.faults)
    jobs = min(FAULT_JOBS, usable_cpus(), len(faults))
    if jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
        parallel = _in_parallel(jobs, pack, faults, registry, reference, answers)
        if parallel is not None:
            return parallel
    return [run_fault(pack, lf, registry, reference, answers) for lf in faults]


# Faults run side by side, each in a process forked from this one after the reference run
# (so each holds the reference's results and record without copying them): two at a time
# halve the faults' wall time on two cores; more buy nothing on the machines this serves.
FAULT_JOBS = 2
_FAULT_WORK: tuple[ClaimPack, list[LoadedFault], Registry, list[ClaimResult], Any] | None = None


def _in_parallel(
    jobs: int,
    pack: ClaimPack,
    faults: list[LoadedFault],
    registry: Registry,
    reference: list[ClaimResult],
    answers: Answers | None,
) -> list[FaultRun] | None:
    """The faults' runs, ``jobs`` processes at a time; None when processes cannot be used
    (then they run here, one after another)."""
    global _FAULT_WORK
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from runner.pools import quiet_worker, stop_pool

    _FAULT_WORK = (pack, faults, registry, reference, answers)
    try:
        pool = ProcessPoolExecutor(
            jobs, multiprocessing.get_context("fork"), initializer=quiet_worker
        )
    except (OSError, ValueError):
        _FAULT_WORK = None
        return None
    try:
        runs = list(pool.map(_one_fault, range(len(faults))))
    except (BrokenProcessPool, OSError):  # a process could not start or died
        stop_pool(pool)
        return None
    except BaseException:  # Ctrl-C, SIGTERM: its processes end now, not after their fault
        stop_pool(pool)
        raise
    finally:
        _FAULT_WORK = None
    pool.shutdown(wait=True)
    return runs


def _one_fault(index: int) -> FaultRun:
    if _FAULT_WORK is None:  # pragma: no cover - set before the pool forks
        raise RuntimeError("no fault work in this process")
    pack, faults, registry, reference, answers = _FAULT_WORK
    return run_fault(pack, faults[index], registry, reference, answers)


def run_remembering(
    pack: ClaimPack, claims: list[LoadedClaim], impl: Implementation, answers: Answers
) -> list[ClaimResult]:
    """The reference run of ``claims``, recording in ``answers`` the calls the module's
    faults will ask for again (and only those: recording costs about what it saves)."""
    registry = pack.code.registry
    needs = [(c.claim.id, registry.resolve_check(c.claim.check).needs_of(c.claim.inputs))
             for c in claims]  # fmt: skip
    reach = [registry.reaching(registry.resolve_twin(lf.fault.id).replaces) for lf in pack.faults]
    plan = worth_recording(needs, reach)
    return [
        run_claim(
            c,
            answers.remembering(impl, plan[c.claim.id]) if c.claim.id in plan else impl,
            registry,
            pack.meta.seed,
        )
        for c in claims
    ]


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
