"""Run: each claim's check against one implementation, judged, timed, never propagating.

A check that raises makes its claim ``error`` with the reason as data; a function the
implementation lacks makes it ``skipped``; the other claims run regardless. Against a
learner's file, every call crosses into the learner's worker (see runner.learner.session):
each claim has its own deadline, what the learner printed is kept with the claim, and a
worker that fails costs only the claim that was running.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import time
import warnings
import zlib
from collections.abc import Iterable
from typing import Any, Protocol

import numpy as np

from runner.compare import Raised
from runner.i18n import Msg
from runner.judge import judge, to_plain
from runner.learner.cost import CheckOverrun, check_limits
from runner.learner.limits import WorkerLimits
from runner.load import LoadedClaim
from runner.models import (
    ClaimResult,
    Detail,
    Diagnosis,
    Expectation,
    MeasurementResult,
    Raises,
    Range,
)
from runner.numbers import show
from runner.pack import (
    BoundaryError,
    CallLog,
    ForeignError,
    ForeignNotImplemented,
    Implementation,
    MissingSubject,
    Registry,
)
from runner.pack.outcome import said_by_engine
from runner.validate import metric_name

# Beyond this many numbers a measured value is judged whole but recorded by its size only:
# evidence stays small whatever an implementation returns.
MAX_RECORDED_VALUES = 4096


class Session(Protocol):
    """What the engine needs of a learner's worker (runner.learner.session)."""

    last_returned: str | None  # the learner's function whose value came back last

    def begin_claim(self) -> None: ...

    def end_claim(self) -> Any: ...

    def judging(self) -> contextlib.AbstractContextManager[None]:
        """The judge's own cap while a check computes on the learner's values."""
        ...

    def diagnosing(self) -> contextlib.AbstractContextManager[None]:
        """The judge's own cap while the diagnosis replays a claim's calls on the twins
        (runner.learner.cost.Overrun past it)."""
        ...


class Diagnoser(Protocol):
    def __call__(
        self, loaded: LoadedClaim, log: CallLog, impl: Implementation
    ) -> list[Diagnosis]: ...

    def unfinished(self, loaded: LoadedClaim) -> list[Diagnosis]:
        """This claim's diagnoses, not made: and no later claim's of the run either."""
        ...


def claim_rng(seed: int, claim_id: str) -> np.random.Generator:
    """A generator of its own per claim, so selecting claims with -k changes no number."""
    return np.random.default_rng([seed, zlib.crc32(claim_id.encode())])


def run_claims(
    claims: Iterable[LoadedClaim],
    impl: Implementation,
    registry: Registry,
    seed: int,
    session: Session | None = None,
    diagnoser: Diagnoser | None = None,
) -> list[ClaimResult]:
    return [run_claim(c, impl, registry, seed, session, diagnoser) for c in claims]


def run_claim(
    loaded: LoadedClaim,
    impl: Implementation,
    registry: Registry,
    seed: int,
    session: Session | None = None,
    diagnoser: Diagnoser | None = None,
) -> ClaimResult:
    if session is not None:
        session.begin_claim()
    log = CallLog() if diagnoser is not None else None
    result = _run(loaded, impl, registry, seed, log, session)
    if session is not None:
        capture = session.end_claim()
        if capture.output or capture.dropped:
            result.output = capture.output
            result.output_dropped = capture.dropped
    if diagnoser is not None and log is not None and _diagnosable(result):
        result.diagnosis = _diagnosed(diagnoser, loaded, log, impl, session)
    return result


def _diagnosed(
    diagnoser: Diagnoser,
    loaded: LoadedClaim,
    log: CallLog,
    impl: Implementation,
    session: Session | None,
) -> list[Diagnosis]:
    """The claim's diagnoses, made under the judge's cap for a learner: the calls replayed
    are the learner's own (a probability vector of 540,000 entries its softmax returned, fed
    to a quadratic twin, kept a judge busy for hours), so past the cap none is made."""
    if session is None:
        return diagnoser(loaded, log, impl)
    from runner.learner.cost import Overrun

    try:
        with session.diagnosing():
            return diagnoser(loaded, log, impl)
    except Overrun:
        return diagnoser.unfinished(loaded)


def _diagnosable(result: ClaimResult) -> bool:
    """A claim the learner's functions failed: out of tolerance, or one of them raised (a
    raised exception is an outcome a known mistake can reproduce, e.g. an OverflowError)."""
    if result.status == "failed":
        return True
    reason = result.reason
    return result.status == "error" and reason is not None and reason.code == "claim.learner_raised"


