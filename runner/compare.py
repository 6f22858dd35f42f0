"""One way to decide whether two values are the same, whoever asks.

Six rooms of the engine ask it, each with rules of its own, written as a :class:`Policy`
beside the room that uses it:

* the judge: a measured value against a claim's expected value (plain data), by the
  claim's tolerance (``exact`` or ``close``);
* ``matches_reference``: an implementation's outcome against the pack's reference;
* diagnosis: a learner's outcome against the reference's or a twin's ("reproduces");
* drift: committed evidence against a fresh run (JSON data, by precision class);
* submissions: the ``expected`` a learner copied against the pack's;
* a call's arguments against the copy taken before it (:data:`UNCHANGED`), both where the
  judge runs the pack's functions and in the learner's worker.

One walker (:func:`differences`) goes through both values together: a :class:`Raised`
outcome, dicts, lists and tuples, NumPy arrays and scalars. What differs between the rooms
is data: the :class:`Tolerance` two numbers must meet, what a non-finite number agrees with,
which types stand for which (a list for an array, an ``int`` for a float), and which keys a
dict must hold. The walker answers with :class:`Difference` records (where, what kind, the
two parts there, and for arrays which elements and how far); each room turns the first one
(or all of them) into what it reports: a detail code, a "why", a gap shown to a learner, a
yes or no.

This module imports NumPy and the standard library only: the learner's worker imports it
(the worker holds nothing of the judge).
"""

from __future__ import annotations

import abc
import functools
import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from runner.kinds import BOOLS, INTS, REALS, SEQUENCES

# Python's own scalars, exactly (not a subclass, not NumPy's): never a container, an array or
# a Raised, so a pair of them goes straight to the scalar rules
_PLAIN_SCALARS = frozenset({int, float, bool, str, type(None)})

Kind = Literal[
    "raised",  # one side raised and the other did not, or they raised different errors
    "type",  # the types (or containers) differ: the values may still be equal
    "keys",  # dicts with different keys
    "missing_key",  # a key the expected dict has and the actual one lacks
    "length",  # sequences of different lengths
    "shape",  # arrays of different shapes
    "dtype",  # arrays whose dtypes the policy does not let stand for each other
    "value",  # the numbers (or other values) differ
    "not_finite",  # a NaN or an infinity where the policy does not allow one
]
Step = tuple[Literal["key", "index"], Any]  # into a dict by key, into a sequence by position


@dataclass(frozen=True)
class Raised:
    """A call that raised. ``names`` holds the class and its bases, so a tolerance of
    ``raises: ValueError`` also accepts a subclass."""

    error: str
    message: str
    names: tuple[str, ...]

    def __str__(self) -> str:
        return f"raised {self.error}: {self.message}" if self.message else f"raised {self.error}"


# -- tolerances: how far apart two finite numbers may be -----------------------------------
class Tolerance(abc.ABC):
    """How far two finite numbers may be apart, read as float64 (``bound``, for one pair;
    ``bounds``, for the finite elements of two float arrays of one shape)."""

    # two integers (Python or NumPy, not bools) compare exactly, whatever the bound
    integers_exactly: bool = True
    # an exact zero agrees only with an exact zero
    zeros_apart: bool = False

    @abc.abstractmethod
    def bound(self, expected: float, actual: float, dtype: np.dtype[Any], index: Any) -> float:
        """The deviation allowed between ``actual`` and ``expected`` (``index``: the
        element's position in a flat list, where a bound is given per element)."""

    @abc.abstractmethod
    def bounds(
        self, expected: np.ndarray[Any, Any], actual: np.ndarray[Any, Any], finite: Any, dtype: Any
    ) -> Any:
        """The bound at each element where both are finite, as an array of those elements
        in order, or one number for all. ``expected`` and ``actual`` are the whole arrays,
        flat, as float64; ``finite`` selects those elements (a mask, or ``slice(None)``
        when every element is finite); ``dtype`` is the expected's."""


