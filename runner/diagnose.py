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

import functools
import inspect
import math
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from runner.compare import Policy, Raised, Reproduces, first_difference
from runner.kinds import NUMBERS, PLAIN_NUMBERS, SEQUENCES
from runner.load import LoadedClaim
from runner.models import Diagnosis, MistakeMatch, Text
from runner.pack.outcome import attempt
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

# tuples built once, not unions built at every isinstance() (see runner.kinds)
_CONTAINERS = (list, tuple, dict)
_NUMPY_VALUES = (np.ndarray, np.generic)
_PLAIN_SCALARS = (bool, int, float, str)

# Input values (array elements and scalars) the twins and the reference may be given, summed
# over every replayed call, per failed claim: a claim's log of 100,000 values replayed on the
# reference and on 40 twins stays under it, so it binds only on logs far larger than claims
# make, and then names nothing it did not compare in full.
WORK_BUDGET = 5_000_000
# the calls of a run's failed claims kept to pool their evidence, in a log's scalars: a
# learner's values each claim may log up to its budget, kept claim after claim, grew the
# judge by gigabytes (dicts of long keys); past this no diagnosis of the run is made
POOL_BUDGET = 16_000_000
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
def reproduction(caps: Caps = DEFAULT_CAPS) -> Policy:
    """What "reproduces" means (see the module), as the comparison engine's policy."""
    return Policy(
        Reproduces(caps),
        numbers="counts",
        nonfinite="same",  # NaN matches NaN, an infinity the same infinity
        keys="same",
        sequences="or_array",
        lists_as_arrays="float64",
        dtypes="any_integer",
        zero_d="both",
    )


_POLICIES: dict[tuple[tuple[str, float], ...], Policy] = {}


def _policy_for(caps: Caps) -> Policy:
    key = tuple(caps.items())
    if key not in _POLICIES:
        _POLICIES[key] = reproduction(caps)
    return _POLICIES[key]


def same(actual: Any, expected: Any, caps: Caps = DEFAULT_CAPS) -> bool:
    """Whether the learner's ``actual`` reproduces our ``expected`` (the reference's or a
    twin's outcome) within the stated tolerance (see the module)."""
    return first_difference(expected, actual, _policy_for(caps)) is None


def departs(actual: Any, expected: Any, caps: Caps = DEFAULT_CAPS) -> bool:
    """Whether the learner's ``actual`` leaves the reference's ``expected``: it does not
    reproduce it, and the whole-function claims would not accept it either. A difference
    they accept (a sine's last bits near a zero crossing at T = 100,000) is no departure: the
    function is not what failed, and a claim that also calls a wrong one is not laid at it."""
    if same(actual, expected, caps):
        return False
    return (
        first_difference(expected, actual, _contract_policy(tuple(sorted(caps.items()))))
        is not None
    )


@functools.lru_cache(maxsize=64)
def _contract_policy(caps: tuple[tuple[str, float], ...]) -> Policy:
    from runner.pack.contract import agreement  # the contract's own rules of agreement

    by_dtype = dict(caps)
    return agreement(by_dtype.get("float64", DEFAULT_CAPS["float64"]), 0.0, by_dtype)


def caps_of(claims: Iterable[LoadedClaim]) -> dict[str, Caps]:
    """Function -> the tightest tolerance its whole-function claims (``matches_reference``)
    allow, by dtype, never looser than :data:`DEFAULT_CAPS`."""
    out: dict[str, dict[str, float]] = {}
    for loaded in claims:
        claim = loaded.claim
        subject, rtol = claim.inputs.get("subject"), claim.inputs.get("rtol")
        if claim.check != "matches_reference" or not isinstance(subject, str):
            continue
        if not isinstance(rtol, NUMBERS):
            continue
        by_dtype = claim.inputs.get("dtype_rtol") or {}
        caps = out.setdefault(subject, dict(DEFAULT_CAPS))
        for dtype in caps:
            value = by_dtype.get(dtype, rtol) if isinstance(by_dtype, dict) else rtol
            if isinstance(value, NUMBERS) and 0 <= value < caps[dtype]:
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
    """Where the learner's ``actual`` first departs from our ``expected``, as shown."""
    found = first_difference(expected, actual, _policy_for(caps))
    if found is None:
        return None
    where = at + "".join(
        f"[{name!r}]" if step == "key" else f"[{name}]" for step, name in found.path
    )
    e, a = found.expected, found.actual
    if found.kind == "raised":
        return _Gap(where, _leaf(e), _leaf(a), "raised")
    if found.kind in ("type", "dtype"):
        return _Gap(where, _typed(e), _typed(a), "type")
    if found.kind == "keys":
        return _Gap(where, sorted(map(str, e)), sorted(map(str, a)), "keys")
    if found.kind in ("length", "shape"):
        return _Gap(where, _describe(e), _describe(a), found.kind)
    elements, got = found.elements, found.read_as
    if elements is not None and got is not None:  # numbers in arrays: the first that differs
        index = elements.first
        if index:
            where += f"[{', '.join(map(str, index))}]"
        return _Gap(where, _leaf(e[index]), _leaf(got[index]), "value")
    if isinstance(e, np.ndarray):
        return _Gap(where, _describe(e), _describe(a), "value")
    return _Gap(where, _leaf(e), _leaf(a), "value")


