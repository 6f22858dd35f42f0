"""Judge: one measured value against one expectation. Pure functions, no I/O, no words.

NaN and infinities never pass: not an exact match, not within any tolerance, not inside any
range. A shape that differs from the expected one is a failure, not a broadcast. The reason
for a failure is a :class:`~runner.models.Detail` (a message code and numbers), shown by a
reporter in its reader's language.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from runner import compare
from runner.compare import Difference, Policy, Raised, Step, differences
from runner.compare import leaves as _flat
from runner.kinds import NUMBERS, SEQUENCES, python_scalar
from runner.models import Close, Detail, Exact, Expectation, Raises, Range, Verdict

# tuples built once, not unions built at every isinstance() (see runner.kinds)
_EXACT_OR_CLOSE = (Exact, Close)

Judgement = tuple[Verdict, Detail | None]


def to_plain(value: Any) -> Any:
    """A measured value as plain Python (lists, floats, ints, bools, str, or Raised)."""
    if isinstance(value, Raised):
        return value
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f" and value.dtype.itemsize > 8:  # a long double's tolist()
            # holds long doubles: made float64 as python_scalar makes one
            with np.errstate(over="ignore", invalid="ignore"):
                value = value.astype(np.float64)
        return value.tolist()
    if isinstance(value, np.generic):
        # a long double as the float64 nearest it: JSON has no wider number, and a judged
        # value is the value recorded
        return python_scalar(value)
    if isinstance(value, SEQUENCES):
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
    if isinstance(tol, _EXACT_OR_CLOSE):
        return _compared(exp.value, actual, tol, unit)
    bad = [i for i, a in enumerate(_flat(actual)) if not _in_range(a, tol)]
    if not bad:
        return "passed", None
    n = len(_flat(actual))
    if n == 1:
        return "failed", None
    return "failed", Detail.of("judge.outside", bad=len(bad), n=n, first=bad[0])


# A claim's expected value is plain data (numbers, booleans, strings, nested lists of them):
# an int and a float are numbers alike, a bool is not one, NaN and infinities meet nothing,
# and a dict is not a value a claim expects.
CLAIM_EXACT = Policy(compare.Exact(), numbers="values", nonfinite="never", keys="none")


def claim_policy(tol: Exact | Close) -> Policy:
    """A claim's tolerance as the comparison engine's policy."""
    if isinstance(tol, Exact):
        return CLAIM_EXACT
    if isinstance(tol.abs, list) or isinstance(tol.rel, list):  # per element: not a key
        return _close_policy.__wrapped__(tol.abs, tol.rel)
    return _close_policy(tol.abs, tol.rel)


@functools.lru_cache(maxsize=1024)
def _close_policy(abs_: Any, rel: Any) -> Policy:
    # made once per tolerance, not once per value judged: a pack has a few dozen
    return Policy(compare.Close(abs=abs_, rel=rel), numbers="values", keys="none")


def _compared(expected: Any, actual: Any, tol: Exact | Close, unit: Any) -> Judgement:
    """The measured value against the expected one, element by element; a difference of
    shape (a list for a number, a length) first, wherever it is."""
    found = differences(expected, actual, claim_policy(tol))
    for d in found:
        mismatch = _shape_mismatch(d)
        if mismatch:
            return "failed", mismatch
    if not found:
        return "passed", None
    n = len(_flat(expected))
    if n == 1:
        return "failed", None
    first = found[0]
    i = _flat_index(expected, first.path)
    if isinstance(tol, Exact):
        return "failed", Detail.of("judge.outside", bad=len(found), n=n, first=i)
    return "failed", Detail.of(
        "judge.outside_at",
        bad=len(found),
        n=n,
        first=i,
        expected=first.expected,
        got=_brief(first.actual),
        unit=unit,
    )


def _brief(value: Any) -> Any:
    """A value small enough to keep in a message (a long list by its length only)."""
    if isinstance(value, list) and len(_flat(value)) > 8:
        return f"[{len(value)} items]"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 60:
        return f"an integer of {len(str(abs(value))) if value.bit_length() < 13000 else 'over 4,000'} digits"
    if isinstance(value, dict):
        return "{…}"
    return value


def _shape_mismatch(d: Difference) -> Detail | None:
    """A list where a number was expected (or the reverse), or a list of another length."""
    at = "".join(f"[{i}]" for _, i in d.path)
    suffix = "_at" if at else ""  # where in a nested value, when not at the top
    if isinstance(d.expected, list) != isinstance(d.actual, list):
        code = "judge.list" if isinstance(d.expected, list) else "judge.single"
        return Detail.of(code + suffix, at=at)
    if d.kind == "length":
        return Detail.of("judge.length" + suffix, n=len(d.expected), got=len(d.actual), at=at)
    if d.kind == "type":  # "38400" for 38400 showed as the same number, with no word of why
        number = isinstance(d.expected, int | float) and not isinstance(d.expected, bool)
        if number and isinstance(d.actual, str):
            return Detail.of("judge.text_for_number" + suffix, got=d.actual[:80], at=at)
        if number and isinstance(d.actual, bool):
            return Detail.of("judge.bool_for_number" + suffix, got=d.actual, at=at)
        if isinstance(d.expected, str) and not isinstance(d.actual, str):
            return Detail.of("judge.not_text" + suffix, at=at)
    return None


def _flat_index(value: Any, path: tuple[Step, ...]) -> int:
    """The position, among the leaves of nested lists, of the leaf at ``path``."""
    i = 0
    for _, k in path:
        i += len(_flat(value[:k]))
        value = value[k]
    return i


def _number(a: Any) -> bool:
    return isinstance(a, NUMBERS) and not isinstance(a, bool)


def _finite(a: Any) -> bool:
    """A number that is finite and can meet a float (huge Python ints cannot)."""
    if isinstance(a, int):
        return a.bit_length() <= 1023
    return math.isfinite(a)


def _in_range(a: Any, tol: Range) -> bool:
    if not _number(a) or not _finite(a):
        return False
    return (tol.min is None or a >= tol.min) and (tol.max is None or a <= tol.max)


def allowed(expected: float, tol: Close, index: int | None = None) -> float:
    """The absolute deviation allowed around ``expected``: max(abs, rel * |expected|)."""
    return compare.Close(abs=tol.abs, rel=tol.rel).bound(expected, 0.0, _FLOAT64, index)


_FLOAT64 = np.dtype(np.float64)
