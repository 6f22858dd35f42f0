"""Numbers shown the way the chapter shows them.

Counts get thousands separators (123,532,032), memory is in MiB with one decimal
(191.7 MiB), astronomic counts are their log10 with two decimals (4701.20), ratios get
three decimals and a times sign (2.552×).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from runner.kinds import NUMBERS, SEQUENCES
from runner.models import Expectation, Unit
from runner.pack.outcome import Raised
from runner.text import printable_line

MAX_SHOWN = 12


def show(x: Any, unit: Unit | None = None) -> str:
    if isinstance(x, Raised):
        return str(x)
    if isinstance(x, bool) or x is None:
        return str(x).lower()
    if isinstance(x, str):
        return x if len(x) <= 200 else x[:197] + "..."
    if isinstance(x, SEQUENCES):
        if len(x) > MAX_SHOWN:  # a person reads a few values; the evidence keeps them all
            head = ", ".join(show(v, unit) for v in x[:8])
            return f"[{head}, … {len(x):,} values]"
        return "[" + ", ".join(show(v, unit) for v in x) + "]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {show(v, unit)}" for k, v in list(x.items())[:8]) + "}"
    if not isinstance(x, NUMBERS):
        return type(x).__name__
    if isinstance(x, float) and not math.isfinite(x):
        return "NaN" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, int) and abs(x) >= 10**16:  # astronomic, e.g. V^T computed exactly
        return f"{'-' if x < 0 else ''}10^{math.log10(abs(x)):.2f}"
    if unit in ("count", "bytes") and float(x).is_integer():
        return f"{int(x):,}"
    if unit in ("log10", "orders"):
        return f"{x:.2f}"
    if unit == "MiB":
        return f"{x:.1f} MiB"
    if unit == "ratio":
        return f"{x:.3f}×"
    if isinstance(x, int):
        return f"{x:,}" if abs(x) >= 10_000 else str(x)
    return f"{x:.6g}"


def apart(
    value: Any, tolerance: Mapping[str, Any], actual: Any, unit: Unit | None = None
) -> tuple[Any, Mapping[str, Any], Any]:
    """A failed figure that reads as the value or a bound it is held to (2.19722 against
    2.19722 ± 1e-09) with every digit of its float64, and so the value and bounds: the
    numbers as strings, which :func:`show` prints as they are. Otherwise as given."""
    held = [value, tolerance.get("min"), tolerance.get("max")]
    if not _figures(actual) or not any(
        _figures(x) and x != actual and show(x, unit) == show(actual, unit) for x in held
    ):
        return value, tolerance, actual
    bounds = {k: _digits(v, unit) if k in ("min", "max") else v for k, v in tolerance.items()}
    return _digits(value, unit), bounds, _digits(actual, unit)


def pair_apart(params: Mapping[str, Any]) -> Mapping[str, Any]:
    """A message's ``expected`` and ``got`` (a first element outside its tolerance) with
    every digit where two different numbers (or lists of them) would read alike."""
    expected, got, unit = params.get("expected"), params.get("got"), params.get("unit")
    alike = _figures(expected) and _figures(got) and show(expected, unit) == show(got, unit)
    if not alike or expected == got:
        return params
    return {**params, "expected": _digits(expected, unit), "got": _digits(got, unit)}


def _plain(x: Any) -> bool:
    return isinstance(x, float | int) and not isinstance(x, bool)


def _figures(x: Any) -> bool:
    """A number, or a (nested) list holding only numbers."""
    if isinstance(x, SEQUENCES):
        return all(_figures(v) for v in x)
    return _plain(x)


def _digits(x: Any, unit: Unit | None = None) -> Any:
    """``x`` with every digit of its float64 (an integer's own), as strings :func:`show`
    prints as they are; the unit's sign kept."""
    if isinstance(x, SEQUENCES):
        return [_digits(v, unit) for v in x]
    if not _plain(x):
        return x
    shown = str(x) if isinstance(x, int) and abs(x) < 10**30 else repr(float(x))
    return shown + {"ratio": "×", "MiB": " MiB"}.get(str(unit), "")


def show_expectation(exp: Expectation, raises_word: str = "raises") -> str:
    """``4701.20 ± 0.005``, ``= 123,532,032``, ``≥ 4600``, ``raises ValueError``."""
    return show_expected(
        exp.value, exp.tolerance.model_dump(exclude_none=True), exp.unit, raises_word
    )


def show_expected(
    value: Any, tolerance: Mapping[str, Any], unit: Any = None, raises_word: str = "raises"
) -> str:
    """An expectation as data (the evidence's ``expected`` and ``tolerance``) in notation."""
    kind = tolerance.get("kind")
    if kind == "raises":
        return f"{raises_word} {tolerance.get('error')}"
    if kind == "range":
        low, high = tolerance.get("min"), tolerance.get("max")
        if low is not None and high is not None:
            return f"∈ [{show(low, unit)}, {show(high, unit)}]"
        if low is not None:
            return f"≥ {show(low, unit)}"
        return f"≤ {show(high, unit)}"
    shown = show(value, unit)
    if kind == "exact":
        return f"= {shown}"
    return f"{_to_its_tolerance(value, tolerance, unit) or shown} ± {show_tolerance(tolerance)}"


def _to_its_tolerance(value: Any, tolerance: Mapping[str, Any], unit: Any) -> str | None:
    """A float held to a tolerance finer than its usual digits show (10.8249 ± 1e-06), with
    the digits the tolerance reaches (10.824946 ± 1e-06); None where the usual ones do."""
    if not isinstance(value, float) or not math.isfinite(value) or value == 0:
        return None
    if unit not in (None, "number", "probability", "ratio"):
        return None
    widths = [tolerance.get("abs"), tolerance.get("rel")]
    if not all(isinstance(w, int | float) and not isinstance(w, bool) for w in widths if w):
        return None
    width = max(float(widths[0] or 0.0), float(widths[1] or 0.0) * abs(value))
    if not width > 0:
        return None
    digits = min(17, math.ceil(math.log10(abs(value) / width)) + 1)
    usual = 4 if unit == "ratio" else 6  # 0.032× shows 3 decimals: about 4 figures
    if digits <= usual:
        return None
    text = f"{value:.{digits}g}"
    return text + "×" if unit == "ratio" else text


def show_tolerance(tol: Mapping[str, Any]) -> str:
    def one(v: Any) -> str:
        # evidence is read as it was handed in: a bound may be text the schema let through
        if isinstance(v, int | float) and not isinstance(v, bool):
            return f"{v:g}"
        return printable_line(repr(v))[:40]

    def percent(v: Any) -> str:
        # a relative bound as a percentage: notation both languages read ("(rel)" was English)
        if isinstance(v, int | float) and not isinstance(v, bool):
            return f"{v * 100:g}%"
        return one(v)

    def fmt(b: Any, each: Any = one) -> str:
        return "[" + ", ".join(each(v) for v in b) + "]" if isinstance(b, list) else each(b)

    absolute, relative = tol.get("abs"), tol.get("rel")
    if relative is None:
        return fmt(absolute) if absolute is not None else "0"
    rel = fmt(relative, percent)
    return rel if absolute is None else f"max({fmt(absolute)}, {rel})"
