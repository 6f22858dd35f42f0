"""Checks for stage 6: temperature reshapes the distribution, top-k cuts its support."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from checks.measure.common import finite
from checks.pack import check
from runner.pack import Implementation, Measurements, attempt

DTYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64}


def _label(t: float) -> str:
    return f"t{t:g}"


@check(
    "temperature_table",
    needs=("softmax_temperature",),
    measures=(
        "probs_t0.1",
        "probs_t1",
        "probs_t10",
        "probs_t1000",
        "argsort",
        "row_sums",
        "sweep_temperatures",
        "sweep_probs",
    ),
    context=("sweep_temperatures",),
)
def temperature_table(
    impl: Implementation, logits: list[float], temperatures: list[float]
) -> Measurements:
    """Stage 6: the chapter's table; the order of the tokens at every temperature."""
    z = np.asarray(logits, dtype=np.float64)
    rows = [np.asarray(impl["softmax_temperature"](z, t), dtype=np.float64) for t in temperatures]
    out: Measurements = {
        f"probs_{_label(t)}": row.tolist() for t, row in zip(temperatures, rows, strict=True)
    }
    out["argsort"] = [np.argsort(-row, kind="stable").tolist() for row in rows]
    out["row_sums"] = [float(row.sum()) for row in rows]
    # the whole curve between the table's rows, for the report's figure
    sweep = np.logspace(-2, 3, 26)  # (26,) from T = 0.01 to 1000, five per decade
    out["sweep_temperatures"] = sweep.tolist()
    out["sweep_probs"] = [np.asarray(impl["softmax_temperature"](z, t)).tolist() for t in sweep]
    return out


@check(
    "temperature_rejects_nonpositive",
    needs=("softmax_temperature",),
    measures=("at_zero", "at_negative", "at_zero_nan_count"),
)
def temperature_rejects_nonpositive(impl: Implementation, logits: list[float]) -> Measurements:
    """Stage 6: T <= 0 is an error; greedy decoding is a separate path."""
    z = np.asarray(logits, dtype=np.float64)
    fn = impl["softmax_temperature"]
    at_zero = attempt(fn, z, 0.0)
    nan_count = int(np.count_nonzero(np.isnan(at_zero))) if isinstance(at_zero, np.ndarray) else 0
    return {
        "at_zero": at_zero,
        "at_negative": attempt(fn, z, -1.0),
        "at_zero_nan_count": nan_count,
    }


@check(
    "temperature_underflow",
    needs=("softmax_temperature",),
    measures=(
        "tail_t0.1_float64",
        "tail_t0.1_float32",
        "tail_t0.1_float16",
        "zero_below_float64",
        "zero_below_float32",
        "zero_below_float16",
    ),
)
def temperature_underflow(
    impl: Implementation, logits: list[float], probe_temperature: float
) -> Measurements:
    """Stage 6: where the smallest probability really becomes an exact 0, per dtype.

    For each dtype, halve T from 10 until the last entry is 0.0, then bisect (in log T)
    between the last non-zero and the first zero. A NaN on the way (the implementation
    broke before it underflowed) is reported as NaN, which no tolerance accepts.
    """
    fn = impl["softmax_temperature"]
    out: Measurements = {}
    for name, dtype in DTYPES.items():
        z = np.asarray(logits, dtype=dtype)

        def tail(t: float, z: np.ndarray = z) -> float:
            probs = np.asarray(fn(z, t))  # (V,): a NaN or an inf anywhere breaks it all
            return float(probs[-1]) if finite(probs) else math.nan

        out[f"tail_t{probe_temperature:g}_{name}"] = tail(probe_temperature)
        out[f"zero_below_{name}"] = underflow_temperature(tail)
    return out


def underflow_temperature(tail: Callable[[float], float]) -> float:
    """The temperature below which ``tail(T)`` is an exact 0.0 (NaN if it never is, or breaks)."""
    hi = 10.0
    if not tail(hi) > 0.0:
        return math.nan
    lo = hi / 2
    while (value := tail(lo)) > 0.0:
        hi, lo = lo, lo / 2
        if lo < 1e-300:
            return math.nan
    if value != 0.0:  # NaN: it broke before the tail underflowed
        return math.nan
    for _ in range(40):  # the bracket starts at a factor of 2; 2^-40 of that is plenty
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if tail(mid) == 0.0 else (lo, mid)
    return hi


@check(
    "top_k_support",
    needs=("top_k_renormalize",),
    measures=("probs", "kept", "dropped_exact_zeros", "total"),
)
def top_k_support(impl: Implementation, probs: list[float], k: int) -> Measurements:
    """Stage 6: zero all but the k largest, exactly, and rescale the survivors to sum 1."""
    out = np.asarray(impl["top_k_renormalize"](np.asarray(probs, dtype=np.float64), k))
    order = np.argsort(-np.asarray(probs), kind="stable")
    return {
        "probs": out.tolist(),
        "kept": int(np.count_nonzero(out)),
        "dropped_exact_zeros": int(np.count_nonzero(out[order[k:]] == 0.0)),
        "total": float(out.sum()),
    }
