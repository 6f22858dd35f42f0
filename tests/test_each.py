"""Implementation.each: a claim's independent calls sent together answer as single calls do."""

from __future__ import annotations

import os

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


def _opened(tmp_path, source: str, names: list[str]):
    """A session on a learner file holding ``source``, its worker started."""
    path = tmp_path / "learner.py"
    path.write_text(source, encoding="utf-8")
    with LearnerSession(path, names, WorkerLimits()) as s:
        assert s.open() is None
        yield s


@pytest.fixture
def session(tmp_path):
    yield from _opened(tmp_path, LEARNER, ["logits_memory_bytes", "greedy_token"])


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


# -- attempt_each: the contract's calls, watched, a raised exception an outcome ---------------
WATCHED = """
import numpy as np

calls = []


def softmax(x):
    calls.append(float(x[0]))
    if x[0] == 99:
        raise NotImplementedError
    if x[0] < 0:
        raise ValueError("negative")
    if x[0] == 1:
        x[...] = 0.0  # written in place: a modified argument
    return float(np.sum(x))


def greedy_token(logits):
    return len(calls)
"""


@pytest.fixture
def watched(tmp_path):
    yield from _opened(tmp_path, WATCHED, ["softmax", "greedy_token"])


def _local_watched():
    from runner.pack.registry import Implementation

    namespace: dict[str, object] = {}
    exec(WATCHED, namespace)
    return Implementation("reference", "ref", {"softmax": namespace["softmax"]})


@pytest.mark.parametrize("where", ["worker", "local"])
def test_attempt_each_goes_on_after_a_raise_and_says_what_each_call_changed(watched, where):
    from runner.compare import Raised

    impl = watched.implementation() if where == "worker" else _local_watched()
    log = CallLog()
    cases = [(np.array([2.0, 3.0]),), (np.array([-1.0]),), case("x", x=np.array([1.0, 4.0]))]
    outcomes = impl.recording(log).attempt_each("softmax", cases)

    assert outcomes[0] == (5.0, [])
    assert isinstance(outcomes[1], Raised) and outcomes[1].error == "ValueError"
    assert outcomes[1].message == "negative"
    assert outcomes[2] == (0.0, ["x"])  # the case after the raise ran, and its change is seen
    assert [c.outcome for c in log.calls][0::2] == [5.0, 0.0]
    assert isinstance(log.calls[1].outcome, Raised)
    if where == "worker":
        assert impl["greedy_token"]([0.0]) == 3


def test_attempt_each_stops_at_not_implemented_and_no_later_case_runs(watched):
    impl = watched.implementation()
    cases = [(np.array([2.0]),), (np.array([99.0]),), (np.array([3.0]),)]
    with pytest.raises(NotImplementedError):
        impl.attempt_each("softmax", cases)
    # the worker goes on through raised exceptions: the third case ran there, but its
    # answer is read and the next request is answered in step with it
    assert impl["greedy_token"]([0.0]) == 3
    assert impl.attempt_each("softmax", [(np.array([4.0]),)]) == [(4.0, [])]


