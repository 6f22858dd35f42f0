"""Implementation.each: a claim's independent calls sent together answer as single calls do."""

from __future__ import annotations

import numpy as np
import pytest

from runner.learner import codec
from runner.learner.session import LearnerSession, WorkerLimits
from runner.pack import CallLog, ForeignError, case

LEARNER = """
import numpy as np

calls = []


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    calls.append(batch)
    print("call", batch)
    if batch < 0:
        raise ValueError("batch must be >= 0")
    return batch * length * vocab * bytes_per_value


def greedy_token(logits):
    # how many calls this worker made before, so a batch shows it ran in order, once each
    return len(calls)
"""


@pytest.fixture
def session(tmp_path):
    path = tmp_path / "learner.py"
    path.write_text(LEARNER, encoding="utf-8")
    with LearnerSession(path, ["logits_memory_bytes", "greedy_token"], WorkerLimits()) as s:
        assert s.open() is None
        yield s


def test_each_answers_every_case_as_single_calls_do(session):
    impl = session.implementation()
    cases = [(b, 3, 5) for b in range(200)] + [case("two bytes", 1, 3, 5, bytes_per_value=2)]
    values = impl.each("logits_memory_bytes", cases)
    single = [impl["logits_memory_bytes"](b, 3, 5) for b in range(200)]
    assert values[:200] == single == [b * 60 for b in range(200)]
    assert values[200] == 30
    assert impl["greedy_token"]([0.0]) == 401  # 201 + 200 calls, each run once


def test_each_stops_at_the_first_case_that_raises_and_logs_what_ran(session):
    log = CallLog()
    impl = session.implementation().recording(log)
    with pytest.raises(ForeignError) as raised:
        impl.each("logits_memory_bytes", [(1, 1, 1), (-1, 1, 1), (2, 1, 1)])
    assert raised.value.error == "ValueError"
    assert impl["greedy_token"]([0.0]) == 2  # the case after the one that raised never ran
    assert [c.args[0] for c in log.calls[:2]] == [1, -1]
    assert session.end_claim().output.count("call") == 2


def test_each_splits_cases_the_worker_would_refuse_as_one_request(session):
    impl = session.implementation()
    big = np.zeros(codec.REQUEST.max_elements // 3)  # three of them do not fit one request
    values = impl.each("logits_memory_bytes", [(1, 1, 1, float(i)) for i in range(3)])
    assert values == [0.0, 1.0, 2.0]
    sent = impl.each("greedy_token", [(big,), (big,), (big,), (big,)])
    assert sent == [3, 3, 3, 3]


def test_each_on_a_local_implementation_is_a_loop_that_logs_every_call():
    from runner.pack.registry import Implementation

    log = CallLog()
    impl = Implementation("reference", "ref", {"f": lambda x, y=1: x * y}).recording(log)
    assert impl.each("f", [(2,), case("kw", 3, y=4)]) == [2, 12]
    assert [(c.args, c.kwargs, c.outcome) for c in log.calls] == [
        ((2,), {}, 2),
        ((3,), {"y": 4}, 12),
    ]
