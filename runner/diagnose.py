"""Diagnosis: which known mistake a learner's failing function makes.

When a learner's claim fails, its check has logged every call it made to the learner's
functions (inputs, and what came back across the worker boundary, as plain data). For each
function in that log, this module

1. replays the calls on the reference, in order, until one disagrees with the learner (a
   function that agrees with the reference on every call is not what failed: no diagnosis);
2. replays the calls on every twin that can explain that function (a twin of ``g`` explains
   ``f`` when ``f`` uses ``g`` in the reference, i.e. ``f in registry.reaching(g)``),
   starting with the call where the reference disagreed and stopping at the first call the
   twin does not reproduce;
3. names every twin that reproduced the learner's outcome on *every* logged call. When none
   does, it says so and shows the first call where the learner and the reference differ.

"Reproduces" (:func:`same`) is a stated tolerance, never the claim's own (a claim judges
measurements, not raw outputs): integers, booleans and strings exactly; floating arrays
element by element within ``sqrt(eps)`` relative, plus ``16·eps`` of the array's largest
magnitude for values that come out of cancellation, where ``eps`` is that of the coarser of
the two dtypes (float16 results are compared as float16); an exact zero matches only an exact
zero (underflow and masked positions are what tell several mistakes apart), NaN matches NaN,
an infinity the same infinity, and a raised exception the same exception type.

Everything runs here, in the judging process, on our own twins; the learner's code is never
called again. The work is bounded: only functions in the failed claim's log, twins stop at
their first miss, and past :data:`WORK_BUDGET` input values per claim the remaining twins are
not tried (such a diagnosis says it is incomplete, and names only twins fully compared).
"""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from checks.outcome import Raised, attempt
from checks.registry import CallLog, CallRecord, Implementation, Registry, TwinSpec, _copy, _size
from runner.load import LoadedClaim
from runner.models import Diagnosis, MistakeMatch, Text

# Input values (array elements and scalars) the twins and the reference may be given, summed
# over every replayed call, per failed claim. The largest log today is beyond.moe's, about
# 90,000 values; replayed on the reference and on all 17 twins that can explain a function
# (multi_head_attention's) that would still be 1.6M, so the budget binds only on logs far
# larger than any claim makes now, and then names nothing it did not compare in full.
WORK_BUDGET = 5_000_000
# Cancellation leaves errors of a few ulps of the largest term, whatever the element's size.
CANCELLATION_ULPS = 16
MAX_INPUT_SUMMARY = 240
SMALL_ARRAY = 6  # arrays up to this many values are shown in full in a summary


# -- when two outcomes are the same --------------------------------------------------------
def same(actual: Any, expected: Any) -> bool:
    """Whether ``actual`` reproduces ``expected`` within the stated tolerance (see module)."""
    return _first_gap(expected, actual, "") is None


def _numeric(x: Any) -> np.ndarray[Any, Any] | None:
    """``x`` as a real numeric array when it is one (arrays, numbers, nested number lists)."""
    if isinstance(x, np.ndarray):
        return x if x.dtype.kind in "biuf" else None
    if isinstance(x, bool | int | float | np.number | np.bool_):
        arr = np.asarray(x)
        return arr if arr.dtype.kind in "biuf" else None  # a huge int becomes an object
    if isinstance(x, list | tuple) and x and not any(isinstance(v, dict | Raised) for v in x):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                arr = np.asarray(x)
            except (ValueError, TypeError, OverflowError):  # ragged, or not numbers
                return None
        return arr if arr.dtype.kind in "biuf" else None
    return None