@dataclass(frozen=True)
class Exact(Tolerance):
    """Equal. Numbers compare as Python compares them (an ``int`` and a ``float`` exactly)."""

    def bound(self, expected: float, actual: float, dtype: np.dtype[Any], index: Any) -> float:
        return 0.0

    def bounds(self, expected: Any, actual: Any, finite: Any, dtype: Any) -> Any:
        return 0.0


@dataclass(frozen=True)
class Close(Tolerance):
    """``|actual − expected| ≤ max(abs, rel · |expected|)``; a bound may be a list, one per
    element of a flat list (the element's position picks it). Integers too."""

    abs: float | list[float] | None = None
    rel: float | list[float] | None = None
    integers_exactly: bool = False

    def bound(self, expected: float, actual: float, dtype: np.dtype[Any], index: Any) -> float:
        return max(_pick(self.abs, index), _pick(self.rel, index) * abs(expected))

    def bounds(self, expected: Any, actual: Any, finite: Any, dtype: Any) -> Any:
        absolute = _picks(self.abs, finite)
        relative = _picks(self.rel, finite)
        return np.maximum(absolute, relative * np.abs(expected[finite]))


def _pick(bound: float | list[float] | None, index: Any) -> float:
    if bound is None:
        return 0.0
    if isinstance(bound, list):
        return bound[index if isinstance(index, int) else 0]
    return bound


def _picks(bound: float | list[float] | None, finite: Any) -> Any:
    if isinstance(bound, list):
        return np.asarray(bound, dtype=np.float64)[finite]
    return 0.0 if bound is None else bound


@dataclass(frozen=True)
class Near(Tolerance):
    """``|actual − expected| ≤ max(rel · max(|actual|, |expected|), abs)`` (as
    ``math.isclose`` says it); integers exactly unless told otherwise."""

    rel: float = 0.0
    abs: float = 0.0
    integers_exactly: bool = True

    def bound(self, expected: float, actual: float, dtype: np.dtype[Any], index: Any) -> float:
        return max(self.rel * max(abs(expected), abs(actual)), self.abs)

    def bounds(self, expected: Any, actual: Any, finite: Any, dtype: Any) -> Any:
        largest = np.maximum(np.abs(expected[finite]), np.abs(actual[finite]))
        return np.maximum(self.rel * largest, self.abs)


@dataclass(frozen=True)
class Scaled(Tolerance):
    """``|actual − expected| ≤ atol + rtol · |expected|``; for an array, one bound for every
    element, scaled by the largest finite |expected|. ``by_dtype`` replaces ``rtol`` for
    results of that dtype (a Python float is float64)."""

    rtol: float
    atol: float = 0.0
    by_dtype: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        bounds = (self.rtol, self.atol)
        if not all(math.isfinite(b) for b in bounds) or self.rtol < 0 or self.atol < 0:
            raise ValueError("rtol and atol must be finite and >= 0")

    def rtol_for(self, dtype: np.dtype[Any]) -> float:
        return self.by_dtype.get(dtype.name, self.rtol)

    def bound(self, expected: float, actual: float, dtype: np.dtype[Any], index: Any) -> float:
        return self.atol + self.rtol_for(dtype) * abs(expected)

    def bounds(self, expected: Any, actual: Any, finite: Any, dtype: Any) -> Any:
        return self.atol + self.rtol_for(dtype) * _largest_finite(expected, finite)


def _largest_finite(values: np.ndarray[Any, Any], finite: Any) -> float:
    """The largest finite magnitude in ``values`` (all of them finite when ``finite`` is a
    slice: see :meth:`Tolerance.bounds`)."""
    if not isinstance(finite, slice):
        values = values[np.isfinite(values)]
    return float(np.max(np.abs(values)))


# Cancellation leaves errors of a few ulps of the largest term, whatever the element's size.
CANCELLATION_ULPS = 16


