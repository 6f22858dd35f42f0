"""The judge: one measured value against one expectation, for every kind of tolerance."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from runner.i18n import catalog
from runner.judge import judge
from runner.models import Expectation
from runner.numbers import show_expectation
from runner.pack.outcome import Raised, attempt

NAN, INF = math.nan, math.inf
NON_FINITE = [NAN, INF, -INF, np.float64(NAN), np.float32(INF), np.float16(-INF)]


def expect(kind: str, value: Any = None, unit: str | None = None, **tol: Any) -> Expectation:
    data: dict[str, Any] = {"measure": "m", "tolerance": {"kind": kind, **tol}, "source": "test"}
    if value is not None:
        data["value"] = value
    if unit is not None:
        data["unit"] = unit
    return Expectation.model_validate(data)


def verdict(exp: Expectation, actual: Any) -> str:
    return judge(exp, actual)[0]


def judged(exp: Expectation, actual: Any, lang: str = "en") -> tuple[str, str | None]:
    """The verdict and its reason in words: the judge returns the reason as data (a code
    and numbers); a reporter renders it in the reader's language."""
    outcome, detail = judge(exp, actual)
    return outcome, catalog(lang).say(detail.msg()) if detail else None  # type: ignore[arg-type]


def raised(exc: BaseException) -> Raised:
    def throw() -> None:
        raise exc

    result = attempt(throw)
    assert isinstance(result, Raised)
    return result


# -- exact --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "actual"),
    [
        (3, 3),
        (3, np.int64(3)),
        (0, 0),
        (123532032, 123532032),
        (3, 3.0),  # numbers compare by value; only booleans are kept apart from numbers
        (0.5, 0.5),
        (0.0, -0.0),
        (0.0, np.float16(0.0)),
        (True, True),
        (False, False),
        (False, np.bool_(False)),
        ("abc", "abc"),
        ([1, 2, 3], [1, 2, 3]),
        ([1, 2, 3], (1, 2, 3)),
        ([1, 2, 3], np.array([1, 2, 3])),
        ([1.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
        ([[0, 1, 2], [0, 1, 2]], [[0, 1, 2], [0, 1, 2]]),
        ([[0, 1], [2, 3]], np.arange(4).reshape(2, 2)),
        ([], []),
    ],
)
def test_exact_passes_on_equal_values(value, actual):
    assert judged(expect("exact", value), actual) == ("passed", None)


@pytest.mark.parametrize(
    ("value", "actual"),
    [
        (3, 4),
        (3, 3.0000000000000004),
        (0.0, 5e-324),  # the smallest subnormal is not 0
        (1.0, 1.0 - 2**-53),
        (True, 1),
        (1, True),
        (False, 0),
        (0, False),
        (True, 1.0),
        (0.0, False),
        (True, False),
        (False, True),
        (1, np.True_),
        ("abc", "abd"),
        ("3", 3),
        (3, "3"),
        ([1, 2, 3], [1, 2, 4]),
        ([1, 2, 3], [1, 2]),
        ([1, 2], [1, 2, 3]),
        ([1, 2, 3], []),
        ([1], 1),
        (1, [1]),
        ([[0, 1, 2], [0, 1, 2]], [[0, 1, 2], [0, 2, 1]]),
        ([[0, 1, 2], [0, 1, 2]], [[0, 1, 2]]),
        ([True, False], [1, 0]),
        (3, None),
    ],
)
def test_exact_fails_on_any_difference(value, actual):
    assert verdict(expect("exact", value), actual) == "failed"


def test_exact_explains_a_list_failure():
    assert judged(expect("exact", [1, 2, 3]), [1, 2, 4]) == (
        "failed",
        "1 of 3 elements outside (first at index 2)",
    )
    assert judged(expect("exact", [1, 2, 3]), [1, 2]) == ("failed", "expected 3 elements, got 2")
    assert judged(expect("exact", [1, 2]), 1) == ("failed", "expected a list")
    assert judged(expect("exact", 1), [1]) == ("failed", "expected a single value")


def test_exact_does_not_accept_a_raised_error():
    got = raised(ValueError("no"))
    assert judged(expect("exact", 1), got) == ("failed", "the call raised ValueError: no")


# -- close --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("tol", "value", "actual", "ok"),
    [
        # abs only: |a - e| <= abs, bounds inclusive (0.25 and 1.25 are exact in binary)
        ({"abs": 0.25}, 1.0, 1.0, True),
        ({"abs": 0.25}, 1.0, 1.25, True),
        ({"abs": 0.25}, 1.0, 0.75, True),
        ({"abs": 0.25}, 1.0, math.nextafter(1.25, 2.0), False),
        ({"abs": 0.25}, 1.0, math.nextafter(0.75, 0.0), False),
        ({"abs": 0.25}, 100.0, 100.5, False),  # abs does not scale with the value
        ({"abs": 0.005}, 4701.20, 4701.204, True),
        ({"abs": 0.005}, 4701.20, 4701.21, False),
        ({"abs": 0}, 2.0, 2.0, True),
        ({"abs": 0}, 2.0, math.nextafter(2.0, 3.0), False),
        ({"abs": 1}, 3, 4, True),  # ints are numbers too
        # rel only: |a - e| <= rel * |e|
        ({"rel": 0.25}, 8.0, 10.0, True),
        ({"rel": 0.25}, 8.0, 6.0, True),
        ({"rel": 0.25}, 8.0, math.nextafter(10.0, 11.0), False),
        ({"rel": 0.25}, -8.0, -10.0, True),  # |e|, so a negative value gets the same width
        ({"rel": 0.25}, -8.0, -5.9, False),
        ({"rel": 0.001}, 0.0040261, 0.0040301, True),
        ({"rel": 0.001}, 0.0040261, 0.0040302, False),
        ({"rel": 0.5}, 0.0, 1e-300, False),  # rel around 0 allows nothing
        # both: max(abs, rel * |e|)
        ({"abs": 0.5, "rel": 0.25}, 8.0, 10.0, True),  # rel wins: 2.0
        ({"abs": 0.5, "rel": 0.25}, 8.0, 10.25, False),
        ({"abs": 0.5, "rel": 0.25}, 1.0, 1.5, True),  # abs wins: 0.5 > 0.25
        ({"abs": 0.5, "rel": 0.25}, 1.0, 1.625, False),
        ({"abs": 0.5, "rel": 0.25}, 0.0, -0.5, True),
    ],
)
def test_close_allows_max_of_abs_and_rel(tol, value, actual, ok):
    assert verdict(expect("close", value, **tol), actual) == ("passed" if ok else "failed")


