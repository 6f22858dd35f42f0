"""One learner's claims shared between two judges (runner.learner.share): the same verdicts as
one judge gives, hidden claims last and alone, nothing lost when the forked judge dies.

The learner files are the reference scaffold with one of the learner's own functions defined
after it (a later definition is the one a module keeps), written here as a learner writes
the mistake.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from runner import api
from runner.learner import share
from runner.models import ClaimResult
from runner.record.costs import recorded_costs
from tests.conftest import MODULE, ROOT
from tests.test_boundary import scaffold_reference

# Each redefines one function of the scaffold, the way a learner gets it wrong (or right,
# differently): its name, and its source.
LEARNERS = {
    "correct": "",
    "temperature-times": """
def softmax_temperature(logits, temperature):
    z = np.asarray(logits, dtype=np.float64) * temperature  # times, not divided
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "mask-multiply-zero": """
def causal_masked_attention(scores):
    s = np.asarray(scores, dtype=np.float64)
    t = s.shape[-1]
    s = s * np.tril(np.ones((t, t)))  # zero instead of deleting the future
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
    "logits-fp16": """
def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    return batch * length * vocab * 2  # FP16, whatever was asked
""",
}
# prints which worker answered (a token drawn when the file is imported: each worker has a
# process namespace of its own, where every worker's process id is the same), in every call
# of a function many claims make
WHO_ANSWERS = """
import os as _os

_softmax_temperature = softmax_temperature
_TOKEN = _os.urandom(8).hex()


def softmax_temperature(logits, temperature):
    print("WORKER", _TOKEN)
    return _softmax_temperature(logits, temperature)
"""


@pytest.fixture(scope="module")
def packs() -> list[Any]:
    return api.load_claims([MODULE])


@pytest.fixture(scope="module")
def scaffold() -> str:
    return scaffold_reference()


def _file(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return path


def _verdicts(run: api.Run) -> list[tuple[str, str, list[tuple[str, str]]]]:
    return [(r.id, r.status, [(m.name, m.verdict) for m in r.measurements]) for r in run.results]


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_two_judges_give_the_verdicts_one_judge_gives(packs, scaffold, tmp_path, name):
    path = _file(tmp_path, name, scaffold + LEARNERS[name])

    alone = api.run_packs(packs, api.LearnerFile(path), api.RunOptions(learner_jobs=1))
    # split as the command line splits it: by the reference's recorded costs
    costs = recorded_costs([ROOT / "evidence"], packs)
    assert costs, "the reference's evidence is committed"
    options = api.RunOptions(learner_jobs=2, claim_costs=costs)
    shared = api.run_packs(packs, api.LearnerFile(path), options)

    assert [r.id for r in shared.results] == [r.id for r in alone.results]  # the module's order
    assert _verdicts(shared) == _verdicts(alone)
    assert shared.exit_code() == alone.exit_code() == (0 if name == "correct" else 1)
    assert shared.sandbox == alone.sandbox


def test_two_judges_each_have_a_worker_of_their_own(packs, scaffold, tmp_path):
    path = _file(tmp_path, "who", scaffold + WHO_ANSWERS)

    def workers(jobs: int) -> set[str]:
        run = api.run_packs(packs, api.LearnerFile(path), api.RunOptions(learner_jobs=jobs))
        assert run.exit_code() == 0
        printed = "\n".join(r.output or "" for r in run.results)
        return set(re.findall(r"WORKER ([0-9a-f]{16})\b", printed))

    if (os.cpu_count() or 1) > 1 and len(os.sched_getaffinity(0)) > 1:
        assert len(workers(2)) == 2
    assert len(workers(1)) == 1


# -- the sharing itself, with claims that are plain functions ------------------------------------
class Session:
    """What the sharing asks of a learner's session, recorded."""

    def __init__(self) -> None:
        self.isolation, self.missing = "own-user", ["a"]
        self.events: list[str] = []
        self.wall: Any = None

    def share_allowance(self, shared: Any) -> None:
        shared.value = 100.0
        self.wall = shared

    def kill(self) -> None:
        self.events.append(f"kill {os.getpid()}")

    def disown(self) -> None:
        self.events.append(f"disown {os.getpid()}")

    def restart(self) -> None:
        self.events.append(f"restart {os.getpid()}")

    def fold(self, isolation: str, missing: list[str]) -> None:
        self.events.append("fold")
        self.missing += [m for m in missing if m not in self.missing]


