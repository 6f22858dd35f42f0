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
3. names every twin that reproduced the learner's outcome on *every* call of *every* failing
   claim of the run that logged the function (the evidence is pooled: one claim's inputs may
   not tell two mistakes apart, e.g. √d and √hs coincide when d = 16 and H = 4, while
   another claim's do). A call where the twin is not defined (it raises
   :class:`~checks.twin_args.MistakeUndefined`: log10(V·T) at T = 0) counts neither for nor
   against it, but a twin is named only if it reproduces, somewhere, the call where the
   learner first leaves the reference. When none is named, the diagnosis says so and shows
   that call.

One :class:`Diagnoser` serves one learner's run, claim after claim. A diagnosis it returned
for an earlier claim is revised in place when a later claim's calls rule out one of its
matches, so diagnoses are read once the run is over (as every reporter does).

"Reproduces" (:func:`same`) is never looser than the claims that judge a function whole
(``matches_reference``): a count must be an integer, a float array must have the same dtype,
an integer array any integer dtype, a list stands for a float64 array; a raised exception
reproduces the same exception or a subclass of it. Values: integers, booleans and strings
exactly; floats element by element within ``sqrt(eps)`` relative, plus ``16·eps`` of the
array's largest magnitude for values that come out of cancellation, and never more than the
whole-function claims allow (:data:`DEFAULT_CAPS` of the largest expected magnitude, or the
module's own claims' when tighter); ``eps``
is that of the dtype compared. An exact zero matches only an exact zero (underflow and masked
positions are what tell several mistakes apart), NaN matches NaN, an infinity the same
infinity.

Everything runs here, in the judging process, on our own twins; the learner's code is never
called again. The work is bounded: only functions in failed claims' logs, twins stop at their
first miss and each twin is compared once with each claim's calls, and past
:data:`WORK_BUDGET` input values per claim the remaining comparisons are not made (such a
diagnosis says it is incomplete, and names only twins fully compared).
"""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from runner.load import LoadedClaim
from runner.models import Diagnosis, MistakeMatch, Text
from runner.pack.outcome import Raised, attempt
from runner.pack.registry import (
    CallLog,
    CallRecord,
    Implementation,
    MistakeUndefined,
    Registry,
    TwinSpec,
    _copy,
    _size,
)

# Input values (array elements and scalars) the twins and the reference may be given, summed
# over every replayed call, per failed claim: a claim's log of 100,000 values replayed on the
# reference and on 40 twins stays under it, so it binds only on logs far larger than claims
# make, and then names nothing it did not compare in full.
WORK_BUDGET = 5_000_000
# Cancellation leaves errors of a few ulps of the largest term, whatever the element's size.
CANCELLATION_ULPS = 16
# The most "the same" ever allows, relative to the largest expected value, by dtype: a few
# hundred ulps of float64, a few ulps of float32 and float16. A module's whole-function
# claims (``matches_reference``) may be tighter for a function; the diagnoser then takes
# theirs (:func:`caps_of`), so a difference they reject is never "the same" here and a
# failing function always gets a diagnosis.
Caps = Mapping[str, float]
DEFAULT_CAPS: Caps = {"float16": 8e-3, "float32": 2e-6, "float64": 1e-9}
MAX_INPUT_SUMMARY = 240
SMALL_ARRAY = 6  # arrays and lists up to this many values are shown in full in a summary


# -- when two outcomes are the same --------------------------------------------------------
def same(actual: Any, expected: Any, caps: Caps = DEFAULT_CAPS) -> bool:
    """Whether the learner's ``actual`` reproduces our ``expected`` (the reference's or a
    twin's outcome) within the stated tolerance (see the module)."""
    return _first_gap(expected, actual, "", caps) is None


def caps_of(claims: Iterable[LoadedClaim]) -> dict[str, Caps]:
    """Function -> the tightest tolerance its whole-function claims (``matches_reference``)
    allow, by dtype, never looser than :data:`DEFAULT_CAPS`."""
    out: dict[str, dict[str, float]] = {}
    for loaded in claims:
        claim = loaded.claim
        subject, rtol = claim.inputs.get("subject"), claim.inputs.get("rtol")
        if claim.check != "matches_reference" or not isinstance(subject, str):
            continue
        if not isinstance(rtol, int | float):
            continue
        by_dtype = claim.inputs.get("dtype_rtol") or {}
        caps = out.setdefault(subject, dict(DEFAULT_CAPS))
        for dtype in caps:
            value = by_dtype.get(dtype, rtol) if isinstance(by_dtype, dict) else rtol
            if isinstance(value, int | float) and 0 <= value < caps[dtype]:
                caps[dtype] = float(value)
    return dict(out)