def _reference_outcome(spec: Any, claim: Any, registry: Registry, seed: int) -> Any:
    """What the check measures on the reference (or the course's bug it raises there): it
    depends on nothing that is judged, so it is computed once per process for the same
    claim, inputs and seed, and kept on the registry (every failing learner of a class
    would otherwise run the reference through the claim again; a BPE claim's run is a tenth
    of a second). What is kept is only read."""
    from runner.pack.find import own_frame

    try:
        key = f"{claim.id}|{claim.check}|{seed}|{json.dumps(claim.inputs, sort_keys=True)}"
    except (TypeError, ValueError):  # inputs that are not JSON: computed each time
        key = None
    if key is not None and key in registry.reference_outcomes:
        return registry.reference_outcomes[key]
    rng = claim_rng(seed, claim.id) if "rng" in spec.signature.parameters else None
    reference = registry.reference().restricted(spec.needs_of(claim.inputs))
    outcome: Any
    try:
        # under our checks' limits: a check that hangs on the reference's values would
        # otherwise hang every failing learner (a review of the limits)
        with _our_checks_limits(), np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outcome = spec.call(reference, claim.inputs, rng=rng, registry=registry)
    except CheckOverrun as exc:  # not kept: a limit is no property of the claim's inputs
        return _overrun(exc, spec.name)
    except Exception as exc:
        outcome = Detail.of(
            "claim.course_bug",
            error=type(exc).__name__,
            message=last_line(exc),
            where=own_frame(exc),
        )
    if key is not None:
        registry.reference_outcomes[key] = outcome
    return outcome


def _fails_on_reference(
    spec: Any, claim: Any, registry: Registry, seed: int, failing: Iterable[str] = ()
) -> Detail | None:
    """When a check raised on a learner's values, or the ``failing`` measures failed:
    whether the check raises on the course's own reference too, or those measures fail
    there too (then it is a bug of the course, said as such, with the pack's line), or
    None. Our code only, in this process; only on a failure's path."""
    outcome = _reference_outcome(spec, claim, registry, seed)
    if isinstance(outcome, Detail):
        return outcome.model_copy(deep=True)  # each result its own
    measured = outcome
    failing = list(failing)
    if not failing or not isinstance(measured, dict):
        return None
    by_measure = {exp.measure: exp for exp in claim.expect}
    for name in failing:
        if name not in measured or judge(by_measure[name], to_plain(measured[name]))[0] == "passed":
            return None  # the reference meets it: the learner's code does not
    name = failing[0]
    return Detail.of("claim.course_bug_value", measure=name, actual=show(to_plain(measured[name])))


# the judge's limits on a check of our own code (the reference, a fault's twin): its default
# CPU and wall-clock time per claim (a learner's check has its session's, see
# Session.judging); a pack's check that loops or sleeps ends as that claim's error instead
# of holding the run
OWN_CHECK_LIMITS = WorkerLimits()


def _our_checks_limits() -> contextlib.AbstractContextManager[None]:
    return check_limits(OWN_CHECK_LIMITS.check_cpu_s, OWN_CHECK_LIMITS.check_wall_s)


def _overrun(exc: CheckOverrun, check: str) -> Detail:
    """A check that ran past its limit: the course's check, said as such."""
    code = "claim.check_cpu_limit" if exc.what == "cpu" else "claim.check_wall_limit"
    return Detail.of(code, check=check, seconds=f"{exc.seconds:g}")