@functools.cache
def _eps(dtype: np.dtype[Any]) -> float:
    return float(np.finfo(dtype).eps)


@dataclass(frozen=True)
class Reproduces(Tolerance):
    """One computation reproducing another: within ``sqrt(eps)`` relative, plus
    :data:`CANCELLATION_ULPS` ``eps`` of the largest magnitude compared (values that come
    out of cancellation), never more than ``caps[dtype]`` times the largest finite
    |expected| (a real number takes the float64 cap, whatever its width); ``eps`` is the
    expected's dtype's. An exact zero agrees only with an exact zero."""

    caps: Mapping[str, float]
    zeros_apart: bool = True

    def bound(self, expected: float, actual: float, dtype: np.dtype[Any], index: Any) -> float:
        eps = _eps(dtype)
        largest = max(abs(actual), abs(expected))
        own = math.sqrt(eps) * largest + CANCELLATION_ULPS * eps * largest
        return min(own, self.caps["float64"] * abs(expected))

    def bounds(self, expected: Any, actual: Any, finite: Any, dtype: Any) -> Any:
        eps = _eps(dtype)
        cap = self.caps.get(dtype.name, self.caps["float64"])
        fx, fy = np.abs(actual[finite]), np.abs(expected[finite])
        scale = float(max(fx.max(), fy.max()))
        ours = _largest_finite(expected, finite)
        own = math.sqrt(eps) * np.maximum(fx, fy) + CANCELLATION_ULPS * eps * scale
        return np.minimum(own, cap * ours)


@dataclass(frozen=True)
class Identical(Tolerance):
    """The very same value: arrays byte for byte (so NaN equals itself), anything else the
    same object or of one type and ``==``."""

    def bound(self, expected: float, actual: float, dtype: np.dtype[Any], index: Any) -> float:
        return 0.0

    def bounds(self, expected: Any, actual: Any, finite: Any, dtype: Any) -> Any:
        return 0.0


# -- a policy: the rules one room compares by ------------------------------------------------
@dataclass(frozen=True)
class Policy:
    """The rules one room compares values by; every field is data.

    ``numbers``: which scalar types stand for which. ``typed``: only the same type;
    ``values``: an ``int`` and a ``float`` are numbers alike, a bool is not a number;
    ``counts``: an expected integer must come back an integer (Python or NumPy, never a
    float or a bool), an expected real number takes an integer or a float.

    ``nonfinite``: what a NaN or an infinity agrees with. ``never``: nothing, itself
    included; ``same_inf``: an infinity the same infinity, NaN nothing; ``same``: NaN NaN
    too. ``keys``: ``same`` (the same keys), ``expected`` (the expected's keys, others
    ignored) or ``none`` (dicts are not values this room compares). ``sequences``: what
    stands for an expected list or tuple: ``same_type``, or ``or_array`` (either, or an
    array, element by element along its first axis).
    ``lists_as_arrays``: a list standing for an expected array: ``never``; ``float64``,
    only for a float64 array; ``numbers``, read as float64 or, for an integer array and a
    list of integers, int64. ``dtypes``: ``same``, or ``any_integer`` (an integer array
    takes any integer dtype). ``zero_d``: a 0-d array read as its scalar: ``keep``,
    ``actual`` (the actual's, where the expected is not an array) or ``both``. ``raised``:
    two raised outcomes agree when the actual's error is the expected's or a subclass of it
    (None), or when the actual's is of the family named (whatever the expected raised).
    A finite number never agrees with an expected NaN or infinity, whatever the tolerance:
    an infinite bound (rtol·|inf|) would let any finite number stand for the reference's
    +inf (a learner's NLL that clips log 0 instead of returning inf).
    """

    tolerance: Tolerance
    numbers: Literal["typed", "values", "counts"] = "typed"
    nonfinite: Literal["never", "same_inf", "same"] = "never"
    keys: Literal["same", "expected", "none"] = "same"
    sequences: Literal["same_type", "or_array"] = "same_type"
    lists_as_arrays: Literal["never", "float64", "numbers"] = "never"
    dtypes: Literal["same", "any_integer"] = "same"
    zero_d: Literal["keep", "actual", "both"] = "keep"
    raised: str | None = None