@dataclass(frozen=True)
class _Gap:
    """Where an outcome first departs from another, and how: "value" (the numbers differ),
    "type" (the values may be equal, their types or dtypes are not), "shape", "length",
    "keys" or "raised"; ``expected`` and ``actual`` as shown."""

    at: str
    expected: Any
    actual: Any
    kind: str


def _first_gap(expected: Any, actual: Any, at: str, caps: Caps = DEFAULT_CAPS) -> _Gap | None:
    """Where the learner's ``actual`` first departs from our ``expected``."""
    if isinstance(expected, Raised) or isinstance(actual, Raised):
        both = isinstance(expected, Raised) and isinstance(actual, Raised)
        if both and (actual.error == expected.error or expected.error in actual.names):
            return None  # the same exception, or a subclass of it (as the claims accept)
        return _Gap(at, _leaf(expected), _leaf(actual), "raised")
    expected, actual = _unwrap(expected), _unwrap(actual)
    if isinstance(expected, dict) or isinstance(actual, dict):
        if not (isinstance(expected, dict) and isinstance(actual, dict)):
            return _type_gap(at, expected, actual)
        if set(expected) != set(actual):
            return _Gap(at, sorted(map(str, expected)), sorted(map(str, actual)), "keys")
        for key in expected:
            gap = _first_gap(expected[key], actual[key], f"{at}[{key!r}]", caps)
            if gap is not None:
                return gap
        return None
    if isinstance(expected, np.ndarray):
        return _array_gap(expected, actual, at, caps)
    if isinstance(expected, list | tuple):
        if isinstance(actual, np.ndarray) and actual.ndim >= 1:
            items = list(actual)  # a sequence written as an array: element by element
        elif isinstance(actual, list | tuple):
            items = list(actual)
        else:
            return _type_gap(at, expected, actual)
        if len(expected) != len(items):
            return _Gap(at, _describe(expected), _describe(actual), "length")
        for i, (e, v) in enumerate(zip(expected, items, strict=True)):
            gap = _first_gap(e, v, f"{at}[{i}]", caps)
            if gap is not None:
                return gap
        return None
    if _is_bool(expected):
        if not _is_bool(actual):
            return _type_gap(at, expected, actual)
        return None if bool(expected) == bool(actual) else _value_gap(at, expected, actual)
    if _is_int(expected):  # a count: an integer, exactly
        if not _is_int(actual):
            return _type_gap(at, expected, actual)
        return None if int(expected) == int(actual) else _value_gap(at, expected, actual)
    if _is_float(expected):  # a real number: an integer or a float within the tolerance
        if not (_is_float(actual) or _is_int(actual)):
            return _type_gap(at, expected, actual)
        e, a = _float_array(expected), _float_array(actual)
        # a real number: the claims allow the float64 tolerance, whatever its width
        if a is None or e is None or _float_misses(a, e, caps["float64"]).any():
            return _value_gap(at, expected, actual)
        return None
    if type(expected) is type(actual) and expected == actual:
        return None  # a string, None
    if type(expected) is not type(actual):
        return _type_gap(at, expected, actual)
    return _value_gap(at, expected, actual)


def _array_gap(
    expected: np.ndarray[Any, Any], actual: Any, at: str, caps: Caps = DEFAULT_CAPS
) -> _Gap | None:
    """An array of ours against the learner's: a list stands for a float64 array (as the
    claims read it), anything else must be an array with a compatible dtype."""
    if isinstance(actual, list) and expected.dtype == np.float64:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                got = np.asarray(actual, dtype=np.float64)
            except (TypeError, ValueError, OverflowError):  # ragged, or not numbers
                return _type_gap(at, expected, actual)
    elif isinstance(actual, np.ndarray):
        got = actual
    else:
        return _type_gap(at, expected, actual)
    if got.shape != expected.shape:
        return _Gap(at, _describe(expected), _describe(actual), "shape")
    kind, got_kind = expected.dtype.kind, got.dtype.kind
    if kind in "iu":  # ids and counts: any integer dtype, the exact values
        compatible = got_kind in "iu"
    elif kind in "fb":  # floats keep their dtype; flags are booleans
        compatible = got.dtype == expected.dtype
    else:  # not numbers (not produced by our functions): the same dtype, equal values
        if got.dtype != expected.dtype:
            return _type_gap(at, expected, actual)
        equal = bool(np.array_equal(got, expected))
        return None if equal else _Gap(at, _describe(expected), _describe(actual), "value")
    if not compatible:
        return _type_gap(at, expected, actual)
    if kind == "f":
        misses = _float_misses(got, expected, caps.get(expected.dtype.name, caps["float64"]))
    else:
        misses = np.asarray(got != expected)
    if not misses.any():
        return None
    index = tuple(int(i) for i in np.argwhere(misses)[0])
    where = f"{at}[{', '.join(map(str, index))}]" if index else at
    return _Gap(where, _leaf(expected[index]), _leaf(got[index]), "value")