def test_close_lists_element_by_element():
    exp = expect("close", [0.705385, 0.259496, 0.035119], abs=5e-7)
    assert verdict(exp, [0.7053848, 0.2594962, 0.0351186]) == "passed"
    assert verdict(exp, np.array([0.70538527, 0.25949646, 0.03511903])) == "passed"
    status, detail = judged(exp, [0.705385, 0.259497, 0.035119])
    assert status == "failed"
    assert detail is not None
    assert detail.startswith("1 of 3 elements outside; first at index 1: expected 0.259496")
    assert judged(exp, [0.705385, 0.259496]) == ("failed", "expected 3 elements, got 2")
    assert judged(exp, 0.705385) == ("failed", "expected a list")
    assert verdict(expect("close", 1.0, abs=0.1), [1.0]) == "failed"


def test_close_takes_per_element_tolerances():
    # half a unit in the last digit the chapter prints, element by element
    exp = expect("close", [0.999955, 4.54e-5, 9.36e-14], abs=[5e-7, 5e-8, 5e-16])
    assert verdict(exp, [0.9999546, 4.5399e-5, 9.357e-14]) == "passed"
    assert verdict(exp, [0.9999546, 4.5399e-5, 9.42e-14]) == "failed"  # third: 6e-16 > 5e-16
    assert verdict(exp, [0.99995, 4.54e-5, 9.36e-14]) == "failed"  # first: 5e-6 > 5e-7
    # the first element's wide bound is not lent to the second
    wide_first = expect("close", [1.0, 100.0], abs=[0.5, 0.001])
    assert verdict(wide_first, [1.5, 100.0]) == "passed"
    assert verdict(wide_first, [1.0, 100.0009765625]) == "passed"
    assert verdict(wide_first, [1.0, 100.5]) == "failed"
    per_rel = expect("close", [10.0, 10.0], rel=[0.1, 0.01])
    assert verdict(per_rel, [11.0, 10.1]) == "passed"
    assert verdict(per_rel, [10.0, 10.5]) == "failed"
    mixed = expect("close", [10.0, 10.0], abs=0.5, rel=[0.1, 0.0])
    assert verdict(mixed, [11.0, 10.5]) == "passed"
    assert verdict(mixed, [10.0, 10.75]) == "failed"