def _run(
    loaded: LoadedClaim,
    impl: Implementation,
    registry: Registry,
    seed: int,
    log: CallLog | None,
    session: Session | None = None,
) -> ClaimResult:
    claim = loaded.claim
    spec = registry.resolve_check(claim.check)
    base: dict[str, Any] = {
        "id": claim.id,
        "proposition": loaded.proposition,
        "stage": loaded.stage,
        "statement": claim.statement,
        "check": claim.check,
        "notes": claim.notes,
        "points": claim.points,
        "visibility": claim.visibility,
        "kind": claim.kind,
    }
    needs = spec.needs_of(claim.inputs)
    missing = impl.missing(needs)
    if missing:
        reason = Detail.of("claim.not_implemented", functions=[f"{m}()" for m in missing])
        return ClaimResult(**base, status="skipped", duration_ms=0.0, reason=reason)
    rng = claim_rng(seed, claim.id) if "rng" in spec.signature.parameters else None
    view = impl.restricted(needs)
    if log is not None:
        view = view.recording(log)
    start = time.perf_counter()
    try:
        # Broken implementations divide by zero on purpose; their NaNs are the finding,
        # so NumPy's warnings would only be noise on the terminal.
        capped = session.judging() if session is not None else _our_checks_limits()
        with capped, np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            measured = spec.call(view, claim.inputs, rng=rng, registry=registry)
    except MissingSubject as exc:
        reason = Detail.of("claim.not_implemented", functions=[f"{exc.name}()"])
        return ClaimResult(**base, status="skipped", duration_ms=_ms(start), reason=reason)
    except ForeignNotImplemented as exc:
        where = _where(impl, exc.line)
        reason = (
            Detail.of("claim.not_written", function=exc.function, where=where)
            if exc.called is None
            else Detail.of(
                "claim.not_written_called", function=exc.function, called=exc.called, where=where
            )
        )
        return ClaimResult(**base, status="skipped", duration_ms=_ms(start), reason=reason)
    except NotImplementedError:
        reason = Detail.of("claim.not_implemented", functions=[])
        return ClaimResult(**base, status="skipped", duration_ms=_ms(start), reason=reason)
    except ForeignError as exc:
        reason = Detail.of(
            "claim.learner_raised",
            function=exc.function,
            where=_where(impl, exc.line),
            error=exc.error,
            message=exc.message,
        )
        return ClaimResult(**base, status="error", duration_ms=_ms(start), reason=reason)
    except BoundaryError as exc:
        reason = Detail(code=exc.code, params=dict(exc.params))
        return ClaimResult(**base, status="error", duration_ms=_ms(start), reason=reason)
    except CheckOverrun as exc:
        reason = _overrun(exc, spec.name)
        return ClaimResult(**base, status="error", duration_ms=_ms(start), reason=reason)
    except Exception as exc:
        message: str | Msg
        error, message = type(exc).__name__, last_line(exc)
        said = said_by_engine(exc)  # the engine's words for a pack's mistake
        if said is not None:
            error, message = said
        last = session.last_returned if session is not None else None
        course = _fails_on_reference(spec, claim, registry, seed) if session is not None else None
        if course is not None:  # the check's own bug: the course's, not the learner's
            reason = course
        elif last is not None:  # the check could not use a value the learner's code returned
            reason = Detail.of("claim.check_choked", function=last, error=error, message=message)
        else:  # the check's own exception, said at the pack's line where it has one
            from runner.pack.find import own_frame

            where = own_frame(exc)
            fields = {"error": error, "message": message}
            reason = (
                Detail.of("claim.raised_at", **fields, where=where)
                if where
                else Detail.of("claim.raised", **fields)
            )
        return ClaimResult(**base, status="error", duration_ms=_ms(start), reason=reason)
    duration = _ms(start)

    if not isinstance(measured, dict):
        reason = Detail.of("claim.not_measurements", check=spec.name)
        return ClaimResult(**base, status="error", duration_ms=duration, reason=reason)
    if needs and not view.reached:  # it would pass for a learner who wrote nothing
        reason = Detail.of(
            "claim.calls_nothing", check=spec.name, functions=", ".join(f"{n}()" for n in needs)
        )
        return ClaimResult(**base, status="error", duration_ms=duration, reason=reason)
    unknown = sorted(set(measured) - set(spec.measures))
    if unknown:
        import difflib  # only for a check that returned a name it did not declare

        from runner.pack.find import defined_at

        close = difflib.get_close_matches(unknown[0], list(spec.measures), n=1, cutoff=0.6)
        reason = Detail.of(
            "claim.undeclared",
            check=spec.name,
            measures=unknown,
            where=defined_at(spec.fn),
            declared=", ".join(spec.measures),
            closest=close[0] if close else "-",
        )
        return ClaimResult(**base, status="error", duration_ms=duration, reason=reason)
    plain = {name: to_plain(value) for name, value in measured.items()}
    for name, value in plain.items():
        alien = not_data(value)
        if alien is not None:  # evidence could not record it (a complex, an object)
            reason = Detail.of("claim.not_data", check=spec.name, measure=name, type=alien)
            return ClaimResult(**base, status="error", duration_ms=duration, reason=reason)
    results = []
    for exp in claim.expect:
        if exp.measure not in measured:
            reason = Detail.of("claim.no_measure", check=spec.name, measure=exp.measure)
            return ClaimResult(**base, status="error", duration_ms=duration, reason=reason)
        actual = plain[exp.measure]
        verdict, detail = judge(exp, actual)
        results.append(
            MeasurementResult(
                name=exp.measure,
                metric=metric_name(claim.id, exp.measure, exp.metric),
                expected=shown_expected(exp),
                actual=recorded(actual),
                tolerance=exp.tolerance.model_dump(exclude_none=True),
                verdict=verdict,
                detail=detail,
                unit=exp.unit,
                source=exp.source,
                context=exp.measure in spec.context,
            )
        )
    judged = {exp.measure for exp in claim.expect}
    observations = {k: recorded(v) for k, v in plain.items() if k not in judged}
    status = "passed" if all(r.verdict == "passed" for r in results) else "failed"
    ours: Detail | None = None
    if status == "failed" and session is not None:
        # a learner's failure the course's reference fails as well (a check measuring NaN,
        # an expectation no implementation meets) is the course's bug, blamed on nobody
        failing = [r.name for r in results if r.verdict != "passed"]
        ours = _fails_on_reference(spec, claim, registry, seed, failing)
        if ours is not None:
            status = "error"
    return ClaimResult(
        **base,
        status=status,
        duration_ms=duration,
        measurements=results,
        observations=observations,
        reason=ours,
    )