def _result(index: int) -> ClaimResult:
    text = {"zh": "测试", "en": "test"}
    return ClaimResult(
        id=f"claim-{index}", proposition=1, stage=text, statement=text, check="test",
        status="passed", duration_ms=0.0, observations={"pid": os.getpid()},
    )  # fmt: skip


def _both_take() -> Any:
    """An event the forked judge sets as it takes its first claim, and this judge waits for
    in its first: both judges take claims, however quickly this one could take them all."""
    taken = multiprocessing.get_context("fork").Event()
    parent = os.getpid()

    def wait_or_set() -> None:
        if os.getpid() != parent:
            taken.set()
        else:
            assert taken.wait(timeout=60), "the forked judge never took a claim"

    return wait_or_set


def test_what_the_forked_judge_did_not_return_is_judged_here(monkeypatch):
    """The forked judge dies on the first claim it takes (a learner's code may kill its
    judge): every claim still has one result, each judged here, exactly once."""
    parent = os.getpid()
    ran: list[int] = []
    both_take = _both_take()

    def claim(index: int) -> Any:
        def run() -> ClaimResult:
            both_take()
            if os.getpid() != parent:
                os._exit(3)
            ran.append(index)
            return _result(index)

        return run

    monkeypatch.setattr(api, "usable_cpus", lambda: 2)
    session = Session()
    claims = [(True, claim(i)) for i in range(12)]

    done = api._judged(session, claims, jobs=2)  # type: ignore[arg-type]

    assert sorted(done) == list(range(12))
    assert sorted(ran) == list(range(12))  # each once, here
    assert {r.observations["pid"] for r in done.values()} == {parent}
    assert "fold" not in session.events  # nothing came back from the dead judge


def test_hidden_claims_run_last_each_in_a_worker_of_its_own(monkeypatch):
    """Visible claims are shared (both judges take some); the hidden ones, wherever they
    are in the module, run afterwards, here, and the worker is killed after each."""
    parent = os.getpid()
    order: list[str] = []
    session = Session()
    both_take = _both_take()

    def claim(index: int, shown: bool) -> Any:
        def run() -> ClaimResult:
            if shown:
                both_take()
            if os.getpid() == parent:
                order.append(f"{'visible' if shown else 'hidden'} {index}")
                session.events.append(f"run {index}")
            return _result(index)

        return run

    monkeypatch.setattr(api, "usable_cpus", lambda: 2)
    hidden = {0, 5}
    claims = [(i not in hidden, claim(i, i not in hidden)) for i in range(10)]

    done = api._judged(session, claims, jobs=2)  # type: ignore[arg-type]

    assert sorted(done) == list(range(10))
    assert order[-2:] == ["hidden 0", "hidden 5"]
    assert all(not o.startswith("hidden") for o in order[:-2])
    # the forked judge judged some visible claims, and reported back
    assert {r.observations["pid"] for i, r in done.items() if i not in hidden} != {parent}
    assert "fold" in session.events
    events = session.events
    for index in sorted(hidden):  # each hidden claim's worker is killed right after it
        assert events[events.index(f"run {index}") + 1] == f"kill {parent}"
    assert events.index("fold") < events.index("run 0")


def test_one_judge_shares_nothing(monkeypatch):
    monkeypatch.setattr(share, "share_claims", lambda *a: pytest.fail("shared"))
    claims = [(True, lambda i=i: _result(i)) for i in range(3)]
    done = api._judged(Session(), claims, jobs=1)  # type: ignore[arg-type]
    assert sorted(done) == [0, 1, 2]


def test_what_the_file_prints_when_imported_is_shown_once(packs, scaffold, tmp_path):
    """The forked judge's worker imports the file again: what it prints then was shown when
    the file was first imported, and is no claim's output."""
    path = _file(tmp_path, "loud", scaffold + '\nprint("IMPORTED", flush=True)\n')

    run = api.run_packs(
        packs, api.LearnerFile(path), api.RunOptions(learner_jobs=2, pattern="contract")
    )

    assert run.load_output == "IMPORTED\n"
    assert [r.id for r in run.results if "IMPORTED" in (r.output or "")] == []
    assert run.exit_code() == 0