@pytest.mark.parametrize("actual", [True, False, "1.0", None, [1.0], {"a": 1.0}])
def test_close_fails_on_what_is_not_a_number(actual):
    assert verdict(expect("close", 1.0, abs=1.0), actual) == "failed"


def test_close_does_not_accept_a_raised_error():
    assert verdict(expect("close", 1.0, abs=1.0), raised(ValueError())) == "failed"


# -- range --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("tol", "actual", "ok"),
    [
        ({"min": 4600}, 4601.2, True),
        ({"min": 4600}, 4600, True),  # inclusive
        ({"min": 4600}, 4600.0, True),
        ({"min": 4600}, 1e300, True),
        ({"min": 4600}, math.nextafter(4600.0, 0.0), False),
        ({"min": 4600}, -4601.2, False),
        ({"max": 1e-12}, 0.0, True),
        ({"max": 1e-12}, 1e-12, True),  # inclusive
        ({"max": 1e-12}, -1e300, True),
        ({"max": 1e-12}, math.nextafter(1e-12, 1.0), False),
        ({"max": 1e-12}, 2.2e-16, True),
        ({"max": 1e-12}, 1.0, False),
        ({"min": 3, "max": 4}, 3.61, True),
        ({"min": 3, "max": 4}, 3, True),
        ({"min": 3, "max": 4}, 4, True),
        ({"min": 3, "max": 4}, 2.999, False),
        ({"min": 3, "max": 4}, 4.001, False),
        ({"min": 3, "max": 3}, 3, True),
        ({"min": 0, "max": 1}, np.float32(0.5), True),
        ({"min": 0, "max": 1}, True, False),  # a boolean is not a number in range
        ({"min": 0, "max": 1}, "0.5", False),
        ({"min": 0, "max": 1}, None, False),
        ({"min": 0, "max": 1}, [0.0, 0.5, 1.0], True),  # every element
        ({"min": 0, "max": 1}, [0.0, 1.5, 1.0], False),
        ({"min": 0, "max": 1}, [[0.0, 0.5], [1.0, 0.25]], True),
        ({"min": 0, "max": 1}, [[0.0, 0.5], [1.0, -0.25]], False),
    ],
)
def test_range_bounds_are_inclusive(tol, actual, ok):
    assert verdict(expect("range", **tol), actual) == ("passed" if ok else "failed")


def test_range_explains_a_list_failure():
    assert judged(expect("range", min=0, max=1), [0.5, 2.0, 3.0]) == (
        "failed",
        "2 of 3 elements outside (first at index 1)",
    )


def test_range_does_not_accept_a_raised_error():
    assert judged(expect("range", max=1e-12), raised(ZeroDivisionError("x"))) == (
        "failed",
        "the call raised ZeroDivisionError: x",
    )


# -- raises -------------------------------------------------------------------------------
def test_raises_passes_on_that_error():
    got = attempt(float, "not a number")
    assert isinstance(got, Raised)
    assert judged(expect("raises", error="ValueError"), got) == ("passed", None)


@pytest.mark.parametrize("name", ["ZeroDivisionError", "ArithmeticError", "Exception"])
def test_raises_accepts_a_subclass_by_the_base_class_name(name):
    got = attempt(lambda: 1 / 0)
    assert isinstance(got, Raised)
    assert got.names == ("ZeroDivisionError", "ArithmeticError", "Exception", "BaseException")
    assert verdict(expect("raises", error=name), got) == "passed"


