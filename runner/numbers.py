"""Numbers shown the way the chapter shows them.

Counts get thousands separators (123,532,032), memory is in MiB with one decimal
(191.7 MiB), astronomic counts are their log10 with two decimals (4701.20), ratios get
three decimals and a times sign (2.552×).
"""

from __future__ import annotations

import math
from typing import Any

from checks.outcome import Raised
from runner.models import Close, Exact, Expectation, Raises, Range, Unit


def show(x: Any, unit: Unit | None = None) -> str:
    if isinstance(x, Raised):
        return str(x)
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return str(x).lower() if isinstance(x, bool) else str(x)
    if isinstance(x, list):
        return "[" + ", ".join(show(v, unit) for v in x) + "]"
    if not isinstance(x, int | float):
        return repr(x)
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


def show_expectation(exp: Expectation) -> str:
    """``4701.20 ± 0.005``, ``= 123,532,032``, ``≥ 4600``, ``raises ValueError``."""
    tol = exp.tolerance
    if isinstance(tol, Raises):
        return f"raises {tol.error}"
    if isinstance(tol, Range):
        if tol.min is not None and tol.max is not None:
            return f"in [{show(tol.min, exp.unit)}, {show(tol.max, exp.unit)}]"
        if tol.min is not None:
            return f"≥ {show(tol.min, exp.unit)}"
        return f"≤ {show(tol.max, exp.unit)}"
    value = show(exp.value, exp.unit)
    if isinstance(tol, Exact):
        return f"= {value}"
    return f"{value} ± {show_tolerance(tol)}"


def show_tolerance(tol: Close) -> str:
    def fmt(b: float | list[float]) -> str:
        return "[" + ", ".join(f"{v:g}" for v in b) + "]" if isinstance(b, list) else f"{b:g}"

    if tol.rel is None:
        return fmt(tol.abs) if tol.abs is not None else "0"
    rel = f"{fmt(tol.rel)} (rel)"
    return rel if tol.abs is None else f"max({fmt(tol.abs)}, {rel})"