def _float_misses(
    a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], cap: float
) -> np.ndarray[Any, Any]:
    """A boolean array: True where the learner's ``a`` does not reproduce our ``b`` (float
    arrays of one shape; scalars as 0-d arrays), never allowing more than ``cap`` times our
    largest value; ``eps`` is that of our dtype."""
    eps = float(np.finfo(b.dtype).eps)
    x, y = a.astype(np.float64).reshape(-1), b.astype(np.float64).reshape(-1)
    both_finite = np.isfinite(x) & np.isfinite(y)
    misses = ~both_finite & ~(np.isnan(x) & np.isnan(y)) & ~((x == y) & np.isinf(x))
    if both_finite.any():
        fx, fy = np.abs(x[both_finite]), np.abs(y[both_finite])
        scale = float(max(fx.max(), fy.max()))
        finite_y = np.abs(y[np.isfinite(y)])
        ours = float(finite_y.max())  # the claims' scale: the largest value expected
        with np.errstate(over="ignore", invalid="ignore"):
            own = math.sqrt(eps) * np.maximum(fx, fy) + CANCELLATION_ULPS * eps * scale
            allowed = np.minimum(own, cap * ours)
            off = np.abs(x[both_finite] - y[both_finite]) > allowed
        off |= (x[both_finite] == 0) != (y[both_finite] == 0)  # an exact 0 only matches a 0
        misses[both_finite] = off
    shaped: np.ndarray[Any, Any] = misses.reshape(a.shape)
    return shaped


def _float_array(x: Any) -> np.ndarray[Any, Any] | None:
    """A real number as a 0-d float array (a NumPy float keeps its dtype); None when it is an
    integer too large for a float."""
    if isinstance(x, np.floating):
        return np.asarray(x)
    try:
        return np.asarray(float(x), dtype=np.float64)
    except OverflowError:
        return None


def _unwrap(x: Any) -> Any:
    """A 0-d array is its scalar (as the claims read it)."""
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return x[()]
    return x


def _is_bool(x: Any) -> bool:
    return isinstance(x, bool | np.bool_)


def _is_int(x: Any) -> bool:
    return isinstance(x, int | np.integer) and not isinstance(x, bool)


def _is_float(x: Any) -> bool:
    return isinstance(x, float | np.floating)


def _value_gap(at: str, expected: Any, actual: Any) -> _Gap:
    return _Gap(at, _leaf(expected), _leaf(actual), "value")


def _type_gap(at: str, expected: Any, actual: Any) -> _Gap:
    """The values may be equal: show each with its type (``int 7``, ``float 7.0``,
    ``int64 [1, 2]``, ``list [1, 2]``), so the learner sees what differs."""
    return _Gap(at, _typed(expected), _typed(actual), "type")


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


def _typed(x: Any) -> Any:
    """A value with its type, for a difference of types."""
    if isinstance(x, Raised):
        return {"raised": x.error}
    if isinstance(x, np.ndarray | np.generic):
        return _describe(x)  # with its dtype
    if isinstance(x, bool) or x is None:
        return str(x)
    if isinstance(x, int):
        return f"int {_describe(x)}"
    if isinstance(x, float):
        return f"float {_float_text(x)}"
    if isinstance(x, list | tuple | dict):
        return f"{type(x).__name__} {_describe(x)}"
    return _describe(x)