def test_raises_accepts_a_user_subclass():
    class TemperatureError(ValueError):
        pass

    got = raised(TemperatureError("T must be > 0"))
    assert got.error == "TemperatureError"
    assert verdict(expect("raises", error="ValueError"), got) == "passed"
    assert verdict(expect("raises", error="TemperatureError"), got) == "passed"


def test_raises_fails_on_a_different_error():
    exp = expect("raises", error="ValueError")
    assert judged(exp, raised(TypeError("bad operand"))) == (
        "failed",
        "expected to raise ValueError, raised TypeError: bad operand",
    )
    # a subclass's name does not accept its base class
    assert verdict(expect("raises", error="ZeroDivisionError"), raised(ArithmeticError())) == (
        "failed"
    )
    # the name is matched exactly, not as a substring or case-insensitively
    assert verdict(expect("raises", error="Error"), raised(ValueError())) == "failed"
    assert verdict(expect("raises", error="valueerror"), raised(ValueError())) == "failed"


@pytest.mark.parametrize(
    "returned",
    [
        [0.999955, 4.54e-5, 9.36e-14],
        np.array([NAN, NAN, NAN]),
        NAN,
        0,
        None,
        False,
        "ValueError",
    ],
)
def test_raises_fails_when_the_call_returns(returned):
    status, detail = judged(expect("raises", error="ValueError"), returned)
    assert status == "failed"
    assert detail is not None
    assert detail.startswith("expected to raise ValueError, returned ")


# -- NaN and infinities never pass ---------------------------------------------------------
NON_FINITE_EXPECTATIONS = {
    "exact": expect("exact", 1.0),
    "exact-int": expect("exact", 1),
    "close-abs": expect("close", 1.0, abs=1e300),
    "close-rel": expect("close", 1.0, rel=1e300),
    "range-min": expect("range", min=0),
    "range-max": expect("range", max=0),
    "range-both": expect("range", min=-1e300, max=1e300),
}


@pytest.mark.parametrize("bad", NON_FINITE, ids=repr)
@pytest.mark.parametrize("name", NON_FINITE_EXPECTATIONS)
def test_non_finite_never_passes(name, bad):
    assert verdict(NON_FINITE_EXPECTATIONS[name], bad) == "failed"


@pytest.mark.parametrize("bad", [NAN, INF, -INF], ids=repr)
@pytest.mark.parametrize(
    "exp",
    [
        expect("exact", [1.0, 2.0, 3.0]),
        expect("exact", [[1, 2], [3, 4], [5, 6]]),
        expect("close", [1.0, 2.0, 3.0], abs=1e300),
        expect("close", [1.0, 2.0, 3.0], abs=[1e300, 1e300, 1e300]),
        expect("range", min=-1e300, max=1e300),
    ],
    ids=["exact", "exact-nested", "close", "close-per-element", "range"],
)
def test_non_finite_never_passes_inside_a_list(exp, bad):
    nested = isinstance(exp.value, list) and isinstance(exp.value[0], list)
    good = exp.value if exp.value is not None else [1.0, 2.0, 3.0]
    assert verdict(exp, good) == "passed"
    for i in range(3):
        if nested:
            actual: Any = [list(row) for row in good]
            actual[i][1] = bad
        else:
            actual = list(good)
            actual[i] = bad
        assert verdict(exp, actual) == "failed", actual
        assert verdict(exp, np.array(actual, dtype=np.float64)) == "failed", actual


@pytest.mark.parametrize("kind", ["close", "exact"])
@pytest.mark.parametrize("bad", [NAN, INF, -INF, 10**400, [1.0, NAN]])
def test_a_non_finite_or_astronomic_expected_value_is_refused_at_load_time(kind, bad):
    tol = {"abs": 1.0} if kind == "close" else {}
    with pytest.raises(ValueError, match=r"tol\.finite_value"):
        expect(kind, bad, **tol)