# what a measure may hold once plain (see runner.judge.to_plain): JSON's values, an error
# the implementation raised, and the bilingual text of a label
_DATA_LEAVES = (str, int, float, type(None), Raised, Msg)


def not_data(value: Any) -> str | None:
    """The type of the first part of a plain measured value that is not data evidence can
    record (a complex number, an object, a set), or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif not isinstance(item, _DATA_LEAVES):
            return type(item).__name__
    return None


def recorded(value: Any) -> Any:
    """``value`` as recorded in results and evidence: itself, or its size when too large."""
    count = _count(value, MAX_RECORDED_VALUES + 1)
    if count > MAX_RECORDED_VALUES:
        return {"omitted": "too large to record", "values": _count(value, 10**12)}
    return value


def _count(value: Any, stop: int) -> int:
    n = 0
    stack = [value]
    while stack and n < stop:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        else:
            n += 1
    return n


def _where(impl: Implementation, line: int | None) -> str:
    """``my_impl.py:12``: the learner's file and the deepest line of it involved."""
    name = impl.name
    return f"{name}:{line}" if line else name


def shown_expected(exp: Expectation) -> Any:
    """What the evidence shows as 'expected': the value, or the range / error for others."""
    tol = exp.tolerance
    if isinstance(tol, Raises):
        return tol.error
    if isinstance(tol, Range):
        return {"min": tol.min, "max": tol.max}
    return exp.value


def last_line(exc: BaseException) -> str:
    try:
        lines = str(exc).strip().splitlines()
    except Exception:  # an exception whose __str__ raises says nothing more
        return ""
    return lines[-1][:500] if lines else ""


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def select(
    claims: Iterable[LoadedClaim], pattern: str | None, registry: Registry | None = None
) -> list[LoadedClaim]:
    """Claims whose id matches ``pattern`` (a glob if it has wildcards, else a substring), or,
    given the pack's ``registry``, that call a function whose name matches it: ``-k
    my_function`` finds every claim that judges ``my_function()`` (claim ids use hyphens,
    function names underscores, so the two never stand for each other). ``a or b`` (or -k
    given twice) chooses the claims either matches."""
    chosen = list(claims)
    if not pattern:
        return chosen
    needles = [n.strip() for n in pattern.lower().split(" or ") if n.strip()]

    def one(needle: str, name: str) -> bool:
        if any(ch in needle for ch in "*?["):
            return fnmatch.fnmatchcase(name, needle)
        return needle in name

    def matches(name: str) -> bool:
        return any(one(needle, name.lower()) for needle in needles)

    return [
        c
        for c in chosen
        if matches(c.claim.id) or any(matches(f) for f in functions_of(c, registry))
    ]


def functions_of(loaded: LoadedClaim, registry: Registry | None) -> tuple[str, ...]:
    """The chapter's functions ``loaded``'s check calls (none known without a registry, or
    for a check the registry does not have: validation reports that one)."""
    if registry is None:
        return ()
    spec = registry.find_check(loaded.claim.check)
    return spec.needs_of(loaded.claim.inputs) if spec is not None else ()