# Whether a call left an argument as it found it (the registry's and the worker's rule).
UNCHANGED = Policy(Identical())


# -- what the walker answers -------------------------------------------------------------------
@dataclass(frozen=True)
class Elements:
    """The elements of two arrays of one shape that differ (positions in C order)."""

    first: tuple[int, ...]  # the first that differs
    count: int  # how many differ
    not_finite: int = 0  # how many of them differ by a NaN or an infinity
    first_not_finite: tuple[int, ...] | None = None
    worst: tuple[int, ...] | None = None  # of the finite elements, the furthest apart
    deviation: float = 0.0  # |actual − expected| there
    allowed: float = 0.0  # what the tolerance allowed there


@dataclass(frozen=True)
class Difference:
    """Where two values part (``path``, from the top), how (``kind``), and the two parts
    there; ``read_as`` is the array the actual was read as (a list written out), ``allowed``
    the deviation the tolerance allowed two numbers, ``elements`` which elements of two
    arrays differ."""

    path: tuple[Step, ...]
    kind: Kind
    expected: Any
    actual: Any
    read_as: np.ndarray[Any, Any] | None = None
    allowed: float | None = None
    elements: Elements | None = None


def differences(expected: Any, actual: Any, policy: Policy) -> list[Difference]:
    """Every place where ``actual`` departs from ``expected``, depth first (a container
    that differs as a whole is not entered)."""
    out: list[Difference] = []
    _Walk(policy, out, every=True).walk(expected, actual)
    return out


def first_difference(expected: Any, actual: Any, policy: Policy) -> Difference | None:
    """Where ``actual`` first departs from ``expected``; None when it does not."""
    out: list[Difference] = []
    _Walk(policy, out, every=False).walk(expected, actual)
    return out[0] if out else None


def same(expected: Any, actual: Any, policy: Policy) -> bool:
    """Whether ``actual`` agrees with ``expected`` under ``policy``."""
    return first_difference(expected, actual, policy) is None


def unchanged(before: Any, after: Any) -> bool:
    """Whether ``after`` is ``before`` unchanged (:data:`UNCHANGED`)."""
    return first_difference(before, after, UNCHANGED) is None


# -- the walker -------------------------------------------------------------------------------
def _is_bool(x: Any) -> bool:
    return isinstance(x, BOOLS)


def _is_int(x: Any) -> bool:
    return isinstance(x, INTS) and not isinstance(x, bool)


def _is_real(x: Any) -> bool:
    return isinstance(x, REALS)


def _as_float(x: Any) -> float | None:
    """A number as a Python float; None for an integer that cannot meet a float (beyond
    1023 bits, as the claim files' numbers are bounded)."""
    if isinstance(x, int) and x.bit_length() > 1023:
        return None
    return float(x)


_FLOAT64 = np.dtype(np.float64)