# -- a shape that differs is a failure ----------------------------------------------------
@pytest.mark.parametrize("kind", ["exact", "close"])
def test_a_regrouped_nested_list_fails(kind):
    tol = {"abs": 0.1} if kind == "close" else {}
    assert verdict(expect(kind, [[1, 2], [3]], **tol), [[1], [2, 3]]) == "failed"
    assert verdict(expect(kind, [1, 2], **tol), [[1], [2]]) == "failed"


@pytest.mark.parametrize("kind", ["exact", "close"])
def test_a_ragged_nested_list_fails_without_raising(kind):
    tol = {"abs": 0.1} if kind == "close" else {}
    assert verdict(expect(kind, [[1, 2], [3, 4]], **tol), [[1, 2, 3], [4, 5]]) == "failed"


@pytest.mark.parametrize(
    "exp", [expect("exact", 3), expect("close", 3.0, abs=1.0), expect("range", min=0, max=1e300)]
)
def test_an_astronomic_int_fails_without_raising(exp):
    assert verdict(exp, 50257**1000) == "failed"


# -- how an expectation is shown ----------------------------------------------------------
@pytest.mark.parametrize(
    ("exp", "shown"),
    [
        (expect("close", 4701.20, unit="log10", abs=0.005), "4701.20 ± 0.005"),
        (expect("close", 8.09, unit="log10", abs=0.005), "8.09 ± 0.005"),
        (expect("close", 0.0040261, rel=0.001), "0.0040261 ± 0.1%"),
        (expect("close", 1.0, abs=1e-12, rel=1e-9), "1 ± max(1e-12, 1e-07%)"),
        (
            expect("close", [0.999955, 4.54e-5], unit="probability", abs=[5e-7, 5e-8]),
            "[0.999955, 4.54e-05] ± [5e-07, 5e-08]",
        ),
        (expect("close", [191.7, 287.6], unit="MiB", abs=0.05), "[191.7 MiB, 287.6 MiB] ± 0.05"),
        (expect("close", [1.0, 2.552], unit="ratio", abs=0.0005), "[1.000×, 2.552×] ± 0.0005"),
        (expect("exact", 123532032, unit="count"), "= 123,532,032"),
        (expect("exact", [201028000], unit="bytes"), "= [201,028,000]"),
        (expect("exact", 0, unit="count"), "= 0"),
        (expect("exact", False), "= false"),
        (expect("exact", [0, 1, 2]), "= [0, 1, 2]"),
        (expect("range", min=4600), "≥ 4600"),
        (expect("range", max=1e-12), "≤ 1e-12"),
        (expect("range", min=3, max=4), "∈ [3, 4]"),
        (expect("raises", error="ValueError"), "raises ValueError"),
    ],
)
def test_show_expectation(exp, shown):
    assert show_expectation(exp) == shown


def test_show_expectation_range_in_orders_keeps_two_decimals():
    # The claim pack's gap_orders bounds carry unit "orders", shown like log10 values.
    assert show_expectation(expect("range", unit="orders", min=4600)) == "≥ 4600.00"


def test_per_element_tolerance_on_a_nested_value_is_refused_or_judged():
    try:
        exp = expect("close", [[1.0, 2.0], [3.0, 4.0]], abs=[0.1, 0.2])
    except ValueError:
        return  # refused at load time: fine
    assert verdict(exp, [[1.0, 2.0], [3.0, 4.0]]) == "passed"


@pytest.mark.parametrize(
    ("exp", "actual", "en", "zh"),
    [
        (
            expect("exact", [1, 2, 3]),
            [1, 2, 4],
            "1 of 3 elements outside (first at index 2)",
            "3 个元素中 1 个超出，第一个在索引 2",
        ),
        (
            expect("exact", [1, 2, 3]),
            [1, 2],
            "expected 3 elements, got 2",
            "应有 3 个元素，实际 2 个",
        ),
        (expect("exact", [1, 2]), 1, "expected a list", "应为列表"),
        (expect("exact", 1), [1], "expected a single value", "应为单个值"),
        (
            expect("exact", [[1], [2]]),
            [[1], 2],
            "expected a list at [1]",
            "[1] 处应为列表",
        ),
        (
            expect("close", [1.0, 2.0], abs=0.1),
            [1.0, 2.5],
            "1 of 2 elements outside; first at index 1: expected 2, got 2.5",
            "2 个元素中 1 个超出；第一个在索引 1：应为 2，实际 2.5",
        ),
        (
            expect("raises", error="ValueError"),
            3,
            "expected to raise ValueError, returned 3",
            "应抛出 ValueError，却返回了 3",
        ),
    ],
)
def test_a_failure_is_explained_in_either_language(exp, actual, en, zh):
    assert judged(exp, actual, "en") == ("failed", en)
    assert judged(exp, actual, "zh") == ("failed", zh)