def test_attempt_each_splits_a_batch_too_large_for_one_request(watched):
    impl = watched.implementation()
    big = np.full(codec.REQUEST.max_elements // 3, 2.0)
    outcomes = impl.attempt_each("softmax", [(big.copy(),) for _ in range(4)])
    assert outcomes == [(2.0 * big.size, [])] * 4


QUICK_SPINNER = """
import time


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    start = time.process_time()
    while time.process_time() - start < 0.02:  # 20 ms of CPU, quicker than a reading's period
        pass
    return batch * length * vocab * bytes_per_value
"""


def test_quick_calls_are_charged_to_their_claim_however_seldom_the_cpu_is_read(tmp_path):
    """The worker's CPU is read at most every 50 ms of wall, not after every call: 100
    calls of 20 ms of CPU each (2 s) still exhaust a claim's 0.5 s, and the next claim
    starts with its own budget, not the previous claim's unread time."""
    from runner.pack import BoundaryError

    path = tmp_path / "learner.py"
    path.write_text(QUICK_SPINNER, encoding="utf-8")
    with LearnerSession(path, ["logits_memory_bytes"], WorkerLimits(timeout_s=0.5)) as s:
        assert s.open() is None
        s.begin_claim()
        with pytest.raises(BoundaryError) as stopped:
            for _ in range(100):
                s.implementation()["logits_memory_bytes"](1, 2, 3)
        assert stopped.value.code == "boundary.timeout"
        s.end_claim()
        s.begin_claim()
        calls = [s.implementation()["logits_memory_bytes"](1, 2, 3) for _ in range(10)]
        assert calls == [24] * 10  # 0.2 s of CPU: within this claim's own 0.5 s
        s.end_claim()


@pytest.mark.parametrize(
    "params",
    [
        [{"$d": {"x": 1}}],  # a parameter as a dict: p[0] is a KeyError
        [["x", float("inf"), False]],  # int(inf) is an OverflowError
        [["x", 10**30, False]],
        [["x"]],
        ["x"],
        [None],
    ],
)
def test_a_forged_loaded_frame_of_any_shape_leaves_a_usable_signature(params):
    """The "loaded" frame is the learner's to forge (its code runs before the worker's own
    reply): signatures of any shape are read as (*args, **kwargs), never an error of ours."""
    from runner.learner.session import _signatures

    (signature,) = _signatures({"softmax_temperature": params}, ["softmax_temperature"]).values()
    signature.bind(1, 2, key=3)  # it takes anything: the call is made as the claim writes it


# -- what a call changed is seen by the judge, not told by the worker --------------------------
FORGER = """
import sys

import numpy as np


def _forge():
    # up the stack to the worker's frames: its report of changed arguments is rewritten,
    # and the copies it compares with are made to match what this call leaves behind
    frame = sys._getframe(1)
    while frame is not None:
        frame.f_globals["_modified"] = lambda before, after: []
        before = frame.f_locals.get("before")
        if before is not None:
            (args0, _), (args1, _) = before, (frame.f_locals["args"], frame.f_locals["kwargs"])
            for a, b in zip(args0, args1):
                if isinstance(a, np.ndarray):
                    a[...] = b
        frame = frame.f_back


def softmax(x):
    x -= x.max()  # in place: the caller's array is changed
    np.exp(x, out=x)
    x /= x.sum()
    _forge()
    return x.copy()


def top_k_filter(probs, k):
    probs[np.argsort(probs)[:-k]] = 0.0  # in place, nested in a list below
    _forge()
    return probs / probs.sum()
"""


@pytest.fixture
def forger(tmp_path):
    yield from _opened(tmp_path, FORGER, ["softmax", "top_k_filter"])


def test_an_argument_changed_in_place_is_seen_however_the_worker_report_is_forged(forger):
    """A learner's code runs in the worker, so it can rewrite what the worker says it did
    to its arguments; the judge reads the arrays back from the memory it placed them in."""
    impl = forger.implementation()
    x = np.array([1.0, 2.0, 3.0])
    (outcome,) = impl.attempt_each("softmax", [(x,)])
    assert outcome[1] == ["x"]
    assert np.array_equal(x, [1.0, 2.0, 3.0])  # the judge's own array is not the one changed
    value, changed = forger.implementation().functions["softmax"].modifies(np.array([0.0, 1.0]))
    assert changed == ["x"] and np.isclose(sum(value), 1.0)
    (outcome,) = impl.attempt_each("top_k_filter", [case("kw", probs=np.full(4, 0.25), k=2)])
    assert outcome[1] == ["probs"]


def test_a_call_that_changes_nothing_is_not_blamed_for_the_shared_memory(watched):
    """Arrays placed in shared memory, read back unchanged, in many batches (the placement
    wraps around the memory): nothing is said to have changed."""
    impl = watched.implementation()
    big = np.full(codec.REQUEST.max_elements // 4, 2.0)
    for _ in range(6):  # 4 MiB a case: past the shared memory's end and round again
        outcomes = impl.attempt_each("softmax", [(big.copy(),), (np.array([3.0, 4.0]),)])
        assert outcomes == [(2.0 * big.size, []), (7.0, [])]


SEEKER = """
import gc
import sys


def _strings(value, depth=0, seen=None):
    seen = set() if seen is None else seen
    if depth > 5 or id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in list(value.items()):
            yield from _strings(k, depth + 1, seen)
            yield from _strings(v, depth + 1, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in list(value):
            yield from _strings(v, depth + 1, seen)
    elif hasattr(value, "__dict__") and not isinstance(value, type(sys)):
        yield from _strings(vars(value), depth + 1, seen)


def greedy_token(logits):
    # everything the worker's frames, and every dict alive in this process, still hold
    found = []
    frame = sys._getframe()
    while frame is not None:
        found += [s for s in _strings(dict(frame.f_locals)) if "judge-folder" in s]
        frame = frame.f_back
    for obj in gc.get_objects():
        if isinstance(obj, dict):
            found += [s for s in _strings(obj) if "judge-folder" in s]
    # the judge's command line, as Python keeps it (the fork server's names its import path)
    found += [a for a in sys.orig_argv if "runner" in a or "judge-folder" in a]
    return len(found)
"""


def test_the_judges_folders_are_not_left_in_the_workers_memory(tmp_path):
    """The worker's setup named the judge's private folders (to keep them out of its view);
    by the time the learner's code runs, nothing of the worker's still holds them."""
    path = tmp_path / "learner.py"
    path.write_text(SEEKER, encoding="utf-8")
    private = (str(tmp_path / "judge-folder" / "claims"),)
    with LearnerSession(path, ["greedy_token"], WorkerLimits(), private=private) as s:
        assert s.open() is None
        assert s.implementation()["greedy_token"]([0.0]) == 0


SLEEPER = """
import time


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    time.sleep(batch)
    return batch * length * vocab * bytes_per_value
"""


def test_a_learner_whose_calls_sleep_claim_after_claim_is_stopped_once_its_allowance_is_spent(
    tmp_path,
):
    """Each claim's backstop ends a sleeping call; all of a learner's calls together have one
    allowance too, after which no further call is made (a sleeper would otherwise hold its
    place in a class for every claim's backstop in turn)."""
    from runner.pack import BoundaryError

    path = tmp_path / "learner.py"
    path.write_text(SLEEPER, encoding="utf-8")
    limits = WorkerLimits(timeout_s=5, wall_timeout_s=0.6, learner_wall_s=1.5)
    codes = []
    with LearnerSession(path, ["logits_memory_bytes"], limits) as s:
        assert s.open() is None
        for _ in range(4):
            s.begin_claim()
            fn = s.implementation()["logits_memory_bytes"]
            try:
                fn(30, 1, 1)
            except BoundaryError as exc:
                codes.append(exc.code)
            s.end_claim()
        s.begin_claim()
        with pytest.raises(BoundaryError) as later:
            s.implementation()["logits_memory_bytes"](0, 1, 1)  # would answer at once
        assert s._process is None  # spent: no worker is started, the file not imported again
    # two or three backstops (the worker's own start computes, which earns a little more),
    # then the allowance is spent
    stalled = codes.index("boundary.learner_stalled")
    assert codes[:stalled] == ["boundary.stalled"] * stalled and stalled in (2, 3), codes
    assert set(codes[stalled:]) == {"boundary.learner_stalled"}
    assert later.value.code == "boundary.learner_stalled"
    assert later.value.params["seconds"] == 1.5


COMPUTER = """
import time

def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    end = time.process_time() + 0.4
    while time.process_time() < end:
        pass
    return batch * length * vocab * bytes_per_value
"""


def test_a_learner_whose_calls_compute_is_not_stopped_by_the_learners_allowance(tmp_path):
    """The allowance bounds waiting that computing does not account for: it grows by
    WALL_FACTOR times the CPU the calls use, so a learner that computes for longer than the
    allowance in all (a larger --timeout, a slower file, a busy machine) is still judged."""
    path = tmp_path / "learner.py"
    path.write_text(COMPUTER, encoding="utf-8")
    limits = WorkerLimits(timeout_s=5, wall_timeout_s=30, learner_wall_s=0.3)
    with LearnerSession(path, ["logits_memory_bytes"], limits) as s:
        assert s.open() is None
        for _ in range(4):  # 1.6 s of CPU in all, against an allowance of 0.3 s
            s.begin_claim()
            assert s.implementation()["logits_memory_bytes"](2, 3, 5) == 120
            s.end_claim()


BURNER_SLEEPER = """
import time

def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    end = time.process_time() + 0.3
    while time.process_time() < end:
        pass
    time.sleep(1.5)
    return batch * length * vocab * bytes_per_value
"""


def test_computing_earns_no_allowance_for_the_sleep_after_it(tmp_path, monkeypatch):
    """Each call computed just under its CPU budget, then slept: CPU time earned 10 times
    itself on the allowance, so the sleeps were never stopped (7 claims × 20 s, 141 s where
    a sleeper alone was stopped at 31 s; about 4.5 h a learner at the defaults: an attack
    round, 2026-12-07). What a call earns is the time it computed or waited for a CPU, twice
    over: on an idle machine (no wait for a CPU, as read here) 0.6 s a call, against 1.8 s."""
    from runner.learner import session as session_module
    from runner.pack import BoundaryError

    monkeypatch.setattr(
        session_module, "_delay_of", lambda pid, task, delays: {**delays, int(task): 0.0}
    )
    path = tmp_path / "learner.py"
    path.write_text(BURNER_SLEEPER, encoding="utf-8")
    limits = WorkerLimits(timeout_s=5, wall_timeout_s=30, learner_wall_s=1.0)
    codes = []
    with LearnerSession(path, ["logits_memory_bytes"], limits) as s:
        assert s.open() is None
        for _ in range(3):
            s.begin_claim()
            try:
                s.implementation()["logits_memory_bytes"](2, 3, 5)
                codes.append("answered")
            except BoundaryError as exc:
                codes.append(exc.code)
            s.end_claim()
    assert "boundary.learner_stalled" in codes, codes


def test_what_a_call_earns_on_the_allowance():
    from runner.learner.session import _earned

    assert _earned(20.0, None) == 200.0  # the kernel does not say: CPU time alone, 10 ×
    assert _earned(20.0, 0.0) == 40.0  # computed, then slept: the sleep is not earned
    assert _earned(20.0, 180.0) == 200.0  # a machine 10 times busy: all it waited, at most 10 ×
    assert _earned(2.0, 3.0) == 10.0


def test_an_import_that_outlasts_the_learners_allowance_is_a_load_failure_in_words(tmp_path):
    from runner.i18n import catalog

    path = tmp_path / "learner.py"
    path.write_text("import time\ntime.sleep(30)\n", encoding="utf-8")
    limits = WorkerLimits(timeout_s=5, wall_timeout_s=10, learner_wall_s=0.5)
    with LearnerSession(path, ["logits_memory_bytes"], limits) as s:
        failure = s.open()
    assert failure is not None and failure.code == "load.learner_stalled"
    for lang in ("zh", "en"):  # a code every catalogue has: not an internal error
        assert "0.5" in catalog(lang)(failure.code, file="learner.py", **failure.params)


CLOSER = """
import os
import time


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    for fd in (1, 2):  # its output closed: the judge's end of that pipe is at its end for ever
        try:
            os.close(fd)
        except OSError:  # closed by an earlier call
            pass
    time.sleep(1.5)
    return batch * length * vocab * bytes_per_value
"""


def test_a_learner_that_closes_its_output_does_not_make_the_judge_spin(tmp_path):
    """An ended pipe is always readable; waiting on it spun the judge at 100 % CPU for as
    long as the call lasted (an outside attack: 45 s of the judge's CPU for a 15 s sleep).
    What the judge spends while the call sleeps is a small part of the sleep, on any machine
    (a busy one gives the judge less CPU, not more)."""
    import time

    path = tmp_path / "learner.py"
    path.write_text(CLOSER, encoding="utf-8")
    with LearnerSession(path, ["logits_memory_bytes"], WorkerLimits()) as s:
        assert s.open() is None
        fn = s.implementation()["logits_memory_bytes"]
        start = time.process_time()
        assert fn(2, 3, 5) == 120
        spent = time.process_time() - start
        assert fn(1, 1, 1) == 4  # and the worker goes on answering
    assert spent < 0.5, f"{spent:.2f} s of the judge's CPU during a 1.5 s sleep"


LOCKER = """
import numpy as np


def softmax(x):
    x.flags.writeable = False  # the caller's array, made read-only: changed
    e = np.exp(x - x.max())
    return e / e.sum()


def greedy_token(logits):
    logits.shape = (1, -1)  # the caller's array, reshaped in place: changed
    return 0
"""


def test_an_array_made_read_only_or_reshaped_in_place_is_a_modified_argument(tmp_path):
    path = tmp_path / "learner.py"
    path.write_text(LOCKER, encoding="utf-8")
    with LearnerSession(path, ["softmax", "greedy_token"], WorkerLimits()) as s:
        assert s.open() is None
        impl = s.implementation()
        ((_, changed),) = impl.attempt_each("softmax", [(np.array([1.0, 2.0]),)])
        assert changed == ["x"]
        ((_, changed),) = impl.attempt_each("greedy_token", [(np.array([1.0, 2.0]),)])
        assert changed == ["logits"]


WARNS = """
import numpy as np


def greedy_token(logits):
    np.exp(np.asarray(logits) * 1000.0)  # overflows: NumPy warns once per place and process
    return 0
"""


@pytest.mark.parametrize("ask", ["call", "each"])
def test_each_claim_shows_the_warnings_its_own_calls_raise_whatever_ran_before(tmp_path, ask):
    """NumPy's overflow warning was shown under the first claim that raised it in a worker
    only: what a claim printed depended on which claims that worker had answered before."""
    for session in _opened(tmp_path, WARNS, ["greedy_token"]):
        impl = session.implementation()
        printed = []
        for _ in range(3):
            session.begin_claim()
            if ask == "call":
                impl["greedy_token"]([1.0])
                impl["greedy_token"]([2.0])
            else:
                impl.each("greedy_token", [([1.0],), ([2.0],)])
            printed.append(session.end_claim().output)
        assert printed[0].count("RuntimeWarning: overflow") == 1, printed[0]  # once per claim
        assert printed[1] == printed[2] == printed[0]


FORKER = """
import os
import time


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    kids = []
    for _ in range(16):
        pid = os.fork()
        if pid == 0:
            time.sleep(1.0)
            os._exit(0)
        kids.append(pid)
    for pid in kids:
        os.waitpid(pid, 0)
    return batch * length * vocab * bytes_per_value
"""


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="a judge that is not root may not read a worker's smaps_rollup (it is not "
    "dumpable): it counts resident sizes, as before",
)
def test_forks_that_share_their_parents_pages_are_not_counted_ten_times(tmp_path):
    """Forks that allocate nothing each show the worker's pages in their resident size:
    summed, ten passed a 256 MiB limit (attack round 26; sixteen here, about 24 MiB each).
    Past the limit in resident sizes, the pages are counted once each (the processes' PSS)
    before a call is stopped."""
    path = tmp_path / "learner.py"
    path.write_text(FORKER, encoding="utf-8")
    limits = WorkerLimits(timeout_s=10, wall_timeout_s=30, memory_mib=256)
    with LearnerSession(path, ["logits_memory_bytes"], limits) as s:
        assert s.open() is None
        s.begin_claim()
        assert s.implementation()["logits_memory_bytes"](2, 3, 5) == 120
        s.end_claim()


def test_a_stream_of_short_threads_does_not_make_a_long_one_count_its_wait_again(
    tmp_path, monkeypatch
):
    """Attack round 29: the waits of 8,192 threads were remembered, the first added forgotten
    first; a learner starting ~50 short threads every 50 ms pushed its long-lived thread out,
    which then counted its whole 5.44 s wait again every ~11 s (225 s held on 37 s of CPU).
    Threads still running are kept; a thread first seen counts at most the time since the
    last reading."""
    import itertools
    import types

    from runner.learner import session as session_module

    monkeypatch.setattr(session_module, "MAX_TRACKED", 4)
    churn = itertools.count(100)
    readings = iter(
        [(1.0, 0, {1: 5.0})]  # the long-lived thread, 5 s waited
        + [(1.0, 0, {1: 5.0, **{next(churn): 0.0 for _ in range(3)}}) for _ in range(20)]
    )
    monkeypatch.setattr(session_module, "_tree_usage", lambda pid: next(readings))
    clock = itertools.count(0.0, 10.0)
    monkeypatch.setattr(session_module, "_clock", lambda: next(clock))
    s = LearnerSession(tmp_path / "learner.py", ["logits_memory_bytes"], WorkerLimits())
    s._process = types.SimpleNamespace(pid=1)
    for _ in range(21):
        s._worker_cpu()
    assert s._delay_seen == 5.0
    assert 1 in s._delays and len(s._delays) == 4


def test_a_thread_first_seen_counts_at_most_the_time_since_the_last_reading(tmp_path, monkeypatch):
    import itertools
    import types

    from runner.learner import session as session_module

    readings = iter([(1.0, 0, {}), (1.0, 0, {7: 50.0})])  # 50 s waited, 2 s after the last
    monkeypatch.setattr(session_module, "_tree_usage", lambda pid: next(readings))
    clock = itertools.count(0.0, 2.0)
    monkeypatch.setattr(session_module, "_clock", lambda: next(clock))
    s = LearnerSession(tmp_path / "learner.py", ["logits_memory_bytes"], WorkerLimits())
    s._process = types.SimpleNamespace(pid=1)
    s._worker_cpu()
    s._worker_cpu()
    assert s._delay_seen == 2.0


def test_the_wait_for_a_cpu_is_the_most_one_process_waited_and_never_turned_off(
    tmp_path, monkeypatch
):
    """How _worker_cpu reads the waits (review of the change, 2026-12-07): a reading that
    found no process raised TypeError and lost the learner's run; a process gone between
    the open and the read of its schedstat turned the figure off for the rest of the run.
    Each reading adds the most any one process waited since the last."""
    import itertools
    import types

    from runner.learner import session as session_module

    readings = iter(
        [
            (1.0, 0, {}),
            (2.0, 0, {1: 5.0, 2: 3.0}),
            (3.0, 0, {1: 6.0, 2: 10.0}),
            (3.0, 0, {1: 6.0}),  # thread 2 hidden from one reading (attack round 28)
            (3.0, 0, {1: 6.0, 2: 10.0}),  # ... and back: its wait is not counted again
        ]
    )
    monkeypatch.setattr(session_module, "_tree_usage", lambda pid: next(readings))
    clock = itertools.count(0.0, 100.0)  # a reading every 100 s: no wait is capped
    monkeypatch.setattr(session_module, "_clock", lambda: next(clock))
    s = LearnerSession(tmp_path / "learner.py", ["logits_memory_bytes"], WorkerLimits())
    s._process = types.SimpleNamespace(pid=1)
    s._worker_cpu()
    assert (s._cpu_seen, s._delay_seen) == (1.0, 0.0)
    s._worker_cpu()
    assert s._delay_seen == 5.0
    s._worker_cpu()
    assert s._delay_seen == 12.0  # 5 + the most either grew (1 s, 7 s)
    s._worker_cpu()
    s._worker_cpu()
    assert s._delay_seen == 12.0
    s._process = None
    gone = 2**22 + 12345  # no such process: left out, the figure kept
    if session_module.SCHEDSTAT:
        assert session_module._delay_of(gone, str(gone), {}) == {}
