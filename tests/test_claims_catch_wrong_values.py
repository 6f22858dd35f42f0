"""Every claim passes on the reference, and every expectation would catch a wrong value.

A tolerance that is too loose (or a measure the judge cannot fail) makes a claim that
passes on anything. For each expectation of the real pack, this takes the value the
reference actually measured, breaks it in the ways a wrong implementation would (a little
beyond the tolerance, far beyond it, NaN, inf, a flipped boolean, one wrong element), and
asserts the judge fails every one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from typing import Any

import pytest

from runner import api
from runner.judge import allowed, judge
from runner.load import LoadedClaim
from runner.models import ClaimResult, Close, Exact, Expectation, Raises, Range
from runner.pack.outcome import Raised
from tests.conftest import MODULE

(PACK,) = api.load_claims([MODULE])
CLAIMS: dict[str, LoadedClaim] = {c.claim.id: c for c in PACK.claims}
EXPECTATIONS = [
    pytest.param(c.claim.id, i, id=f"{c.claim.id}:{e.measure}")
    for c in PACK.claims
    for i, e in enumerate(c.claim.expect)
]


@functools.cache
def reference_results() -> dict[str, ClaimResult]:
    """One run of the whole pack against the reference, through the core API."""
    run = api.run_packs([PACK], api.Reference(), api.RunOptions(faults=False))
    return {r.id: r for r in run.results}


def reference_result(claim_id: str) -> ClaimResult:
    return reference_results()[claim_id]


def test_the_pack_has_claims():
    assert len(CLAIMS) == len(PACK.claims) >= 17  # ids are unique
    assert len(EXPECTATIONS) >= 60


@pytest.mark.parametrize("claim_id", list(CLAIMS))
def test_claim_passes_on_the_reference(claim_id):
    result = reference_result(claim_id)
    assert result.status == "passed", (result.reason, result.measurements)
    assert [m.name for m in result.measurements] == [
        e.measure for e in CLAIMS[claim_id].claim.expect
    ]
    assert all(m.verdict == "passed" and m.detail is None for m in result.measurements)


# -- wrong values ------------------------------------------------------------------------
def _leaves(value: Any, path: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], Any]]:
    if isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    else:
        yield path, value


def _replace(value: Any, path: tuple[int, ...], new: Any) -> Any:
    if not path:
        return new
    out = list(value)
    out[path[0]] = _replace(value[path[0]], path[1:], new)
    return out


def _wrong_scalars(exp: Expectation, expected: Any, actual: Any, index: int | None) -> list[Any]:
    """Values a wrong implementation could produce in place of one scalar ``actual``."""
    tol = exp.tolerance
    if isinstance(actual, bool):
        return [not actual, int(actual)]  # flipped, or the right truth as a number
    if isinstance(actual, str):
        return [actual + "x", ""]
    assert isinstance(actual, int | float), f"unexpected measured type {type(actual)}"
    if isinstance(tol, Exact):
        if isinstance(actual, int):
            return [actual + 1, actual - 1, actual * 3 // 2 + 1, -actual - 1]
        return [
            math.nextafter(actual, math.inf),  # one ulp is already wrong
            math.nextafter(actual, -math.inf),
            actual * 1.5 + 1.0,
        ]
    if isinstance(tol, Close):
        width = allowed(expected, tol, index)
        bounds = [tol.abs, tol.rel]
        a = _at(bounds[0], index)
        r = _at(bounds[1], index)
        far = (a + r * abs(actual)) * 10 + 1
        out = [actual + far, actual - far]
        if width > 0:  # just outside the band around the expected value, on both sides
            out += [expected + 1.5 * width, expected - 1.5 * width]
        else:
            out += [math.nextafter(expected, math.inf), math.nextafter(expected, -math.inf)]
        return out
    if isinstance(tol, Range):
        out = []
        if tol.min is not None:
            out += [math.nextafter(tol.min, -math.inf), tol.min - abs(actual) - 1]
        if tol.max is not None:
            out += [math.nextafter(tol.max, math.inf), tol.max + abs(actual) + 1]
        return out
    raise AssertionError(f"no wrong values for {tol}")


def _at(bound: float | list[float] | None, index: int | None) -> float:
    if bound is None:
        return 0.0
    return bound[index or 0] if isinstance(bound, list) else bound


def wrong_values(exp: Expectation, actual: Any) -> list[Any]:
    """Each wrong value differs from ``actual`` in one place (or is the wrong kind)."""
    tol = exp.tolerance
    if isinstance(tol, Raises):
        assert isinstance(actual, Raised)
        other = "TypeError" if tol.error != "TypeError" else "ValueError"
        return [
            [0.999955, 4.54e-5, 9.36e-14],  # returned a distribution instead of raising
            [math.nan, math.nan, math.nan],  # returned the NaNs T = 0 produces
            0.0,
            None,
            Raised(other, "wrong error", (other, "Exception", "BaseException")),
        ]
    out: list[Any] = []
    if actual == []:  # an empty list expected: any element, or no list at all, is wrong
        return [["x"], [0], [[]], "", None, 0]
    leaves = list(_leaves(actual))
    expected_leaves = dict(_leaves(exp.value)) if exp.value is not None else {}
    per_row = isinstance(tol, Close) and (isinstance(tol.abs, list) or isinstance(tol.rel, list))
    for flat_index, (path, leaf) in enumerate(leaves):
        expected = expected_leaves.get(path)
        index = flat_index if per_row else None
        out += [_replace(actual, path, w) for w in _wrong_scalars(exp, expected, leaf, index)]
    if isinstance(tol, Range):
        return out  # a range has no shape: it judges every element, whatever their number
    if isinstance(actual, list):
        out += [actual[:-1], [*actual, actual[-1]], leaves[0][1]]  # a shape that differs
        if len(actual) > 1 and isinstance(tol, Exact) and actual[0] != actual[-1]:
            out.append([actual[-1], *actual[1:-1], actual[0]])  # the right values, misplaced
    else:
        out.append([actual])
    return out


def non_finite_values(actual: Any) -> list[Any]:
    out: list[Any] = []
    for bad in (math.nan, math.inf, -math.inf):
        out.append(bad)
        out += [_replace(actual, path, bad) for path, _ in _leaves(actual) if path]
    return out


def _expectation(claim_id: str, i: int) -> tuple[Expectation, Any]:
    exp = CLAIMS[claim_id].claim.expect[i]
    measured = reference_result(claim_id).measurements[i]
    assert measured.name == exp.measure
    return exp, measured.actual


@pytest.mark.parametrize(("claim_id", "i"), EXPECTATIONS)
def test_expectation_fails_on_wrong_values(claim_id, i):
    exp, actual = _expectation(claim_id, i)
    assert judge(exp, actual) == ("passed", None)
    wrong = wrong_values(exp, actual)
    assert wrong
    passed = [w for w in wrong if judge(exp, w)[0] != "failed"]
    assert not passed, f"{exp.measure} ({exp.tolerance}) accepts wrong values {passed}"


@pytest.mark.parametrize(("claim_id", "i"), EXPECTATIONS)
def test_expectation_fails_on_nan_and_inf(claim_id, i):
    exp, actual = _expectation(claim_id, i)
    passed = [w for w in non_finite_values(actual) if judge(exp, w)[0] != "failed"]
    assert not passed, f"{exp.measure} ({exp.tolerance}) accepts {passed}"


CLOSE_EXPECTATIONS = [
    p
    for p in EXPECTATIONS
    if isinstance(CLAIMS[p.values[0]].claim.expect[p.values[1]].tolerance, Close)
]


@pytest.mark.parametrize(("claim_id", "i"), CLOSE_EXPECTATIONS)
def test_close_tolerance_is_narrow(claim_id, i):
    """The wrong values above are built from the tolerance, so they cannot tell a loose
    tolerance from a tight one; this can: no band is wider than 1% of its value (or 1e-6
    around an expected 0)."""
    exp = CLAIMS[claim_id].claim.expect[i]
    tol = exp.tolerance
    assert isinstance(tol, Close)
    per_row = isinstance(tol.abs, list) or isinstance(tol.rel, list)
    for index, (_, e) in enumerate(_leaves(exp.value)):
        width = allowed(e, tol, index if per_row else None)
        assert width <= (0.01 * abs(e) if e else 1e-6), (e, width)