@pytest.mark.parametrize(
    ("exp", "actual", "shown"),
    [
        (expect("raises", error="ValueError"), [1.0, 0.0], "actual [1, 0]"),
        (expect("raises", error="ValueError"), "TypeError", "raised TypeError: no good T"),
        (expect("exact", 1), "TypeError", "raised TypeError: no good T"),
    ],
    ids=["returned", "raised-another", "raised-not-expected"],
)
def test_a_measurements_line_says_what_was_raised_or_returned_once(exp, actual, shown):
    """The actual value already reads "raised TypeError: ..." or the returned value: a
    reason that says it again is left out of the line (the data keeps it for scripts)."""
    from runner.models import MeasurementResult
    from runner.reporters.text import measurement_line
    from runner.run import recorded

    value = raised(TypeError("no good T")) if actual == "TypeError" else actual
    verdict_, detail = judge(exp, value)
    m = MeasurementResult(
        name="at_zero", metric="x.at_zero", expected=None, actual=recorded(value),
        tolerance=exp.tolerance.model_dump(exclude_none=True), verdict=verdict_,
        detail=detail, source="test",
    )  # fmt: skip
    for lang in ("en", "zh"):
        line = measurement_line(m, catalog(lang))
        assert detail is not None and verdict_ == "failed"
        assert line.count("no good T") == (1 if actual == "TypeError" else 0), line
        assert "expected to raise" not in line and "应抛出" not in line, line
    assert shown in measurement_line(m, catalog("en"))


@pytest.mark.parametrize(
    ("expected", "tolerance", "actual", "shown"),
    [
        (2.1972245773362196, {"kind": "close", "abs": 1e-9}, 2.1972245,
         "2.1972245773362196 ± 1e-09"),
        (None, {"kind": "range", "max": 1e-12}, 1.0000001e-12, "≤ 1e-12"),
    ],
)  # fmt: skip
def test_a_failed_figure_that_reads_as_its_expectation_is_shown_to_every_digit(
    expected, tolerance, actual, shown
):
    """Six significant digits make 2.1972245 read as 2.19722, its expectation: a line that
    says "expected 2.19722 ± 1e-09, actual 2.19722" and FAILED tells the reader nothing."""
    from runner.models import MeasurementResult
    from runner.reporters.text import measurement_line

    m = MeasurementResult(
        name="entropy", metric="x.entropy", expected=expected, actual=actual,
        tolerance=tolerance, verdict="failed", source="test",
    )  # fmt: skip
    line = measurement_line(m, catalog("en"))
    assert repr(actual) in line and shown in line.replace(repr(1e-12), "1e-12"), line
    passed = m.model_copy(update={"verdict": "passed"})  # a figure that passed reads as usual
    assert measurement_line(passed, catalog("en")).endswith(f"actual {actual:.6g}")


