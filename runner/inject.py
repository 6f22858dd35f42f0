"""Fault injection: run a module's claims against a fault's implementation.

Nothing is patched: the registry builds an implementation where the broken twin stands in
for the subject it replaces, and the claims run against it like against any other. A fault
is *caught* when every claim declared as its catcher fails (or errors); it *survives* when a
catcher still passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from runner.facts import template_refs
from runner.judge import judge
from runner.load import ClaimPack, LoadedFault
from runner.models import ClaimResult, Detail, Fault, Text
from runner.pack import Registry
from runner.run import recorded, run_claim, run_claims

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
        """Catchers that did not break: each one is a way the fault got through."""
        statuses = self.statuses
        return [c for c in self.fault.catchers if statuses.get(c) not in BROKEN]

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
) -> FaultRun:
    """Run the module's claims with the fault in place.

    A claim whose check cannot reach the replaced subject (checks may only call what they
    declare in ``needs``, and reference functions receive their dependencies by name) runs
    exactly the same functions as under the reference, so its ``reference`` result is reused.
    """
    fault = loaded.fault
    impl = registry.with_fault(fault.id)
    reached = registry.reaching(registry.resolve_twin(fault.id).replaces)
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
    pack: ClaimPack, registry: Registry, reference: list[ClaimResult] | None = None
) -> list[FaultRun]:
    if reference is None:
        reference = run_claims(pack.claims, registry.reference(), registry, pack.meta.seed)
    return [run_fault(pack, lf, registry, reference) for lf in pack.faults]


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