# -- showing inputs and outputs ---------------------------------------------------------------
def _describe(x: Any) -> str:
    """An input or output in a few characters, as it was passed: ``float64 (8, 8)``,
    ``uint8 [97, 98]``, ``[(97, 97), (256, 98)]``, ``np.int32(7)``, ``0.1``."""
    if isinstance(x, np.ndarray):
        if x.ndim == 0:
            return f"{x.dtype} {_scalar_text(x.item())}"
        if x.ndim == 1 and x.size <= SMALL_ARRAY and x.dtype.kind in "biuf":
            return f"{x.dtype} [{', '.join(_scalar_text(v) for v in x.tolist())}]"
        return f"{x.dtype} {tuple(x.shape)}"
    if isinstance(x, np.generic):
        return f"np.{x.dtype}({_scalar_text(x.item())})"
    if isinstance(x, bool | int | float) or x is None:
        return _scalar_text(x)
    if isinstance(x, str):
        return repr(x) if len(x) <= 40 else repr(x[:40]) + "…"
    if isinstance(x, Raised):
        return x.error
    if isinstance(x, dict):
        inner = ", ".join(f"{k}: {_describe(v)}" for k, v in list(x.items())[:SMALL_ARRAY])
        more = ", …" if len(x) > SMALL_ARRAY else ""
        return "{" + inner + more + "}"
    if isinstance(x, list | tuple):
        inner = ", ".join(_describe(v) for v in list(x)[:SMALL_ARRAY])
        if len(x) > SMALL_ARRAY:
            inner += f", … (len {len(x):,})"
        if isinstance(x, tuple):
            return f"({inner},)" if len(x) == 1 else f"({inner})"
        return f"[{inner}]"
    return type(x).__name__


def _scalar_text(v: Any) -> str:
    if v is None or isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        if abs(v) >= 10**15:  # too long to read: say how large
            return f"{'-' if v < 0 else ''}10^{math.log10(abs(v)):.2f}"
        return str(v)
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def _float_text(v: float) -> str:
    """A float in a type difference: its digits, so 2359296.0 reads as a float."""
    text = repr(v)
    return text if len(text) <= 14 else f"{v:.6g}"


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


# A twin against one claim's calls of a function: it differs from the learner on a call where
# it is defined (MISS); it reproduces every call where it is defined, including the one where
# the learner first leaves the reference, if there is one (MATCH); or it reproduces every
# call where it is defined but is not defined where the learner first leaves the reference
# (UNSUPPORTED: it does not contradict the learner there, nor explain them).
MISS, MATCH, UNSUPPORTED = "miss", "match", "unsupported"


def _undefined(outcome: Any) -> bool:
    """A twin's outcome on inputs where its mistake has no value of its own."""
    return isinstance(outcome, Raised) and MistakeUndefined.__name__ in outcome.names


@dataclass
class _Evidence:
    """One failing claim's calls of one function, and what they decided."""

    calls: list[CallRecord]
    compared: bool = True  # False: the reference ran out of budget before deciding
    first: int | None = None  # the first call where the learner differs from the reference
    first_difference: dict[str, Any] | None = None
    verdicts: dict[str, str] = field(default_factory=dict)  # twin id: MISS, MATCH, UNSUPPORTED

    def order(self) -> list[CallRecord]:
        """The calls, the one where the learner left the reference first (it rules out
        most twins at once)."""
        if self.first is None:
            return self.calls
        i = self.first
        return [self.calls[i], *self.calls[:i], *self.calls[i + 1 :]]