def test_a_failed_array_or_ratio_that_reads_as_its_expectation_is_shown_to_every_digit():
    """A float32 layer's output against float64 at 1e-09 read "expected [0.365148, 1] ±
    1e-09, actual [0.365148, 1] (2 of 2 elements outside; first at index 0: expected
    0.365148, got 0.365148)"; a ratio of 0.0995 against 0.1 read 0.100× twice."""
    from runner.models import MeasurementResult
    from runner.reporters.text import measurement_line

    words = catalog("en")
    expected, actual = [0.3651483716701107, 1.0000000001], [0.36514836549758911, 1.0]
    status, detail = judge(expect("close", expected, abs=1e-9), actual)
    m = MeasurementResult(
        name="y", metric="x.y", expected=expected, actual=actual, detail=detail,
        tolerance={"kind": "close", "abs": 1e-9}, verdict=status, source="test",
    )  # fmt: skip
    line = measurement_line(m, words)
    assert status == "failed"
    assert "actual [0.3651483654975891, 1.0]" in line, line
    assert "expected [0.3651483716701107, 1.0000000001] ± 1e-09" in line, line
    assert "expected 0.3651483716701107, got 0.3651483654975891" in line, line
    ratio = MeasurementResult(
        name="r", metric="x.r", expected=0.1, actual=0.0995, unit="ratio",
        tolerance={"kind": "close", "abs": 2e-9}, verdict="failed", source="test",
    )  # fmt: skip
    assert "expected 0.1× ± 2e-09, actual 0.0995×" in measurement_line(ratio, words)


@pytest.mark.parametrize(
    ("text", "dropped", "more"),
    [
        ("".join(f"line {i}\n" for i in range(25)), 0, "... and 40 more characters"),
        ("".join(f"line {i}\n" for i in range(25)), 1000, "... and 1,040 more characters"),
        ("short\n", 7, "... and 7 more characters"),
        ("short\n", 0, None),
    ],
)
def test_what_a_learner_printed_beyond_20_lines_is_counted(text, dropped, more):
    """Lines not shown count as characters not shown (it said '... and 0 more characters'
    under 20 lines of 45)."""
    from runner.reporters.text import printed_lines

    lines = printed_lines(text, dropped, catalog("en"))
    assert len(lines) == min(20, text.count("\n")) + (more is not None)
    assert (lines[-1] == f"  | {more}") if more else all("more" not in line for line in lines)


@pytest.mark.skipif(
    np.finfo(np.longdouble).eps >= np.finfo(np.float64).eps, reason="a long double is a double"
)
def test_a_long_double_figure_is_made_plain_as_a_float_without_numpys_warnings():
    """Past float64 it is inf, and 16 bytes that are no long double are NaN: values (which
    never pass), not 'overflow' or 'invalid value encountered in cast' on the reader's screen."""
    import warnings

    from runner.judge import to_plain

    junk = bytes([1, 0, 0, 0, 0, 0, 0, 0, 1, 0x40, 0, 0, 0, 0, 0, 0])
    values = np.concatenate(
        [np.frombuffer(junk, dtype=np.longdouble), np.array([np.longdouble(10) ** 4000, 0.5])]
    ).astype(np.longdouble)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plain = to_plain(values)
        scalars = [to_plain(v) for v in values]
    for got in (plain, scalars):
        assert [type(v) for v in got] == [float] * 3
        assert math.isnan(got[0]) and got[1] == math.inf and got[2] == 0.5


def test_a_tolerance_bound_that_is_text_is_shown_not_raised():
    """Evidence is read as it was handed in, and the schema lets a tolerance's bound be any
    JSON value: ``report`` ended with an internal error on ``"abs": "0.005"``."""
    from runner.numbers import show_tolerance

    assert show_tolerance({"abs": "0.005"}) == "'0.005'"
    assert show_tolerance({"abs": 0.005, "rel": [1e-9, "x"]}) == "max(0.005, [1e-07%, 'x'])"


@pytest.mark.parametrize(
    ("actual", "code"),
    [("38400", "judge.text_for_number"), (True, "judge.bool_for_number")],
)
def test_a_measure_of_the_wrong_type_says_so(actual, code):
    """A check returning "38400" for 38400 failed as `expected = 38,400, actual 38400`,
    with no word of why (a pack author, 2026-12-07)."""
    from runner.i18n import catalog
    from runner.models import Expectation

    exp = Expectation.model_validate(
        {"measure": "count", "value": 38400, "tolerance": {"kind": "exact"}, "source": "s"}
    )
    verdict, detail = judge(exp, actual)
    assert verdict == "failed" and detail is not None and detail.code == code
    for lang in ("en", "zh"):
        assert catalog(lang)(detail.code, **detail.params)