class _Walk:
    """One walk through two values together, recording differences in ``out`` (all of them,
    or until the first when not ``every``); ``path`` is where it is."""

    def __init__(self, policy: Policy, out: list[Difference], every: bool) -> None:
        self.policy = policy
        self.tol = policy.tolerance
        self.identical = isinstance(self.tol, Identical)
        self.out = out
        self.every = every
        self.path: list[Step] = []

    def differ(self, kind: Kind, expected: Any, actual: Any, **more: Any) -> bool:
        """Record a difference here; True when the walk is to stop."""
        self.out.append(Difference(tuple(self.path), kind, expected, actual, **more))
        return not self.every

    def walk(self, e: Any, a: Any) -> bool:
        """Compare ``e`` and ``a`` here; True when the walk is to stop."""
        if type(e) in _PLAIN_SCALARS and type(a) in _PLAIN_SCALARS:
            return self.scalar(e, a)  # none of the cases below: the most common pair, first
        policy = self.policy
        if (isinstance(e, Raised) or isinstance(a, Raised)) and not self.identical:
            return self.raised(e, a)
        # a 0-d array is its scalar: the actual's where the expected is not an array, or both
        zero_d = policy.zero_d
        if zero_d == "both" or (zero_d == "actual" and not isinstance(e, np.ndarray)):
            if isinstance(a, np.ndarray) and a.ndim == 0:
                a = a[()]
            if isinstance(e, np.ndarray) and e.ndim == 0:
                e = e[()]
        if isinstance(e, dict) or isinstance(a, dict):
            return self.mapping(e, a)
        if isinstance(e, np.ndarray):
            return self.array(e, a)
        if isinstance(e, SEQUENCES):
            return self.sequence(e, a)
        return self.scalar(e, a)

    def raised(self, e: Any, a: Any) -> bool:
        if isinstance(e, Raised) and isinstance(a, Raised):
            family = self.policy.raised
            if family is None:
                if a.error == e.error or e.error in a.names:
                    return False  # the same exception, or a subclass of it
            elif family in a.names:
                return False
        return self.differ("raised", e, a)

    def mapping(self, e: Any, a: Any) -> bool:
        keys = self.policy.keys
        if keys == "none" or not (isinstance(e, dict) and isinstance(a, dict)):
            return self.differ("type", e, a)
        if keys == "same" and e.keys() != a.keys():
            return self.differ("keys", e, a)
        for key, value in e.items():
            self.path.append(("key", key))
            missing = key not in a
            stop = self.differ("missing_key", value, None) if missing else self.walk(value, a[key])
            self.path.pop()
            if stop:
                return True
        return False

    def sequence(self, e: list[Any] | tuple[Any, ...], a: Any) -> bool:
        if self.policy.sequences == "same_type":
            fits = type(a) is type(e)
        else:
            fits = isinstance(a, SEQUENCES) or (isinstance(a, np.ndarray) and a.ndim >= 1)
        if not fits:
            return self.differ("type", e, a)
        items = list(a)
        if len(items) != len(e):
            return self.differ("length", e, a)
        for i, (x, y) in enumerate(zip(e, items, strict=True)):
            self.path.append(("index", i))
            stop = self.walk(x, y)
            self.path.pop()
            if stop:
                return True
        return False

    # -- arrays ------------------------------------------------------------------------------
    def array(self, e: np.ndarray[Any, Any], a: Any) -> bool:
        policy = self.policy
        if isinstance(a, np.ndarray):
            got: np.ndarray[Any, Any] | None = a
        elif isinstance(a, list) and policy.lists_as_arrays != "never":
            got = _read_list(a, e.dtype, policy.lists_as_arrays)
        else:
            got = None
        if got is None:
            return self.differ("type", e, a)
        if got.shape != e.shape:
            return self.differ("shape", e, a, read_as=got)
        any_integer = policy.dtypes == "any_integer" and e.dtype.kind in "iu"
        fits = got.dtype.kind in "iu" if any_integer else got.dtype == e.dtype
        if not fits:
            return self.differ("dtype", e, a, read_as=got)
        if self.identical:
            if got.tobytes() == e.tobytes():
                return False
            return self.differ("value", e, a, read_as=got)
        if e.dtype.kind == "f":
            elements = self.float_elements(e, got)
        elif e.dtype.kind in "iub":  # ids, counts and flags: exactly
            elements = _exact_elements(e, got)
        else:  # not numbers (not what the chapter's functions return): equal values
            if np.array_equal(got, e):
                return False
            return self.differ("value", e, a, read_as=got)
        if elements is None:
            return False
        kind: Kind = "not_finite" if elements.not_finite else "value"
        return self.differ(kind, e, a, read_as=got, elements=elements)

    def float_elements(self, e: np.ndarray[Any, Any], got: np.ndarray[Any, Any]) -> Elements | None:
        with np.errstate(all="ignore"):
            # the common case first: equal element by element (NaN is not) and, where
            # infinities meet nothing, finite: no tolerance can refuse that
            if np.array_equal(got, e) and (
                self.policy.nonfinite != "never" or bool(np.isfinite(e).all())
            ):
                return None
            y = np.asarray(e, dtype=np.float64).reshape(-1)  # (n,) expected
            x = np.asarray(got, dtype=np.float64).reshape(-1)  # (n,) actual
            fx, fy = np.isfinite(x), np.isfinite(y)
            finite: Any = slice(None)  # the elements where both are finite: all, mostly
            nonfinite = None
            if not (fx.all() and fy.all()):
                finite = fx & fy
                nonfinite = ~finite & ~_nonfinite_agree(x, y, self.policy.nonfinite)
            deviation = np.abs(x - y)
            bound: Any = 0.0
            misses = np.zeros(x.shape, dtype=bool) if nonfinite is None else nonfinite.copy()
            some_finite = nonfinite is None or bool(finite.any())
            if some_finite:
                bound = self.tol.bounds(y, x, finite, e.dtype)
                off = deviation[finite] > bound
                if self.tol.zeros_apart:
                    off |= (x[finite] == 0) != (y[finite] == 0)
                misses[finite] |= off
            if not misses.any():
                return None
            shape = e.shape
            worst = None
            worst_deviation = allowed = 0.0
            if some_finite:
                if nonfinite is None:
                    w = k = int(np.argmax(deviation))
                else:  # the first largest of the finite ones, and its place among them
                    w = int(np.argmax(np.where(finite, deviation, -1.0)))
                    k = int(np.count_nonzero(finite[:w]))
                worst = _position(w, shape)
                worst_deviation = float(deviation[w])
                allowed = float(bound if np.ndim(bound) == 0 else bound[k])
            first_nonfinite = None
            if nonfinite is not None and nonfinite.any():
                first_nonfinite = _position(int(np.argmax(nonfinite)), shape)
            return Elements(
                first=_position(int(np.argmax(misses)), shape),
                count=int(np.count_nonzero(misses)),
                not_finite=0 if nonfinite is None else int(np.count_nonzero(nonfinite)),
                first_not_finite=first_nonfinite,
                worst=worst,
                deviation=worst_deviation,
                allowed=allowed,
            )

    # -- scalars -----------------------------------------------------------------------------
    def scalar(self, e: Any, a: Any) -> bool:
        if self.identical:
            if a is e or (type(a) is type(e) and bool(e == a)):
                return False
            return self.differ("type" if type(a) is not type(e) else "value", e, a)
        numbers = self.policy.numbers
        if numbers == "typed" and type(a) is not type(e):
            return self.differ("type", e, a)
        if _is_bool(e) or _is_bool(a):
            if not (_is_bool(e) and _is_bool(a)):
                return self.differ("type", e, a)
            return False if bool(e) == bool(a) else self.differ("value", e, a)
        e_int, a_int = _is_int(e), _is_int(a)
        e_number, a_number = e_int or _is_real(e), a_int or _is_real(a)
        if e_number or a_number:
            if not (e_number and a_number) or (numbers == "counts" and e_int and not a_int):
                return self.differ("type", e, a)
            if e_int and a_int and (numbers == "counts" or self.tol.integers_exactly):
                return False if e == a else self.differ("value", e, a)
            return self.real(e, a)
        if type(a) is not type(e):
            return self.differ("type", e, a)
        return False if bool(e == a) else self.differ("value", e, a)

    def real(self, e: Any, a: Any) -> bool:
        fe, fa = _as_float(e), _as_float(a)
        if fe is None or fa is None:  # an integer too large for a float meets only itself
            if _is_int(e) and _is_int(a) and e == a:
                return False
            return self.differ("not_finite" if fa is None else "value", e, a)
        dtype = e.dtype if isinstance(e, np.floating) else _FLOAT64
        index = self.path[-1][1] if self.path else None
        if not (math.isfinite(fe) and math.isfinite(fa)):
            if _nonfinite_pair(fe, fa, self.policy.nonfinite):
                return False
            if not math.isfinite(fa):
                return self.differ("not_finite", e, a, allowed=self.tol.bound(fe, fa, dtype, index))
            return self.differ("value", e, a, allowed=self.tol.bound(fe, fa, dtype, index))
        if isinstance(self.tol, Exact):
            if e == a:
                return False
            return self.differ("value", e, a, allowed=0.0)
        allowed = self.tol.bound(fe, fa, dtype, index)
        off = abs(fa - fe) > allowed
        if self.tol.zeros_apart:
            off = off or (fa == 0) != (fe == 0)
        return self.differ("value", e, a, allowed=allowed) if off else False