@pytest.mark.parametrize(
    ("v2", "v1", "quota", "cpus"),
    [
        ("50000 100000\n", None, 0.5, 1),  # Gradescope's half a CPU: one process
        ("max 100000\n", None, None, 2),
        ("150000 100000\n", None, 1.5, 2),
        (None, ("-1", "100000"), None, 2),
        (None, ("50000", "100000"), 0.5, 1),
        (None, None, None, 2),
    ],
)
def test_a_containers_cpu_quota_caps_the_processes(monkeypatch, tmp_path, v2, v1, quota, cpus):
    from runner import machine

    cpu_max, cfs = tmp_path / "cpu.max", tmp_path / "cpu" / "cpu.cfs_quota_us"
    if v2 is not None:
        cpu_max.write_text(v2, encoding="ascii")
    if v1 is not None:
        cfs.parent.mkdir()
        cfs.write_text(v1[0], encoding="ascii")
        (cfs.parent / "cpu.cfs_period_us").write_text(v1[1], encoding="ascii")
    monkeypatch.setattr(machine, "CPU_MAX", str(cpu_max))
    monkeypatch.setattr(machine, "CFS_QUOTA", (str(cfs),))
    monkeypatch.setattr(machine.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)

    assert machine.cpu_quota() == quota
    assert machine.usable_cpus() == cpus


INTERRUPTED_AT_THE_FORK = """
import multiprocessing, signal, sys
from concurrent.futures import ProcessPoolExecutor
from runner.learner import share
from tests.test_share import Session, _result

# Ctrl-C as a terminal's shell gives it: a parent that ignores SIGINT (a test process
# before this one may have) hands that on, and the signal raised below would do nothing
signal.signal(signal.SIGINT, signal.default_int_handler)
real_submit = ProcessPoolExecutor.submit

def submit_then_interrupted(self, *args, **kwargs):
    future = real_submit(self, *args, **kwargs)
    signal.raise_signal(signal.SIGINT)  # as the forked judge has just been started
    return future

ProcessPoolExecutor.submit = submit_then_interrupted
try:
    share.share_claims(Session(), [(i, lambda i=i: _result(i)) for i in range(4)])
except KeyboardInterrupt:
    print("interrupted", len(multiprocessing.active_children()))
"""


def test_ctrl_c_while_the_judge_is_forked_leaves_no_process_behind():
    """Ctrl-C (or SIGTERM) that lands while the forked judge is being started: the run stops
    with it, and the forked judge is stopped too (it was left waiting for a task its parent
    never gave it, and the parent's exit waited on it for ever). In a process of its own:
    the signal reaches the main thread, and a process that never exits shows."""
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_AT_THE_FORK], cwd=ROOT, capture_output=True,
        text=True, timeout=120, check=False,
    )  # fmt: skip

    assert (done.returncode, done.stdout.strip()) == (0, "interrupted 0"), done.stderr


def test_the_split_is_fixed_and_the_allowance_is_one(monkeypatch):
    """This judge takes the first claim and every second after it, the forked one the rest,
    in every run; what either spends of the learner's wall-clock allowance is taken from
    the one allowance."""
    parent = os.getpid()
    session = Session()

    def claim(index: int) -> Any:
        def run() -> ClaimResult:
            session.wall.value -= 1.0  # a second waited on the learner, by either judge
            return _result(index)

        return run

    done = share.share_claims(session, [(i, claim(i)) for i in range(9)])  # type: ignore[arg-type]

    assert sorted(done) == list(range(9))
    here = [i for i, r in done.items() if r.observations["pid"] == parent]
    assert here == [0, 2, 4, 6, 8]
    assert session.wall.value == 100.0 - 9


# -- how the claims are split --------------------------------------------------------------------
def test_without_costs_this_judge_takes_every_second_claim():
    assert share.split(list(range(7)), []) == ([0, 2, 4, 6], [1, 3, 5])
    assert share.split(list(range(3)), [None, None, None]) == ([0, 2], [1])
    # figures that are not one per claim are not guessed at; nor are figures all zero
    assert share.split(list(range(4)), [5.0, 1.0]) == ([0, 2], [1, 3])
    assert share.split(list(range(4)), [0.0, None, 0.0, 0.0]) == ([0, 2], [1, 3])