def _leaf(x: Any) -> Any:
    """A value as shown in a first difference: plain, small, and the same in any language."""
    if isinstance(x, Raised):
        return {"raised": x.error}
    if isinstance(x, np.ndarray) and x.ndim == 0:
        x = x.item()
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, _PLAIN_SCALARS) or x is None:
        return x
    return _describe(x)


def _typed(x: Any) -> Any:
    """A value with its type, for a difference of types."""
    if isinstance(x, Raised):
        return {"raised": x.error}
    if isinstance(x, _NUMPY_VALUES):
        return _describe(x)  # with its dtype
    if isinstance(x, bool) or x is None:
        return str(x)
    if isinstance(x, int):
        return f"int {_describe(x)}"
    if isinstance(x, float):
        return f"float {_float_text(x)}"
    if isinstance(x, _CONTAINERS):
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
    if isinstance(x, PLAIN_NUMBERS) or x is None:
        return _scalar_text(x)
    if isinstance(x, str):
        return repr(x) if len(x) <= 40 else repr(x[:40]) + "…"
    if isinstance(x, Raised):
        return x.error
    if isinstance(x, dict):
        inner = ", ".join(f"{k}: {_describe(v)}" for k, v in list(x.items())[:SMALL_ARRAY])
        more = ", …" if len(x) > SMALL_ARRAY else ""
        return "{" + inner + more + "}"
    if isinstance(x, SEQUENCES):
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
    # the faults the module declares (faults.yaml), beside every mistake: a fault's twin
    # no row declares is never run by inject, so no claim is shown to catch it; None: all
    faults: frozenset[str] | None = None
    _impls: dict[str, Implementation] = field(default_factory=dict)
    _candidates: dict[str, list[TwinSpec]] = field(default_factory=dict)
    _evidence: dict[str, list[_Evidence]] = field(default_factory=dict)
    _diagnosed: dict[str, list[tuple[_Evidence, Diagnosis]]] = field(default_factory=dict)
    stopped: bool = False  # a diagnosis went past the judge's cap: no more are made
    kept: int = 0  # the scalars of the calls pooled so far (POOL_BUDGET)
    # the claim being diagnosed: its functions' diagnoses and evidence so far (kept when
    # the judge's cap stops it midway: a first difference found is still shown)
    _current: list[tuple[_Evidence, Diagnosis]] = field(default_factory=list)

    def __call__(self, loaded: LoadedClaim, log: CallLog, impl: Implementation) -> list[Diagnosis]:
        self._current = []  # before any return: unfinished() shows this claim's alone
        if not log.complete or self.stopped:
            return self._not_made(loaded)
        self.kept += log.used
        if self.kept > POOL_BUDGET:  # the run's pooled calls would outgrow the judge
            return self.unfinished(loaded)
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
                self._current.append((evidence, diagnosis))
                out.append(diagnosis)
        for name in logged:
            if name in self._diagnosed:
                self._settle(name, budget)
        return out

    def unfinished(self, loaded: LoadedClaim) -> list[Diagnosis]:
        """The claim's diagnoses when making them went past the judge's cap: no mistake
        named, and none of a later claim's is made (the evidence pooled so far is half
        compared); where the replay on the reference had found the first differing call
        (it comes before the twins), that call is still shown."""
        self.stopped = True
        found = [
            Diagnosis(
                function=d.function,
                calls=d.calls,
                first_difference=evidence.first_difference,
                complete=False,
            )
            for evidence, d in self._current
            if evidence.first_difference is not None
        ]
        shown = {d.function for d in found}
        return found + [d for d in self._not_made(loaded) if d.function not in shown]

    def _not_made(self, loaded: LoadedClaim) -> list[Diagnosis]:
        spec = self.registry.resolve_check(loaded.claim.check)
        needs = spec.needs_of(loaded.claim.inputs)
        return [Diagnosis(function=name, calls=0, complete=False) for name in needs]

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
            if departs(call.outcome, expected, caps):
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
                and (t.kind == "mistake" or self.faults is None or t.id in self.faults)
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


def diagnoser(
    registry: Registry, claims: Iterable[LoadedClaim] = (), faults: Iterable[str] | None = None
) -> Diagnoser:
    """The engine's diagnoser for one learner's run of one module (see
    :func:`runner.run.run_claim`), as strict as the module's whole-function ``claims``,
    naming the pack's mistakes and the ``faults`` the module declares (None: every twin)."""
    declared = None if faults is None else frozenset(faults)
    return Diagnoser(registry, caps=caps_of(claims), faults=declared)


__all__ = ["WORK_BUDGET", "Diagnoser", "diagnoser", "replay", "same", "summarize_inputs"]