def _nonfinite_pair(e: float, a: float, rule: str) -> bool:
    """Whether two numbers, one of them NaN or infinite, agree under ``rule``."""
    if rule == "never":
        return False
    if math.isinf(e) and a == e:
        return True
    return rule == "same" and math.isnan(e) and math.isnan(a)


def _nonfinite_agree(x: Any, y: Any, rule: str) -> Any:
    """Where two float arrays' elements agree by ``rule`` (see :func:`_nonfinite_pair`)."""
    if rule == "never":
        return np.zeros(x.shape, dtype=bool)
    agree = (x == y) & np.isinf(y)
    if rule == "same":
        agree |= np.isnan(x) & np.isnan(y)
    return agree


def _exact_elements(e: np.ndarray[Any, Any], got: np.ndarray[Any, Any]) -> Elements | None:
    misses = np.asarray(got != e).reshape(-1)
    if not misses.any():
        return None
    return Elements(first=_position(int(np.argmax(misses)), e.shape), count=int(misses.sum()))


def _position(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """An element's position in an array of ``shape`` from its place in C order."""
    out = []
    for n in reversed(shape):
        flat, i = divmod(flat, n)
        out.append(i)
    return tuple(reversed(out))


def _read_list(items: list[Any], dtype: np.dtype[Any], rule: str) -> np.ndarray[Any, Any] | None:
    """A (nested) list of numbers as the array it writes out, None when it is not one.

    ``float64``: only where a float64 array is expected, read as float64. ``numbers``: ids
    stay integers: where an integer array is expected, a list of Python or NumPy ints is
    read as int64, and a list holding a float or a bool as float64 (which the dtype rule
    then refuses); elsewhere numbers are read as float64."""
    if rule == "float64" and dtype != _FLOAT64:
        return None
    ids = (
        rule == "numbers"
        and dtype.kind in "iu"
        and all(isinstance(x, INTS) and not isinstance(x, bool) for x in leaves(items))
    )
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return np.asarray(items, dtype=np.int64 if ids else np.float64)
        except (TypeError, ValueError, OverflowError):  # ragged, not numbers, beyond int64
            return None


def leaves(v: Any) -> list[Any]:
    """The leaves of nested lists, in order; a loop, not recursion (a value nested 900 deep
    is a problem to report, not a RecursionError)."""
    found: list[Any] = []
    stack = [v]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        else:
            found.append(item)
    return found


__all__ = [
    "UNCHANGED",
    "Close",
    "Difference",
    "Elements",
    "Exact",
    "Identical",
    "Near",
    "Policy",
    "Raised",
    "Reproduces",
    "Scaled",
    "Tolerance",
    "differences",
    "first_difference",
    "leaves",
    "same",
    "unchanged",
]
