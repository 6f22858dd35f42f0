"""The comparison engine: one walker, the rules of each room that asks it as a policy.

A table of cases per policy (the rules that differ between the rooms, side by side), what
the walker says about where two values part, and properties for any data: a value equals
itself under every policy except where NaN never equals anything, NaN and infinities never
meet a claim's tolerance, and the engine's answers agree with each other.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner.compare import (
    UNCHANGED,
    Policy,
    Raised,
    differences,
    first_difference,
    leaves,
    same,
    unchanged,
)
from runner.diagnose import reproduction
from runner.judge import CLAIM_EXACT, claim_policy, judge
from runner.models import Expectation
from runner.models.claims import Close
from runner.pack.contract import agreement
from runner.record.drift import PRECISION
from runner.submission.metrics import COPIED

NAN, INF = math.nan, math.inf
VALUE_ERROR = Raised("ValueError", "bad", ("ValueError", "Exception", "BaseException"))
SUBCLASS = Raised("DomainError", "", ("DomainError", "ValueError", "Exception", "BaseException"))
TYPE_ERROR = Raised("TypeError", "t", ("TypeError", "Exception", "BaseException"))
CLOSE = claim_policy(Close(kind="close", abs=0.1))
CLOSE_ROWS = claim_policy(Close(kind="close", abs=[0.1, 1.0]))
CLOSE_INT = claim_policy(Close(kind="close", abs=5))
CONTRACT = agreement(1e-9)
CONTRACT_F32 = agreement(1e-9, dtype_rtol={"float32": 2e-6})
REPRODUCES = reproduction()
POLICIES: dict[str, Policy] = {
    "claim exact": CLAIM_EXACT,
    "claim close": CLOSE,
    "contract": CONTRACT,
    "reproduces": REPRODUCES,
    **{f"drift {kind}": policy for kind, policy in PRECISION.items()},
    "copied": COPIED,
    "unchanged": UNCHANGED,
}
A = np.array
SAME_NAN = NAN  # one object: the same object is unchanged, whatever it holds


# (policy, expected, actual, the kind of the first difference or None)
CASES: list[tuple[str, Policy, Any, Any, str | None]] = [
    # a claim's expected value: numbers by value, a bool is not a number, NaN meets nothing
    ("int and float", CLAIM_EXACT, 3, 3.0, None),
    ("bool is no number", CLAIM_EXACT, True, 1, "type"),
    ("number is no bool", CLAIM_EXACT, 1, True, "type"),
    ("strings", CLAIM_EXACT, "ab", "ab", None),
    ("none", CLAIM_EXACT, None, None, None),
    ("no dicts", CLAIM_EXACT, {"a": 1}, {"a": 1}, "type"),
    ("length", CLAIM_EXACT, [1, 2], [1, 2, 3], "length"),
    ("list for a number", CLAIM_EXACT, 1, [1], "type"),
    ("nan", CLAIM_EXACT, 1.0, NAN, "not_finite"),
    ("inf", CLAIM_EXACT, 1.0, INF, "not_finite"),
    ("exact mixed", CLAIM_EXACT, 2**53 + 1, float(2**53), "value"),
    ("within abs", CLOSE, 1.0, 1.05, None),
    ("beyond abs", CLOSE, 1.0, 1.2, "value"),
    ("integers by the bound", CLOSE_INT, 100, 103, None),
    ("per-element bound", CLOSE_ROWS, [1.0, 1.0], [1.05, 1.5], None),
    ("per-element bound, first", CLOSE_ROWS, [1.0, 1.0], [1.5, 1.05], "value"),
    ("1024-bit integer", CLOSE, 1e308, int(1e308), "not_finite"),
    # the contract: a list writes out an array, ids stay integers, counts are integers
    ("float list", CONTRACT, A([1.0, 2.0]), [1.0, 2.0], None),
    ("id list", CONTRACT, A([1, 2]), [1, 2], None),
    ("ids as floats", CONTRACT, A([1, 2]), [1.0, 2.0], "dtype"),
    ("any integer dtype", CONTRACT, np.arange(3), np.arange(3, dtype=np.int32), None),
    ("float dtype kept", CONTRACT, A([1.0]), A([1.0], dtype=np.float32), "dtype"),
    ("ragged list", CONTRACT, A([[1.0, 2.0]]), [[1.0], [2.0, 3.0]], "type"),
    ("shape", CONTRACT, np.zeros((2, 3)), np.zeros((3, 2)), "shape"),
    ("beyond rtol", CONTRACT, A([1.0, 2.0]), A([1.0, 2.0 + 1e-6]), "value"),
    ("scaled by the largest", CONTRACT, A([1.0, 1e-20]), A([1.0, 0.0]), None),
    ("float32 rtol", CONTRACT_F32, A([1.0], dtype=np.float32), A([1.000001], np.float32), None),
    ("not finite", CONTRACT, A([1.0, 2.0]), A([1.0, NAN]), "not_finite"),
    ("same inf", CONTRACT, A([INF]), A([INF]), None),
    ("nan is no nan", CONTRACT, A([NAN]), A([NAN]), "not_finite"),
    ("count as float", CONTRACT, 3, 3.0, "type"),
    ("numpy count", CONTRACT, 3, np.int64(3), None),
    ("bool count", CONTRACT, 3, True, "type"),
    ("integer real", CONTRACT, 1.0, 1, None),
    ("0-d array", CONTRACT, 2.0, A(2.0), None),
    ("scalar inf", CONTRACT, INF, INF, None),
    ("finite for inf", CONTRACT, INF, 1e300, "value"),  # never: rtol·inf would let it pass
    ("nan for inf", CONTRACT, INF, NAN, "not_finite"),
    ("extra keys", CONTRACT, {"a": 1}, {"a": 1, "b": 2}, None),
    ("missing key", CONTRACT, {"a": 1}, {"b": 1}, "missing_key"),
    ("tuples as lists", CONTRACT, [(1, 2)], [[1, 2]], None),
    ("pairs as an array", CONTRACT, [(1, 2)], A([[1, 2]]), None),
    ("a ValueError", CONTRACT, VALUE_ERROR, SUBCLASS, None),
    ("another error", CONTRACT, VALUE_ERROR, TYPE_ERROR, "raised"),
    ("no error", CONTRACT, VALUE_ERROR, 1.0, "raised"),
    # reproducing: NaN NaN, exact zeros apart, a list a float64 array only
    ("nan reproduces nan", REPRODUCES, A([NAN, INF]), A([NAN, INF]), None),
    ("inf and -inf", REPRODUCES, A([-INF]), A([INF]), "not_finite"),
    ("exact zeros", REPRODUCES, A([0.5, 0.0]), A([0.5, 1e-20]), "value"),
    ("cancellation", REPRODUCES, A([1.0, 3e-17]), A([1.0, -2e-17]), None),
    ("the caps", REPRODUCES, A([1.0]), A([1.0 + 5e-9]), "value"),
    ("float16 cap", REPRODUCES, A([1.0], np.float16), A([1.001], np.float16), None),
    ("list for floats", REPRODUCES, A([[1.0, 2.0]]), [[1.0, 2.0]], None),
    ("list for ids", REPRODUCES, A([1, 2]), [1, 2], "type"),
    ("array for a list", REPRODUCES, [1, 2], A([1, 2]), None),
    ("keys", REPRODUCES, {"m": 3}, {"n": 3}, "keys"),
    ("subclass", REPRODUCES, VALUE_ERROR, SUBCLASS, None),
    ("base class", REPRODUCES, SUBCLASS, VALUE_ERROR, "raised"),
    ("a real by an int", REPRODUCES, 7.0, 7, None),
    ("a count by a float", REPRODUCES, 7, 7.0, "type"),
    ("0-d both", REPRODUCES, A(0.5), np.float64(0.5), None),
    # drift: JSON data, by precision class
    ("exact types", PRECISION["exact"], 1, 1.0, "type"),
    ("exact inf", PRECISION["exact"], INF, INF, None),
    ("exact strings", PRECISION["exact"], "a", "b", "value"),
    ("nine digits", PRECISION["value"], 1.0, 1.0 + 1e-10, None),
    ("beyond nine digits", PRECISION["value"], 1.0, 1.0 + 1e-8, "value"),
    ("integers exactly", PRECISION["value"], 10**12, 10**12 + 1, "value"),
    ("an int for a float", PRECISION["value"], 3, 3.0, None),
    ("nan string", PRECISION["value"], "NaN", NAN, "type"),
    ("inf never", PRECISION["value"], INF, INF, "not_finite"),
    ("residue", PRECISION["residue"], 0.0, 1e-13, None),
    ("beyond residue", PRECISION["residue"], 0.0, 1e-11, "value"),
    ("memory", PRECISION["memory"], 1000, 1200, None),
    ("beyond memory", PRECISION["memory"], 1000, 1400, "value"),
    ("json keys", PRECISION["value"], {"a": 1}, {"a": 1, "b": 2}, "keys"),
    # a copied expected value: twelve digits
    ("twelve digits", COPIED, 0.1, 0.1 * (1 + 1e-13), None),
    ("beyond twelve digits", COPIED, 0.1, 0.1 * (1 + 1e-11), "value"),
    ("a range", COPIED, {"min": 1.0, "max": None}, {"min": 1.0, "max": None}, None),
    # unchanged: the very same value
    ("nan bytes", UNCHANGED, A([NAN]), A([NAN]), None),
    ("negative zero", UNCHANGED, A([0.0]), A([-0.0]), "value"),
    ("list and tuple", UNCHANGED, [1], (1,), "type"),
    ("nested arrays", UNCHANGED, {"a": np.zeros(2)}, {"a": np.zeros(2)}, None),
    ("dtype", UNCHANGED, np.zeros(2), np.zeros(2, dtype=np.float32), "dtype"),
    ("array shape", UNCHANGED, np.zeros((2, 1)), np.zeros((1, 2)), "shape"),
    ("the same object", UNCHANGED, SAME_NAN, SAME_NAN, None),
    ("another nan", UNCHANGED, NAN, float("nan"), "value"),
    ("an int and a float", UNCHANGED, 1, 1.0, "type"),
    ("raised outcomes by ==", UNCHANGED, VALUE_ERROR, SUBCLASS, "value"),
]


@pytest.mark.parametrize(
    ("policy", "expected", "actual", "kind"),
    [pytest.param(p, e, a, k, id=name) for name, p, e, a, k in CASES],
)
def test_each_policy_decides_as_its_room_does(policy, expected, actual, kind):
    found = first_difference(expected, actual, policy)
    assert (found.kind if found else None) == kind
    assert same(expected, actual, policy) == (kind is None)


def test_a_difference_says_where_and_which_elements():
    ours = {"a": [1.0, np.array([[1.0, 2.0], [3.0, 4.0]])]}
    theirs = {"a": [1.0, np.array([[1.0, 2.0], [3.5, 4.0]])]}
    found = first_difference(ours, theirs, REPRODUCES)
    assert found is not None and found.kind == "value"
    assert found.path == (("key", "a"), ("index", 1))
    assert found.elements is not None
    assert (found.elements.first, found.elements.count) == ((1, 0), 1)


def test_the_contract_reports_the_worst_element_and_its_bound():
    ours = np.array([1.0, 2.0, 4.0])
    found = first_difference(ours, np.array([1.0 + 1e-8, 2.0, 4.0 + 1e-6]), CONTRACT)
    assert found is not None and found.elements is not None
    assert found.elements.first == (0,)  # the first outside the bound
    assert found.elements.worst == (2,)  # the furthest
    assert found.elements.allowed == pytest.approx(4e-9)
    assert found.elements.deviation == pytest.approx(1e-6)


def test_every_difference_is_listed_depth_first_without_entering_a_mismatched_container():
    found = differences([1, [2, 3], 4, [5]], [0, [2, 0], 4, 5], CLAIM_EXACT)
    assert [(d.path, d.kind) for d in found] == [
        ((("index", 0),), "value"),
        ((("index", 1), ("index", 1)), "value"),
        ((("index", 3),), "type"),
    ]


def test_the_worker_and_the_registry_share_one_rule_of_unchanged():
    before = (np.arange(3.0), [1, (2, 3)], {"k": np.array([NAN])})
    after = copy.deepcopy(before)
    assert unchanged(before, after)
    after[0][1] = -1.0
    assert not unchanged(before, after)


# -- properties -------------------------------------------------------------------------------
_FLOATS = st.floats(allow_nan=True, allow_infinity=True)
_FINITE = st.floats(allow_nan=False, allow_infinity=False)


def _array(elements: st.SearchStrategy[Any], dtype: Any) -> st.SearchStrategy[Any]:
    def make(values: list[Any]) -> Any:
        with np.errstate(all="ignore"):  # float16 overflows to inf, as it would
            return np.asarray(values, dtype=dtype)

    return st.lists(elements, max_size=6).map(make)


def _data(floats: st.SearchStrategy[float], arrays: bool, dicts: bool = True) -> Any:
    leaves = (
        st.none()
        | st.booleans()
        | st.integers(min_value=-(10**30), max_value=10**30)
        | floats
        | st.text(max_size=4)
    )
    if arrays:
        leaves = (
            leaves
            | _array(floats, np.float64)
            | _array(floats, np.float16)
            | _array(st.integers(-5, 5), np.int64)
        )

    def containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        out = st.lists(inner, max_size=4)
        if arrays:
            out = out | st.lists(inner, max_size=3).map(tuple)
        if dicts:
            out = out | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        return out

    return st.recursive(leaves, containers, max_leaves=12)


ANY = _data(_FLOATS, arrays=True) | st.sampled_from([VALUE_ERROR, SUBCLASS, TYPE_ERROR])
NO_NAN = _data(st.floats(allow_nan=False), arrays=True) | st.just(VALUE_ERROR)
JSON = _data(_FINITE, arrays=False)
CLAIM_VALUES = _data(_FINITE, arrays=False, dicts=False)


def _holds_nan(x: Any) -> bool:
    if isinstance(x, float):
        return math.isnan(x)
    if isinstance(x, np.ndarray):
        return x.dtype.kind == "f" and bool(np.isnan(x).any())
    if isinstance(x, dict):
        return any(_holds_nan(v) for v in x.values())
    if isinstance(x, list | tuple):
        return any(_holds_nan(v) for v in x)
    return False


@settings(max_examples=300, deadline=None)
@given(ANY)
def test_a_value_is_itself_where_nan_is_itself(x):
    assert same(x, x, REPRODUCES) and same(x, copy.deepcopy(x), REPRODUCES)
    assert unchanged(x, x)


@settings(max_examples=300, deadline=None)
@given(NO_NAN)
def test_a_value_without_nan_is_itself_where_infinities_are(x):
    assert same(x, x, CONTRACT)
    assert same(x, copy.deepcopy(x), CONTRACT)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_json_data_is_itself_under_every_precision(x):
    for policy in (*PRECISION.values(), COPIED):
        assert same(x, copy.deepcopy(x), policy)


@settings(max_examples=200, deadline=None)
@given(CLAIM_VALUES)
def test_a_claims_value_is_itself_by_its_tolerance(x):
    assert same(x, copy.deepcopy(x), CLAIM_EXACT)
    assert same(x, copy.deepcopy(x), CLOSE)


@settings(max_examples=300, deadline=None)
@given(ANY)
def test_nan_is_never_itself_where_the_policy_says_so(x):
    if _holds_nan(x):
        for name in ("claim exact", "contract", "drift exact", "drift value"):
            assert not same(x, copy.deepcopy(x), POLICIES[name]), name


def _expectation(value: Any, tolerance: dict[str, Any]) -> Expectation | None:
    data: dict[str, Any] = {"measure": "m", "tolerance": tolerance, "source": "test"}
    if tolerance["kind"] != "range":
        data["value"] = value
    try:
        return Expectation.model_validate(data)
    except ValueError:  # not a value this tolerance takes (a string for close, ...)
        return None


def _with_leaf(value: Any, index: int, leaf: float) -> Any:
    """``value`` with its ``index``-th leaf (depth first, modulo their number) replaced."""
    count = [0]
    total = len(leaves(value))
    if total == 0:  # an empty list: the bad number stands for all of it
        return leaf

    def walk(v: Any) -> Any:
        if isinstance(v, list):
            return [walk(x) for x in v]
        hit = count[0] == index % total
        count[0] += 1
        return leaf if hit else v

    return walk(value)


_TOLERANCES = st.sampled_from(
    [
        {"kind": "exact"},
        {"kind": "close", "abs": 1e300},
        {"kind": "close", "rel": 1e300},
        {"kind": "range", "min": -1e300, "max": 1e300},
        {"kind": "range", "min": -1e308},
    ]
)


@settings(max_examples=300, deadline=None)
@given(CLAIM_VALUES, _TOLERANCES, st.integers(0, 50), st.sampled_from([NAN, INF, -INF]))
def test_nan_and_infinities_never_meet_a_claims_tolerance(value, tolerance, index, bad):
    exp = _expectation(value, tolerance)
    if exp is None:
        return
    actual = _with_leaf(value if exp.value is not None else [0.0, [1.0]], index, bad)
    assert judge(exp, actual)[0] == "failed"
    assert judge(exp, np.float64(bad))[0] == "failed"


@settings(max_examples=300, deadline=None)
@given(ANY, ANY, st.sampled_from(sorted(POLICIES)))
def test_the_engines_answers_agree_with_each_other(a, b, name):
    policy = POLICIES[name]
    for ours, theirs in ((a, b), (b, a)):
        listed = differences(ours, theirs, policy)
        first = first_difference(ours, theirs, policy)
        assert (first is None) == (not listed) == same(ours, theirs, policy)
        if first is not None:
            assert (first.path, first.kind) == (listed[0].path, listed[0].kind)


@settings(max_examples=200, deadline=None)
@given(JSON, JSON)
def test_the_reproduction_precisions_are_symmetric(a, b):
    for kind in ("value", "residue", "memory"):
        assert same(a, b, PRECISION[kind]) == same(b, a, PRECISION[kind])