def test_costs_as_large_as_floats_go_still_split_in_two():
    """Sums of costs near the largest float would overflow to infinity and tie forever."""
    here, there = share.split(list(range(6)), [1e308, 1e308, None, None, None, None])
    assert (len(here), len(there)) == (3, 3)
    assert (0 in here) != (1 in here)  # the two largest apart


def test_the_costliest_claims_go_first_each_to_the_share_that_costs_less():
    # 50 here; 30 there; 25 there (30 < 50); 3 here (50 < 55); 2 here; 1 here (a tie is here)
    costs = [1.0, 50.0, 2.0, 30.0, 25.0, 3.0]
    assert share.split(list(range(6)), costs) == ([0, 1, 2, 5], [3, 4])


def test_a_claim_without_a_usable_cost_weighs_as_the_usual_claim():
    """No figure, NaN, infinity or a negative one: weighed as the median of the others, never
    as nothing (or every such claim would pile onto one judge)."""
    for odd in (None, math.nan, math.inf, -1.0):
        here, there = share.split(list(range(5)), [odd, odd, 10.0, 10.0, 10.0])
        assert len(here) in (2, 3) and len(there) in (2, 3), odd
        assert sorted(here + there) == list(range(5))


@given(st.lists(st.floats(0, 1e4) | st.none(), min_size=1, max_size=80))
def test_the_split_is_fixed_whole_ordered_and_balanced(costs):
    tasks = list(range(len(costs)))
    here, there = share.split(tasks, costs)

    assert share.split(tasks, costs) == (here, there)  # the same figures, the same split
    assert sorted(here + there) == tasks  # every claim once
    assert here == sorted(here) and there == sorted(there)  # in the module's order
    known = [c for c in costs if c is not None]
    if known and max(known) > 0:  # the greedy rule: the shares differ by one claim at most
        usual = statistics.median_low(known)
        weight = [usual if c is None else c for c in costs]
        gap = abs(sum(weight[i] for i in here) - sum(weight[i] for i in there))
        assert gap <= max(weight) * (1 + 1e-9) + 1e-9


def test_the_forked_judge_takes_the_share_the_costs_give_it(monkeypatch):
    parent = os.getpid()
    costs = [1.0, 50.0, 2.0, 30.0, 25.0, 3.0]
    claims = [(i, lambda i=i: _result(i)) for i in range(6)]

    done = share.share_claims(Session(), claims, costs)  # type: ignore[arg-type]

    here = sorted(i for i, r in done.items() if r.observations["pid"] == parent)
    assert here == [0, 1, 2, 5]


# -- where the costs come from: the reference's recorded evidence -------------------------------
def _evidence(packs: list[Any]) -> tuple[str, dict[str, Any]]:
    from runner.record import evidence_name

    name = evidence_name(packs[0])
    return name, json.loads((ROOT / "evidence" / name).read_text(encoding="utf-8"))


