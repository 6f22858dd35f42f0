"""Judge: one measured value against one expectation. Pure functions, no I/O, no words.

NaN and infinities never pass: not an exact match, not within any tolerance, not inside any
range. A shape that differs from the expected one is a failure, not a broadcast. The reason
for a failure is a :class:`~runner.models.Detail` (a message code and numbers), shown by a
reporter in its reader's language.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from runner.models import Close, Detail, Exact, Expectation, Raises, Range, Verdict
from runner.models.claims import leaves as _flat
from runner.pack.outcome import Raised

Judgement = tuple[Verdict, Detail | None]


def to_plain(value: Any) -> Any:
    """A measured value as plain Python (lists, floats, ints, bools, str, or Raised)."""
    if isinstance(value, Raised):
        return value
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, list | tuple):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    return value


def judge(exp: Expectation, actual: Any) -> Judgement:
    """(verdict, why it failed). Never raises: a value no rule foresaw fails, saying so."""
    try:
        return _judge(exp, to_plain(actual))
    except (ArithmeticError, TypeError, ValueError, RecursionError) as exc:
        return "failed", Detail.of("judge.unjudgeable", error=type(exc).__name__)


def _judge(exp: Expectation, actual: Any) -> Judgement:
    tol = exp.tolerance
    unit = exp.unit
    if isinstance(tol, Raises):
        if isinstance(actual, Raised) and tol.error in actual.names:
            return "passed", None
        if isinstance(actual, Raised):
            return "failed", Detail.of(
                "judge.raises_other", error=tol.error, raised=actual.error, message=actual.message
            )
        return "failed", Detail.of(
            "judge.raises_returned", error=tol.error, value=_brief(actual), unit=unit
        )
    if isinstance(actual, Raised):
        return "failed", Detail.of("judge.raised", raised=actual.error, message=actual.message)
    if isinstance(tol, Exact):
        return _elementwise(exp.value, actual, _equal, unit)
    if isinstance(tol, Close):
        return _close(exp.value, actual, tol, unit)
    return _elementwise(None, actual, lambda _e, a: _in_range(a, tol), unit)


def _brief(value: Any) -> Any:
    """A value small enough to keep in a message (a long list by its length only)."""
    if isinstance(value, list) and len(_flat(value)) > 8:
        return f"[{len(value)} items]"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 60:
        return f"an integer of {len(str(abs(value))) if value.bit_length() < 13000 else 'over 4,000'} digits"
    if isinstance(value, dict):
        return "{…}"
    return value


def _shape_mismatch(expected: Any, actual: Any, at: str = "") -> Detail | None:
    suffix = "_at" if at else ""  # where in a nested value, when not at the top
    if isinstance(expected, list) != isinstance(actual, list):
        code = "judge.list" if isinstance(expected, list) else "judge.single"
        return Detail.of(code + suffix, at=at)
    if isinstance(expected, list):
        if len(expected) != len(actual):
            return Detail.of("judge.length" + suffix, n=len(expected), got=len(actual), at=at)
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            inner = _shape_mismatch(e, a, f"{at}[{i}]")
            if inner:
                return inner
    return None


def _number(a: Any) -> bool:
    return isinstance(a, int | float) and not isinstance(a, bool)


def _finite(a: Any) -> bool:
    """A number that is finite and can meet a float (huge Python ints cannot)."""
    if isinstance(a, int):
        return a.bit_length() <= 1023
    return math.isfinite(a)


def _elementwise(expected: Any, actual: Any, ok: Any, unit: Any) -> Judgement:
    """Apply ``ok(e, a)`` to every element; ``expected`` None means a range (no shape)."""
    if expected is not None:
        mismatch = _shape_mismatch(expected, actual)
        if mismatch:
            return "failed", mismatch
        pairs = list(zip(_flat(expected), _flat(actual), strict=True))
    else:
        pairs = [(None, a) for a in _flat(actual)]
    bad = [i for i, (e, a) in enumerate(pairs) if not ok(e, a)]
    if not bad:
        return "passed", None
    if len(pairs) == 1:
        return "failed", None
    return "failed", Detail.of("judge.outside", bad=len(bad), n=len(pairs), first=bad[0])


def _equal(e: Any, a: Any) -> bool:
    if isinstance(e, bool) or isinstance(a, bool):
        return type(e) is type(a) and e == a
    if _number(e) and _number(a):
        return _finite(a) and _finite(e) and e == a
    if isinstance(e, str) or isinstance(a, str):
        return type(e) is type(a) and e == a
    return e is None and a is None


def _in_range(a: Any, tol: Range) -> bool:
    if not _number(a) or not _finite(a):
        return False
    return (tol.min is None or a >= tol.min) and (tol.max is None or a <= tol.max)


def allowed(expected: float, tol: Close, index: int | None = None) -> float:
    """The absolute deviation allowed around ``expected``: max(abs, rel * |expected|)."""

    def pick(bound: float | list[float] | None) -> float:
        if bound is None:
            return 0.0
        return bound[index or 0] if isinstance(bound, list) else bound

    return max(pick(tol.abs), pick(tol.rel) * abs(expected))


def _close(expected: Any, actual: Any, tol: Close, unit: Any) -> Judgement:
    mismatch = _shape_mismatch(expected, actual)
    if mismatch:
        return "failed", mismatch
    e_flat, a_flat = _flat(expected), _flat(actual)
    per_row = isinstance(tol.abs, list) or isinstance(tol.rel, list)
    bad = []
    for i, (e, a) in enumerate(zip(e_flat, a_flat, strict=True)):
        deviation = abs(float(a) - float(e)) if _number(a) and _finite(a) else math.inf
        if not deviation <= allowed(e, tol, i if per_row else None):
            bad.append(i)
    if not bad:
        return "passed", None
    if len(e_flat) == 1:
        return "failed", None
    i = bad[0]
    return "failed", Detail.of(
        "judge.outside_at",
        bad=len(bad),
        n=len(e_flat),
        first=i,
        expected=e_flat[i],
        got=_brief(a_flat[i]),
        unit=unit,
    )
