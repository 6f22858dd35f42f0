"""The reference's record of calls, as the faults of a run use it (runner.memo)."""

from __future__ import annotations

from collections import OrderedDict
from typing import NamedTuple

import numpy as np
import pytest

from runner import memo
from runner.memo import Answers, digest, worth_recording
from runner.pack import Implementation


@pytest.mark.parametrize(
    "a, b",
    [
        ((np.arange(3.0),), (np.arange(3),)),  # dtype
        ((np.zeros((2, 3)),), (np.zeros((3, 2)),)),  # shape
        ((np.array([0.0]),), (np.array([-0.0]),)),  # bytes
        ((1,), (1.0,)),  # type
        ((True,), (1,)),
        (([1, 2],), ((1, 2),)),  # list or tuple
        ((np.int32(7),), (np.int64(7),)),
        (("ab",), (b"ab",)),
        (([[1], [2]],), ([[1, 2]],)),  # nesting
    ],
)
def test_arguments_that_differ_have_different_digests(a, b):
    assert digest(a, {}) != digest(b, {})


def test_keyword_and_positional_arguments_are_told_apart():
    assert digest((1,), {}) != digest((), {"x": 1})
    assert digest((), {"x": 1, "y": 2}) == digest((), {"y": 2, "x": 1})


@pytest.fixture(autouse=True)
def _every_lookup_worth_it(monkeypatch):
    """These tests are about what is answered, not about when a lookup pays: every recorded
    function is worth asking for (its calls took longer than none of their keying)."""
    monkeypatch.setattr(memo, "WORTH", 0.0)


def _impl(calls: list[str]) -> Implementation:
    def f(x: np.ndarray) -> np.ndarray:
        calls.append("f")
        return x * 2

    def g(x: np.ndarray) -> np.ndarray:
        calls.append("g")
        if x.size == 0:
            raise ValueError("empty")
        return x + 1

    return Implementation("reference", "reference", {"f": f, "g": g})


def test_a_recorded_call_is_answered_a_reached_one_runs_again():
    calls: list[str] = []
    answers = Answers()
    reference = answers.remembering(_impl(calls), ["f", "g"])
    assert reference["f"](np.ones(2)).tolist() == [2.0, 2.0]
    with pytest.raises(ValueError):
        reference["g"](np.ones(0))
    assert calls == ["f", "g"]
    fault = answers.answering(_impl(calls), reached=["g"])
    out = fault["f"](np.ones(2))
    assert out.tolist() == [2.0, 2.0] and calls == ["f", "g"]  # answered, not run
    out[0] = 99.0  # the answer is a copy: the record is not changed through it
    assert fault["f"](np.ones(2)).tolist() == [2.0, 2.0]
    fault["g"](np.ones(1))  # reached: runs
    assert calls[-1] == "g"
    assert fault["f"](np.ones(3)).tolist() == [2.0, 2.0, 2.0]  # not recorded: runs
    assert calls[-1] == "f"


def test_a_recorded_exception_is_raised_again():
    calls: list[str] = []
    answers = Answers()
    answers.remembering(_impl(calls), ["g"])  # nothing recorded yet
    reference = answers.remembering(_impl(calls), ["g"])
    with pytest.raises(ValueError):
        reference["g"](np.ones(0))
    fault = answers.answering(_impl(calls), reached=[])
    with pytest.raises(ValueError, match="empty"):
        fault["g"](np.ones(0))
    assert calls == ["g"]


def test_past_its_budget_the_record_keeps_nothing_more():
    calls: list[str] = []
    answers = Answers(budget=3)
    reference = answers.remembering(_impl(calls), ["f"])
    reference["f"](np.ones(2))
    reference["f"](np.ones(5))  # over the budget: not kept
    fault = answers.answering(_impl(calls), reached=[])
    fault["f"](np.ones(2))
    fault["f"](np.ones(5))
    assert calls == ["f", "f", "f"]


def test_only_claims_a_fault_reaches_record_and_only_what_it_does_not_reach():
    faults = [frozenset({"g"}), frozenset({"h"})]
    assert worth_recording(("f", "g"), faults) == frozenset({"f"})
    assert worth_recording(("g",), faults) == frozenset()  # every function it calls is reached
    assert worth_recording(("k",), faults) == frozenset()  # no fault re-runs it


def test_a_value_that_cannot_be_keyed_is_never_answered():
    """An object the digest cannot read (an object array, an instance) keys on a number no
    other call gets: not on id(), which a new object can take once the old one is gone."""
    for value in (np.array([object()], dtype=object), object()):
        assert digest((value,), {}) != digest((value,), {})


def test_a_function_cheaper_to_call_than_to_key_is_called_again(monkeypatch):
    """A lookup costs a key (a hash of every argument): where the reference's calls of a
    function took less to compute than WORTH times their keying, the fault's run calls it."""
    calls: list[str] = []
    answers = Answers()
    answers.remembering(_impl(calls), ["f"])["f"](np.ones(2))
    computing, keying = answers.spent["f"]
    assert computing > 0 and keying > 0
    monkeypatch.setattr(memo, "WORTH", computing / keying * 2)  # not worth it
    fault = answers.answering(_impl(calls), reached=[])
    assert fault["f"](np.ones(2)).tolist() == [2.0, 2.0] and calls == ["f", "f"]
    monkeypatch.setattr(memo, "WORTH", computing / keying / 2)  # worth it
    assert fault["f"](np.ones(2)).tolist() == [2.0, 2.0] and calls == ["f", "f"]
    assert answers.hits == 1


class _Pair(NamedTuple):
    mean: float
    spread: float


@pytest.mark.parametrize(
    "returned",
    [
        pytest.param(lambda x: _Pair(float(x.mean()), float(x.std())), id="a-namedtuple"),
        pytest.param(lambda x: OrderedDict(mean=float(x.mean())), id="a-dict-subclass"),
        pytest.param(lambda x: x[:1], id="a-view-of-the-argument"),
        pytest.param(lambda x: x, id="the-argument-itself"),
        pytest.param(lambda x: (lambda y: (y, y))(x * 2), id="one-array-twice"),
        pytest.param(lambda x: np.array([object()], dtype=object), id="objects"),
    ],
)
def test_a_value_a_copy_would_change_is_never_answered(returned):
    """A lookup must give what a second call would: a copy makes a NamedTuple a tuple and an
    OrderedDict a dict, and parts what the call shared (an argument, or one array twice)."""
    calls: list[str] = []

    def f(x: np.ndarray) -> object:
        calls.append("f")
        return returned(x)

    impl = Implementation("reference", "reference", {"f": f})
    answers = Answers()
    answers.remembering(impl, ["f"])["f"](np.arange(4.0))
    answers.answering(impl, reached=[])["f"](np.arange(4.0))
    assert calls == ["f", "f"] and answers.hits == 0


def test_arrays_key_by_their_exact_type_dtype_and_layout():
    """A subclass of ndarray or an array of dates is not keyed (never answered); the same
    numbers laid out otherwise (a transposed view) are another key."""
    m = np.arange(6.0).reshape(2, 3)
    assert digest((m.T.copy(),), {}) != digest((m.T,), {})
    assert digest((m,), {}) == digest((m.copy(),), {})
    dates = np.array(["2026-12-06"], dtype="datetime64[D]")
    assert digest((dates,), {}) != digest((dates,), {})
    sub = m.view(_Sub)
    assert digest((sub,), {}) != digest((sub,), {})


class _Sub(np.ndarray):
    """An ndarray subclass: its methods may be anything."""