@dataclass
class Diagnoser:
    """Diagnoses one learner's failed claims against one registry's twins (implementations
    cached, evidence pooled over the claims of the run)."""

    registry: Registry
    budget: int = WORK_BUDGET
    caps: Mapping[str, Caps] = field(default_factory=dict)  # function -> its claims' caps
    _impls: dict[str, Implementation] = field(default_factory=dict)
    _candidates: dict[str, list[TwinSpec]] = field(default_factory=dict)
    _evidence: dict[str, list[_Evidence]] = field(default_factory=dict)
    _diagnosed: dict[str, list[tuple[_Evidence, Diagnosis]]] = field(default_factory=dict)

    def __call__(self, loaded: LoadedClaim, log: CallLog, impl: Implementation) -> list[Diagnosis]:
        if not log.complete:
            spec = self.registry.resolve_check(loaded.claim.check)
            needs = spec.needs_of(loaded.claim.inputs)
            return [Diagnosis(function=name, calls=0, complete=False) for name in needs]
        budget = _Budget(self.budget)
        out = []
        logged = []
        for name, calls in _by_function(log):
            if name not in self.registry.subjects:
                continue
            evidence = _Evidence(calls)
            self._evidence.setdefault(name, []).append(evidence)
            logged.append(name)
            diagnosis = self._against_reference(name, evidence, budget)
            if diagnosis is not None:
                self._diagnosed.setdefault(name, []).append((evidence, diagnosis))
                out.append(diagnosis)
        for name in logged:
            if name in self._diagnosed:
                self._settle(name, budget)
        return out

    def _against_reference(
        self, name: str, evidence: _Evidence, budget: _Budget
    ) -> Diagnosis | None:
        """Replays the calls on the reference until the learner leaves it: None when it never
        does (the function is not what failed), else a diagnosis still to be settled."""
        reference = self._impl(None)[name]
        calls = evidence.calls
        for i, call in enumerate(calls):
            if not budget.take(call):
                evidence.compared = False
                return Diagnosis(function=name, calls=len(calls), complete=False)
            expected = replay(reference, call)
            caps = self.caps.get(name, DEFAULT_CAPS)
            if not same(call.outcome, expected, caps):
                evidence.first = i
                evidence.first_difference = _difference(i, call, expected, reference, caps)
                return Diagnosis(function=name, calls=len(calls))
        return None

    def _settle(self, name: str, budget: _Budget) -> None:
        """Names, in every diagnosis of ``name`` so far, the twins that reproduce every call
        of every failing claim that logged it."""
        matches, unknown = self._matching(name, self._evidence[name], budget)
        for evidence, diagnosis in self._diagnosed[name]:
            if evidence.compared:
                self._show(diagnosis, evidence, matches, unknown)

    def _matching(
        self, name: str, pool: list[_Evidence], budget: _Budget
    ) -> tuple[list[TwinSpec], bool]:
        """The candidate twins that reproduce every call in ``pool`` (where they are defined)
        and the learner's first departure from the reference in one of its claims, and
        whether some twin could not be compared in full (it is then not named)."""
        # the claims where the learner left the reference first: they rule out the most
        ordered = sorted(pool, key=lambda e: e.first is None)
        matches = []
        unknown = False
        for twin in self.candidates(name):
            if any(e.verdicts.get(twin.id) == MISS for e in pool):
                continue  # ruled out by a claim compared before
            fn = self._impl(twin.id)[name]
            verdicts: list[str] = []
            for evidence in ordered:
                known = evidence.verdicts.get(twin.id)
                if known is None:
                    known = self._reproduces(
                        fn, evidence, budget, self.caps.get(name, DEFAULT_CAPS)
                    )
                    if known is None:
                        unknown = True
                        break
                    evidence.verdicts[twin.id] = known
                if known == MISS:
                    break
                if evidence.first is not None:
                    verdicts.append(known)
            else:
                if MATCH in verdicts:
                    matches.append(twin)
        return matches, unknown

    @staticmethod
    def _show(
        diagnosis: Diagnosis, evidence: _Evidence, matches: list[TwinSpec], unknown: bool
    ) -> None:
        diagnosis.matches = [_match(t) for t in matches]
        diagnosis.first_difference = None if matches else evidence.first_difference
        diagnosis.complete = not unknown

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

    def _reproduces(
        self, fn: Callable[..., Any], evidence: _Evidence, budget: _Budget, caps: Caps
    ) -> str | None:
        """MISS, MATCH or UNSUPPORTED (see their comment) for ``fn`` on one claim's calls;
        None when the budget ran out first (not compared on every call: never named)."""
        supported = evidence.first is None
        for i, call in enumerate(evidence.order()):
            if not budget.take(call):
                return None
            outcome = replay(fn, call)
            if _undefined(outcome):
                continue
            supported = supported or i == 0  # defined where the learner left the reference
            if not same(call.outcome, outcome, caps):
                return MISS
        return MATCH if supported else UNSUPPORTED

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
    index: int, call: CallRecord, expected: Any, reference: Callable[..., Any], caps: Caps
) -> dict[str, Any]:
    gap = _first_gap(expected, call.outcome, "", caps)
    if gap is None:  # not reached: called only where the outcomes differ
        gap = _Gap("", None, None, "value")
    return {
        "call": index,
        "inputs": summarize_inputs(reference, call),
        "at": gap.at,
        "expected": gap.expected,
        "actual": gap.actual,
        "kind": gap.kind,
    }


def diagnoser(registry: Registry, claims: Iterable[LoadedClaim] = ()) -> Diagnoser:
    """The engine's diagnoser for one learner's run of one module (see
    :func:`runner.run.run_claim`), as strict as the module's whole-function ``claims``."""
    return Diagnoser(registry, caps=caps_of(claims))


__all__ = ["WORK_BUDGET", "Diagnoser", "diagnoser", "replay", "same", "summarize_inputs"]