def _elementwise_misses(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A boolean array: True where ``a`` does not reproduce ``b`` (same shapes)."""
    if a.dtype.kind != "f" or b.dtype.kind != "f":
        # a count, a flag or an index: exact (a float that equals the integer still matches)
        with np.errstate(invalid="ignore"):
            return np.asarray(a != b)
    eps = max(float(np.finfo(a.dtype).eps), float(np.finfo(b.dtype).eps))
    x, y = a.astype(np.float64).reshape(-1), b.astype(np.float64).reshape(-1)
    both_finite = np.isfinite(x) & np.isfinite(y)
    misses = ~both_finite & ~(np.isnan(x) & np.isnan(y)) & ~((x == y) & np.isinf(x))
    if both_finite.any():
        fx, fy = np.abs(x[both_finite]), np.abs(y[both_finite])
        scale = float(max(fx.max(), fy.max()))
        allowed = math.sqrt(eps) * np.maximum(fx, fy) + CANCELLATION_ULPS * eps * scale
        off = np.abs(x[both_finite] - y[both_finite]) > allowed
        off |= (x[both_finite] == 0) != (y[both_finite] == 0)  # an exact 0 only matches a 0
        misses[both_finite] = off
    shaped: np.ndarray[Any, Any] = misses.reshape(a.shape)
    return shaped


def _first_gap(expected: Any, actual: Any, at: str) -> tuple[str, Any, Any] | None:
    """Where ``actual`` first departs from ``expected``: (position, expected, actual)."""
    if isinstance(expected, Raised) or isinstance(actual, Raised):
        if isinstance(expected, Raised) and isinstance(actual, Raised):
            return None if expected.error == actual.error else (at, _leaf(expected), _leaf(actual))
        return (at, _leaf(expected), _leaf(actual))
    if isinstance(expected, dict) or isinstance(actual, dict):
        if not (isinstance(expected, dict) and isinstance(actual, dict)):
            return (at, _leaf(expected), _leaf(actual))
        if set(expected) != set(actual):
            return (at, sorted(map(str, expected)), sorted(map(str, actual)))
        for key in expected:
            gap = _first_gap(expected[key], actual[key], f"{at}[{key!r}]")
            if gap is not None:
                return gap
        return None
    a, b = _numeric(actual), _numeric(expected)
    if a is not None and b is not None:
        if a.shape != b.shape:
            return (at, _leaf(expected), _leaf(actual))
        misses = _elementwise_misses(a, b)
        if not misses.any():
            return None
        index = tuple(int(i) for i in np.argwhere(misses)[0])
        where = f"{at}[{', '.join(map(str, index))}]" if index else at
        return (where, _leaf(b[index]), _leaf(a[index]))
    if isinstance(expected, list | tuple) and isinstance(actual, list | tuple):
        if len(expected) != len(actual):
            return (at, _leaf(expected), _leaf(actual))
        for i, (e, v) in enumerate(zip(expected, actual, strict=True)):
            gap = _first_gap(e, v, f"{at}[{i}]")
            if gap is not None:
                return gap
        return None
    if type(expected) is type(actual) and expected == actual:
        return None
    return (at, _leaf(expected), _leaf(actual))


def _leaf(x: Any) -> Any:
    """A value as shown in a first difference: plain, small, and the same in any language."""
    if isinstance(x, Raised):
        return {"raised": x.error}
    if isinstance(x, np.ndarray) and x.ndim == 0:
        x = x.item()
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, bool | int | float | str) or x is None:
        return x
    return _describe(x)


def _describe(x: Any) -> str:
    """``float64 (8, 8)``, ``[2, 1, -1]``, ``0.1``: an input or output in a few characters."""
    arr = _numeric(x)
    if arr is not None and arr.ndim > 0:
        if arr.size <= SMALL_ARRAY and arr.ndim == 1:
            values = ", ".join(_number(v) for v in arr.tolist())
            prefix = f"{arr.dtype} " if isinstance(x, np.ndarray) and arr.dtype.kind == "f" else ""
            return f"{prefix}[{values}]"
        return f"{arr.dtype} {tuple(arr.shape)}"
    if arr is not None:
        return _number(arr.item())
    if isinstance(x, str):
        return repr(x)
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {_describe(v)}" for k, v in list(x.items())[:6]) + "}"
    if isinstance(x, list | tuple):
        inner = ", ".join(_describe(v) for v in list(x)[:SMALL_ARRAY])
        more = ", …" if len(x) > SMALL_ARRAY else ""
        return f"({inner}{more})" if isinstance(x, tuple) else f"[{inner}{more}]"
    if isinstance(x, Raised):
        return x.error
    if x is None or isinstance(x, bool):
        return str(x)
    if isinstance(x, int):  # too large for an int64: say how large
        return f"10^{math.log10(abs(x)):.2f}" if x else "0"
    return type(x).__name__


def _number(v: Any) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    return f"{v:.6g}"


def summarize_inputs(fn: Callable[..., Any], call: CallRecord) -> str:
    """``logits=float64 [2, 1, -1], temperature=0.1``: a call's inputs, by parameter name."""
    try:
        bound = inspect.signature(fn).bind_partial(*call.args, **call.kwargs)
        named = list(bound.arguments.items())
    except TypeError:  # the check called it in a way the reference does not name
        named = [(f"#{i}", a) for i, a in enumerate(call.args)] + list(call.kwargs.items())
    text = ", ".join(f"{name}={_describe(value)}" for name, value in named)
    return text if len(text) <= MAX_INPUT_SUMMARY else text[: MAX_INPUT_SUMMARY - 1] + "…"


# -- replaying calls ------------------------------------------------------------------------
def replay(fn: Callable[..., Any], call: CallRecord) -> Any:
    """What ``fn`` does with a logged call's inputs (a fresh copy: twins may write to them)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return attempt(fn, *_copy(call.args), **_copy(call.kwargs))


@dataclass
class _Budget:
    left: int
    spent_out: bool = False

    def take(self, call: CallRecord) -> bool:
        cost = _size(call.args) + _size(call.kwargs)
        if cost > self.left:
            self.spent_out = True
            return False
        self.left -= cost
        return True


@dataclass
class Diagnoser:
    """Diagnoses failed claims against one registry's twins (implementations cached)."""

    registry: Registry
    budget: int = WORK_BUDGET
    _impls: dict[str, Implementation] = field(default_factory=dict)
    _candidates: dict[str, list[TwinSpec]] = field(default_factory=dict)

    def __call__(self, loaded: LoadedClaim, log: CallLog, impl: Implementation) -> list[Diagnosis]:
        if not log.complete:
            spec = self.registry.resolve_check(loaded.claim.check)
            needs = spec.needs_of(loaded.claim.inputs)
            return [Diagnosis(function=name, calls=0, complete=False) for name in needs]
        budget = _Budget(self.budget)
        out = []
        for name, calls in _by_function(log):
            diagnosis = self.diagnose(name, calls, budget)
            if diagnosis is not None:
                out.append(diagnosis)
        return out

    def diagnose(self, name: str, calls: list[CallRecord], budget: _Budget) -> Diagnosis | None:
        """The diagnosis of one function over its logged calls; None when it agrees with the
        reference on every one of them (it is not what failed)."""
        if name not in self.registry.subjects:
            return None
        reference = self._impl(None)[name]
        first: tuple[int, Any] | None = None
        for i, call in enumerate(calls):
            if not budget.take(call):
                return Diagnosis(function=name, calls=len(calls), complete=False)
            expected = replay(reference, call)
            if not same(call.outcome, expected):
                first = (i, expected)
                break
        if first is None:
            return None
        index, expected = first
        order = [calls[index], *calls[:index], *calls[index + 1 :]]
        matches = [
            twin
            for twin in self.candidates(name)
            if self._reproduces(self._impl(twin.id)[name], order, budget)
        ]
        diagnosis = Diagnosis(
            function=name,
            calls=len(calls),
            matches=[_match(t) for t in matches],
            complete=not budget.spent_out,
        )
        if not matches:
            diagnosis.first_difference = _difference(index, calls[index], expected, reference)
        return diagnosis

    def candidates(self, name: str) -> list[TwinSpec]:
        """The twins that can explain ``name``: its own first, then those of what it uses."""
        if name not in self._candidates:
            reaching = [
                t
                for t in self.registry.twins.values()
                if name in self.registry.reaching(t.replaces)
            ]
            self._candidates[name] = sorted(reaching, key=lambda t: t.replaces != name)
        return self._candidates[name]

    def _reproduces(self, fn: Callable[..., Any], calls: list[CallRecord], budget: _Budget) -> bool:
        for call in calls:
            if not budget.take(call):
                return False  # not compared on every call: never named
            if not same(call.outcome, replay(fn, call)):
                return False
        return True

    def _impl(self, twin_id: str | None) -> Implementation:
        key = twin_id or ""
        if key not in self._impls:
            self._impls[key] = (
                self.registry.reference() if twin_id is None else self.registry.with_fault(twin_id)
            )
        return self._impls[key]


def _by_function(log: CallLog) -> Iterator[tuple[str, list[CallRecord]]]:
    """The log's calls grouped by function, in the order each was first called."""
    groups: dict[str, list[CallRecord]] = {}
    for call in log.calls:
        groups.setdefault(call.name, []).append(call)
    yield from groups.items()


def _match(twin: TwinSpec) -> MistakeMatch:
    return MistakeMatch(
        id=twin.id,
        replaces=twin.replaces,
        explanation=Text(**twin.explanation),
        where=Text(**twin.where),
    )


def _difference(
    index: int, call: CallRecord, expected: Any, reference: Callable[..., Any]
) -> dict[str, Any]:
    gap = _first_gap(expected, call.outcome, "")
    at, shown_expected, shown_actual = gap if gap is not None else ("", None, None)
    return {
        "call": index,
        "inputs": summarize_inputs(reference, call),
        "at": at,
        "expected": shown_expected,
        "actual": shown_actual,
    }


def diagnoser(registry: Registry) -> Diagnoser:
    """The engine's diagnoser for learner runs (see :func:`runner.run.run_claim`)."""
    return Diagnoser(registry)


__all__ = ["WORK_BUDGET", "Diagnoser", "diagnoser", "replay", "same", "summarize_inputs"]
