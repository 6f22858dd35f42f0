"""A call on the objects of the call before it, their arrays written over (runner.in_place):
what catches a result kept under an argument's id() while the argument is held."""

from __future__ import annotations

import numpy as np
import pytest

from runner.in_place import written_over
from runner.learner.session import LearnerSession, WorkerLimits
from runner.pack.registry import Implementation

# -- written_over -------------------------------------------------------------------------


def test_written_over_keeps_the_objects_and_replaces_their_contents():
    a, b = np.arange(4.0), np.ones((2, 2), dtype=np.float32)
    kept = [[a, 3], {"w": b}]
    new = [[a[::-1].copy(), 3], {"w": np.full((2, 2), 5, dtype=np.float32)}]
    assert written_over(kept, new) is kept
    assert kept[0][0] is a and kept[1]["w"] is b
    assert a.tolist() == [3.0, 2.0, 1.0, 0.0] and b.tolist() == [[5, 5], [5, 5]]


@pytest.mark.parametrize(
    "new",
    [
        [[np.zeros(5), 3], {}],  # another shape
        [[np.zeros(4, dtype=np.float32), 3], {}],  # another dtype
        [[np.zeros(4), 4], {}],  # another number
        [[np.zeros(4), 3.0], {}],  # another type of number
        [[np.zeros(4)], {}],  # another length
        [[np.zeros(4), 3], {"eps": 1}],  # another keyword
    ],
)
def test_written_over_writes_nothing_where_more_than_contents_differ(new):
    a = np.arange(4.0)
    assert written_over([[a, 3], {}], new) is None
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_written_over_writes_nothing_into_a_read_only_array_and_nan_is_nan():
    a, b = np.arange(4.0), np.arange(3.0)
    b.flags.writeable = False
    assert written_over([[a, b], {}], [[np.zeros(4), np.zeros(3)], {}]) is None
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert written_over([[a, float("nan")], {}], [[np.zeros(4), float("nan")], {}]) is not None
    assert a.tolist() == [0.0] * 4


# -- attempt_each(in_place=...), where the function runs ----------------------------------

LEARNER = """
import numpy as np

_KEPT = {}


def cached(w):
    # a float64 copy kept under the argument's id(), the argument held so the id stays its own
    if id(w) not in _KEPT:
        _KEPT[id(w)] = (w, np.array(w, dtype=np.float64))
    return float(_KEPT[id(w)][1].sum() * 10 + _KEPT[id(w)][1][0])


def fresh(w):
    return float(np.asarray(w, dtype=np.float64).sum() * 10 + w[0])


def itself(w):
    return w  # a view of its argument: the worker's own write must not count as the function's
"""
NAMES = ["cached", "fresh", "itself"]


def _local() -> Implementation:
    namespace: dict[str, object] = {}
    exec(LEARNER, namespace)
    return Implementation("reference", "ref", {n: namespace[n] for n in NAMES})


@pytest.fixture(params=["worker", "worker without shared memory", "local"])
def impl(request, tmp_path, monkeypatch):
    if request.param == "local":
        yield _local()
        return
    if request.param == "worker without shared memory":
        from runner.learner import session

        monkeypatch.setattr(session.Arena, "create", classmethod(lambda cls: None))
    path = tmp_path / "learner.py"
    path.write_text(LEARNER, encoding="utf-8")
    with LearnerSession(path, NAMES, WorkerLimits()) as s:
        assert s.open() is None
        yield s.implementation()


def _cases() -> list[tuple[np.ndarray]]:
    w = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    return [(w,), (w[::-1].copy(),), (np.array([7.0, 0.0, 0.0], dtype=np.float32),)]


def test_a_result_kept_under_an_id_is_found_by_a_call_on_the_same_arrays(impl):
    # case 1 is called on case 0's arrays, written over; case 2 on new ones. Our own
    # functions (local) are called on new objects: they keep nothing under an id()
    outcomes = impl.attempt_each("cached", _cases(), in_place=[1])
    found = 63.0 if impl.kind == "reference" else 61.0  # 63.0 is right for case 1
    assert [o[0] for o in outcomes] == [61.0, found, 77.0]
    assert [o[1] for o in outcomes] == [[], [], []]  # our own write changed no argument


def test_a_function_that_keeps_nothing_answers_every_case_written_over(impl):
    outcomes = impl.attempt_each("fresh", _cases(), in_place=[1, 2])
    assert [o[0] for o in outcomes] == [61.0, 63.0, 77.0]
    assert [o[1] for o in outcomes] == [[], [], []]


def test_a_result_that_is_its_argument_is_not_said_to_change_an_earlier_one(impl):
    outcomes = impl.attempt_each("itself", _cases(), in_place=[1])
    assert [np.asarray(o[0]).tolist() for o in outcomes] == [[1, 2, 3], [3, 2, 1], [7, 0, 0]]
    assert [o[1] for o in outcomes] == [[], [], []]


def test_without_in_place_every_call_gets_new_objects(impl):
    outcomes = impl.attempt_each("cached", _cases())
    assert [o[0] for o in outcomes] == [61.0, 63.0, 77.0]