def test_the_costs_are_what_the_reference_evidence_recorded(packs, tmp_path):
    name, doc = _evidence(packs)
    (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")

    found = recorded_costs([tmp_path], packs)

    recorded = {c["id"]: c["duration_ms"] for c in doc["claims"]}
    assert found == {packs[0].meta.id: recorded}
    assert set(recorded) == {c.claim.id for c in packs[0].claims}


def _spoiled(doc: dict[str, Any]) -> list[Any]:
    learner = json.loads(json.dumps(doc))
    learner["implementation"] = {"kind": "learner", "name": "me.py", "sha256": "0" * 64}
    return [learner, [], {"claims": doc["claims"]}, {**doc, "claims": {"a": 1}}, "text", None]


def test_evidence_that_is_not_the_reference_s_gives_no_costs(packs, tmp_path):
    """A learner's evidence, another shape, no file, a folder, a FIFO (never waited on):
    no costs, and no error (the split is then every second claim)."""
    name, doc = _evidence(packs)
    target = tmp_path / name
    for spoiled in _spoiled(doc):
        target.write_text(json.dumps(spoiled), encoding="utf-8")
        assert recorded_costs([tmp_path], packs) == {}, str(spoiled)[:80]
    for raw in (b"{", b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000):
        target.write_bytes(raw)
        assert recorded_costs([tmp_path], packs) == {}
    target.unlink()
    assert recorded_costs([tmp_path], packs) == {}
    target.mkdir()
    assert recorded_costs([tmp_path], packs) == {}
    target.rmdir()
    os.mkfifo(target)
    assert recorded_costs([tmp_path], packs) == {}


def test_a_claim_whose_figure_is_unusable_has_no_cost(packs, tmp_path):
    name, doc = _evidence(packs)
    claims = doc["claims"]
    # 1e400 reads as infinity; 10**400 is an integer no float holds (float() overflows)
    odd = {0: True, 1: -3.0, 2: "12", 3: None, 4: 1e400, 5: 10**400}
    for at, value in odd.items():
        claims[at]["duration_ms"] = value
    claims[6] = "not a claim"
    text = json.dumps(doc).replace("Infinity", "1e400")
    (tmp_path / name).write_text(text, encoding="utf-8")

    found = recorded_costs([tmp_path], packs)[packs[0].meta.id]

    assert len(found) == len(claims) - 7
    assert all(isinstance(v, float) and math.isfinite(v) and v >= 0 for v in found.values())


def test_a_file_larger_than_any_modules_evidence_is_not_read(packs, tmp_path):
    """Reference evidence is about 0.5 MiB; one past the cap is passed over whole, even
    when what comes first is valid evidence (a file of empty lists this size would parse
    into some hundreds of MiB)."""
    from runner.record.costs import MAX_READ_BYTES

    name, doc = _evidence(packs)
    text = json.dumps(doc)
    (tmp_path / name).write_text(text + " " * (MAX_READ_BYTES - len(text)), encoding="utf-8")
    assert recorded_costs([tmp_path], packs)
    (tmp_path / name).write_text(text + " " * (MAX_READ_BYTES + 1 - len(text)), encoding="utf-8")
    assert recorded_costs([tmp_path], packs) == {}


def test_run_options_stay_hashable():
    costs = {"m": {"c": 1.0}}
    assert hash(api.RunOptions(claim_costs=costs)) == hash(api.RunOptions())


def test_a_learners_run_splits_by_the_evidence_beside_it(monkeypatch, scaffold, tmp_path):
    """The command line reads the reference's evidence from the folder the run writes to and
    hands each visible claim's recorded cost to the sharing, in the claims' order."""
    from runner.cli import main

    name, doc = _evidence(api.load_claims([MODULE]))
    for at, claim in enumerate(doc["claims"]):  # not the committed figures: these, from --out
        claim["duration_ms"] = float(at % 7)
    out = tmp_path / "ev"
    out.mkdir()
    (out / name).write_text(json.dumps(doc), encoding="utf-8")
    path = _file(tmp_path, "correct", scaffold)
    handed: list[Any] = []

    def record(session: Any, tasks: Any, costs: Any = ()) -> dict[int, ClaimResult]:
        handed.append(list(costs))
        return {}  # as if the forked judge could not start: every claim is judged here

    from runner import cmd_run

    for module in (api, cmd_run):  # as on two CPUs, whatever this machine has
        monkeypatch.setattr(module, "usable_cpus", lambda: 2)
    monkeypatch.setattr(share, "share_claims", record)
    code = main(["run", str(MODULE), "--impl", str(path), "--out", str(out), "-q", "--lang", "en"])

    assert code == 0
    assert handed == [[c["duration_ms"] for c in doc["claims"]]]


def test_the_first_folder_with_the_references_evidence_gives_the_costs(packs, tmp_path):
    """--out first, then evidence/ (where the reference is recorded by default): a folder
    without the reference's evidence, or with a learner's under its name, is passed over."""
    name, doc = _evidence(packs)
    out, default = tmp_path / "out", tmp_path / "evidence"
    out.mkdir()
    default.mkdir()
    (default / name).write_text(json.dumps(doc), encoding="utf-8")
    recorded = {packs[0].meta.id: {c["id"]: c["duration_ms"] for c in doc["claims"]}}

    assert recorded_costs([out, default], packs) == recorded
    (out / name).write_text(json.dumps(_spoiled(doc)[0]), encoding="utf-8")  # a learner's
    assert recorded_costs([out, default], packs) == recorded
    halved = json.loads(json.dumps(doc))
    for claim in halved["claims"]:
        claim["duration_ms"] /= 2
    (out / name).write_text(json.dumps(halved), encoding="utf-8")
    found = recorded_costs([out, default], packs)[packs[0].meta.id]
    assert found == {k: v / 2 for k, v in recorded[packs[0].meta.id].items()}
