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


def test_a_write_into_the_arrays_of_a_call_in_place_is_seen_by_the_judge(tmp_path):
    """The in-place call's arrays are where the call before's were placed: what the function
    writes there is read back, whatever the worker reports."""
    source = (
        "import numpy as np\n_SEEN = set()\n\n\ndef bump(w):\n"
        "    if id(w) in _SEEN:\n        w[0] += 1  # only on the same object, again\n"
        "    _SEEN.add(id(w))\n    return float(w.sum())\n"
    )
    path = tmp_path / "learner.py"
    path.write_text(source, encoding="utf-8")
    with LearnerSession(path, ["bump"], WorkerLimits()) as s:
        assert s.open() is None
        w = np.array([1.0, 2.0])
        outcomes = s.implementation().attempt_each("bump", [(w,), (w[::-1].copy(),)], in_place=[1])
    assert outcomes == [(3.0, []), (4.0, ["w"])]


def test_an_in_place_case_first_in_the_calls_is_called_on_new_objects(impl):
    # nothing came before it: no objects to write over (and none kept from another call)
    outcomes = impl.attempt_each("cached", _cases(), in_place=[0, 5])
    assert [o[0] for o in outcomes] == [61.0, 63.0, 77.0]


# -- where the judge places an in-place call's arrays ---------------------------------------


def test_an_in_place_case_is_placed_over_the_last_and_the_rest_after_it():
    from runner.learner.arena import SIZE, Arena

    arena = Arena.create()
    if arena is None:
        pytest.skip("no shared memory on this machine")
    try:
        a = np.arange(8.0)
        _, (first,) = arena.place_cases([[[a], {}]])
        used = arena.next
        _, watched = arena.place_cases([[[a[::-1].copy()], {}], [[a + 1], {}]], first)
        assert [p.offset for _, p in watched[0]] == [p.offset for _, p in first]
        assert watched[1][0][1].offset >= used  # after the last placement, not over it
        assert bytes(arena.memory[first[0][1].offset : first[0][1].offset + 64]) == (
            a[::-1].tobytes()
        )
        # the others must fit before the end: never from the front, over the first case's
        arena.next = SIZE - 64
        assert arena.place_cases([[[a], {}], [[np.zeros(1024)], {}]], first) is None
        # another size than the last case's: placed as any, not over it
        arena.next = used
        _, (other,) = arena.place_cases([[[np.zeros(9)], {}]], first)
        assert other[0][1].offset != first[0][1].offset
    finally:
        arena.close()
