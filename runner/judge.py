"""Judge: one measured value against one expectation. Pure functions, no I/O.

NaN and infinities never pass: not an exact match, not within any tolerance, not inside any
range. A shape that differs from the expected one is a failure, not a broadcast.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from checks.outcome import Raised
from runner.i18n import CATALOG, Lang
from runner.models import Close, Exact, Expectation, Raises, Range, Verdict
from runner.numbers import show


def _say(lang: Lang, key: str, **values: object) -> str:
    # The evidence records details in English whatever the command's language ("en" is the
    # default everywhere below); a person reading a failure gets it in theirs.
    return CATALOG[key][0 if lang == "zh" else 1].format(**values)


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
    return value


def judge(exp: Expectation, actual: Any, lang: Lang = "en") -> tuple[Verdict, str | None]:
    """(verdict, detail); the detail says why a failure failed, in numbers, in ``lang``."""
    actual = to_plain(actual)
    tol = exp.tolerance
    if isinstance(tol, Raises):
        if isinstance(actual, Raised) and tol.error in actual.names:
            return "passed", None
        got = (
            str(actual)
            if isinstance(actual, Raised)
            else _say(lang, "judge.returned", value=show(actual, exp.unit))
        )
        return "failed", _say(lang, "judge.raises", error=tol.error, got=got)
    if isinstance(actual, Raised):
        return "failed", str(actual)
    if isinstance(tol, Exact):
        return _elementwise(exp.value, actual, _equal, lang)
    if isinstance(tol, Close):
        return _close(exp.value, actual, tol, lang)
    return _elementwise(None, actual, lambda _e, a: _in_range(a, tol), lang)


def _shape_mismatch(expected: Any, actual: Any, lang: Lang) -> str | None:
    if isinstance(expected, list) != isinstance(actual, list):
        return _say(lang, "judge.list" if isinstance(expected, list) else "judge.single")
    if isinstance(expected, list):
        if len(expected) != len(actual):
            return _say(lang, "judge.length", n=len(expected), got=len(actual))
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            inner = _shape_mismatch(e, a, lang)
            if inner:
                return _say(lang, "judge.at_index", i=i, inner=inner)
    return None


def _finite(a: int | float) -> bool:
    """A Python int is always finite (math.isfinite overflows above 1.8e308)."""
    return isinstance(a, int) or math.isfinite(a)


def _elementwise(expected: Any, actual: Any, ok: Any, lang: Lang) -> tuple[Verdict, str | None]:
    """Apply ``ok(e, a)`` to every element; ``expected`` None means a range (no shape)."""
    if expected is not None:
        mismatch = _shape_mismatch(expected, actual, lang)
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
    return "failed", _say(lang, "judge.outside", bad=len(bad), n=len(pairs), first=bad[0])


def _flat(v: Any) -> list[Any]:
    return [x for item in v for x in _flat(item)] if isinstance(v, list) else [v]


def _equal(e: Any, a: Any) -> bool:
    if isinstance(e, bool) or isinstance(a, bool):
        return type(e) is type(a) and e == a
    if isinstance(e, int | float) and isinstance(a, int | float):
        return _finite(a) and e == a
    return bool(e == a)


def _in_range(a: Any, tol: Range) -> bool:
    if isinstance(a, bool) or not isinstance(a, int | float) or not _finite(a):
        return False
    return (tol.min is None or a >= tol.min) and (tol.max is None or a <= tol.max)


def allowed(expected: float, tol: Close, index: int | None = None) -> float:
    """The absolute deviation allowed around ``expected``: max(abs, rel * |expected|)."""

    def pick(bound: float | list[float] | None) -> float:
        if bound is None:
            return 0.0
        return bound[index or 0] if isinstance(bound, list) else bound

    return max(pick(tol.abs), pick(tol.rel) * abs(expected))


def _close(expected: Any, actual: Any, tol: Close, lang: Lang) -> tuple[Verdict, str | None]:
    mismatch = _shape_mismatch(expected, actual, lang)
    if mismatch:
        return "failed", mismatch
    e_flat, a_flat = _flat(expected), _flat(actual)
    per_row = isinstance(tol.abs, list) or isinstance(tol.rel, list)
    bad = []
    for i, (e, a) in enumerate(zip(e_flat, a_flat, strict=True)):
        finite = not isinstance(a, bool) and isinstance(a, int | float) and _finite(a)
        try:
            deviation = abs(a - e) if finite else math.inf
        except OverflowError:  # an int too large to meet a float
            deviation = math.inf
        if deviation > allowed(e, tol, i if per_row else None):
            bad.append(i)
    if not bad:
        return "passed", None
    if len(e_flat) == 1:
        return "failed", None
    i = bad[0]
    return "failed", _say(
        lang,
        "judge.outside_at",
        bad=len(bad),
        n=len(e_flat),
        first=i,
        expected=show(e_flat[i]),
        got=show(a_flat[i]),
    )
