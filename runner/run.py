"""Run: each claim's check against one implementation, judged, timed, never propagating.

A check that raises makes its claim ``error`` with the exception's last line; a function the
implementation lacks makes it ``skipped``; the other claims run regardless.
"""

from __future__ import annotations

import fnmatch
import time
import warnings
import zlib
from collections.abc import Iterable
from typing import Any

import numpy as np

from checks.registry import Implementation, MissingSubject, Registry
from runner.judge import judge, to_plain
from runner.learner import learner_error
from runner.load import LoadedClaim
from runner.models import ClaimResult, Expectation, MeasurementResult, Raises, Range
from runner.validate import metric_name


def claim_rng(seed: int, claim_id: str) -> np.random.Generator:
    """A generator of its own per claim, so selecting claims with -k changes no number."""
    return np.random.default_rng([seed, zlib.crc32(claim_id.encode())])


def run_claims(
    claims: Iterable[LoadedClaim], impl: Implementation, registry: Registry, seed: int
) -> list[ClaimResult]:
    return [run_claim(c, impl, registry, seed) for c in claims]


def run_claim(
    loaded: LoadedClaim, impl: Implementation, registry: Registry, seed: int
) -> ClaimResult:
    claim = loaded.claim
    spec = registry.resolve_check(claim.check)
    base = {
        "id": claim.id,
        "proposition": loaded.proposition,
        "stage": loaded.stage,
        "statement": claim.statement,
        "check": claim.check,
        "notes": claim.notes,
    }
    missing = impl.missing(spec.needs)
    if missing:
        return ClaimResult(
            **base,
            status="skipped",
            duration_ms=0.0,
            error=f"not implemented: {', '.join(m + '()' for m in missing)}",
        )
    kwargs = dict(claim.inputs)
    if "rng" in spec.signature.parameters:
        kwargs["rng"] = claim_rng(seed, claim.id)
    start = time.perf_counter()
    try:
        # Broken implementations divide by zero on purpose; their NaNs are the finding,
        # so NumPy's warnings would only be noise on the terminal.
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            measured = spec.fn(impl.restricted(spec.needs), **kwargs)
    except MissingSubject as exc:
        return ClaimResult(**base, status="skipped", duration_ms=_ms(start), error=str(exc))
    except NotImplementedError as exc:
        where = f" ({learner_error(exc, impl.source)})" if impl.source else ""
        return ClaimResult(
            **base, status="skipped", duration_ms=_ms(start), error=f"not implemented{where}"
        )
    except Exception as exc:
        message = learner_error(exc, impl.source) if impl.source else last_line(exc)
        return ClaimResult(**base, status="error", duration_ms=_ms(start), error=message)
    duration = _ms(start)

    unknown = sorted(set(measured) - set(spec.measures))
    if unknown:
        return ClaimResult(
            **base,
            status="error",
            duration_ms=duration,
            error=f"check {spec.name} returned undeclared measurements {unknown}",
        )
    results = []
    for exp in claim.expect:
        if exp.measure not in measured:
            return ClaimResult(
                **base,
                status="error",
                duration_ms=duration,
                error=f"check {spec.name} returned no {exp.measure!r}",
            )
        actual = to_plain(measured[exp.measure])
        try:
            verdict, detail = judge(exp, actual)
        except Exception as exc:  # a value no rule foresaw: fail it, say what it was
            verdict, detail = "failed", f"could not be judged: {last_line(exc)}"
        results.append(
            MeasurementResult(
                name=exp.measure,
                metric=metric_name(claim.id, exp.measure, exp.metric),
                expected=shown_expected(exp),
                actual=actual,
                tolerance=exp.tolerance.model_dump(exclude_none=True),
                verdict=verdict,
                detail=detail,
                unit=exp.unit,
                source=exp.source,
            )
        )
    judged = {exp.measure for exp in claim.expect}
    observations = {k: to_plain(v) for k, v in measured.items() if k not in judged}
    status = "passed" if all(r.verdict == "passed" for r in results) else "failed"
    return ClaimResult(
        **base,
        status=status,
        duration_ms=duration,
        measurements=results,
        observations=observations,
    )


def shown_expected(exp: Expectation) -> Any:
    """What the evidence shows as 'expected': the value, or the range / error for others."""
    tol = exp.tolerance
    if isinstance(tol, Raises):
        return tol.error
    if isinstance(tol, Range):
        return {"min": tol.min, "max": tol.max}
    return exp.value


def last_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[-1]}" if lines else type(exc).__name__


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def select(claims: Iterable[LoadedClaim], pattern: str | None) -> list[LoadedClaim]:
    """Claims whose id matches ``pattern``: a glob if it has wildcards, else a substring."""
    chosen = list(claims)
    if not pattern:
        return chosen
    needle = pattern.lower()
    if any(ch in needle for ch in "*?["):
        return [c for c in chosen if fnmatch.fnmatchcase(c.claim.id.lower(), needle)]
    return [c for c in chosen if needle in c.claim.id.lower()]
