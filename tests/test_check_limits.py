"""A pack's check that loops or sleeps ends as its claim's error, never holds the run.

A pack written from the docs alone (a helper round, 2026-12-07) hung ``run``, ``run --impl``
and ``inject`` with a check calling ``time.sleep(3600)`` or looping for ever: the course's
own checks had no limit, and a learner's had a CPU cap only (a sleep uses none). Now every
check has the judge's CPU cap and a wall-clock backstop that leaves out the judge's waits on
a learner's worker (the worker's calls have budgets of their own).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from runner import api
from runner import run as run_module
from runner.learner.limits import WorkerLimits
from runner.pack import Implementation, Measurements, Pack

# each limit short where it is the one tried, the other far (a busy machine gives a spinning
# check less CPU per second: its CPU cap must come first whatever the load)
LIMITS = {
    "sleeps": WorkerLimits(check_cpu_s=60.0, check_wall_s=1.0),
    "loops": WorkerLimits(check_cpu_s=0.3, check_wall_s=600.0),
}


def _module(tmp_path: Path) -> Path:
    module = tmp_path / "09-limits"
    module.mkdir()
    (module / "module.yaml").write_text(
        "id: 09-limits\ntitle: {zh: 限制, en: limits}\nversion: 1\nchapter: ch.txt\npack: limits\n",
        encoding="utf-8",
    )
    (module / "ch.txt").write_text("第 9 章\n", encoding="utf-8")
    claims = "".join(
        f"  - id: f.{name.replace('_', '-')}\n    statement: {{zh: {name}, en: {name}}}\n    check: {name}\n"
        "    expect:\n      - {measure: value, value: 2.0, tolerance: {kind: exact}, "
        "source: test}\n"
        for name in ("sleeps", "loops", "waits_on_f", "runs_out")
    )
    (module / "1-f.yaml").write_text(
        "proposition: 1\nstage: {zh: 阶段一, en: stage 1}\ntitle: {zh: f, en: f}\nclaims:\n"
        + claims,
        encoding="utf-8",
    )
    return module


def _pack(sleep_on_the_references_value_only: bool = False) -> Pack:
    pack = Pack("limits", code=())

    @pack.subject("f")
    def f() -> float:
        """Two."""
        return 2.0

    @pack.check("sleeps", needs=("f",), measures=("value",))
    def sleeps(impl: Implementation) -> Measurements:
        value = impl["f"]()
        if value == 2.0 or not sleep_on_the_references_value_only:
            time.sleep(30)  # the pack's bug: a check that blocks
        return {"value": value}

    @pack.check("loops", needs=("f",), measures=("value",))
    def loops(impl: Implementation) -> Measurements:
        value = impl["f"]()
        end = time.process_time() + 30
        while time.process_time() < end:  # the pack's bug: a check that spins
            pass
        return {"value": value}

    @pack.check("runs_out", needs=("f",), measures=("value",))
    def runs_out(impl: Implementation) -> Measurements:
        raise MemoryError("the check's own")

    @pack.check("waits_on_f", needs=("f",), measures=("value",))
    def waits_on_f(impl: Implementation) -> Measurements:
        return {"value": impl["f"]()}

    return pack


def _reasons(run: api.Run) -> dict[str, tuple[str, str | None]]:
    return {r.id: (r.status, r.reason.code if r.reason else None) for r in run.results}


@pytest.mark.parametrize("check", ["sleeps", "loops"])
def test_our_checks_that_sleep_or_loop_are_their_claims_errors(tmp_path, monkeypatch, check):
    monkeypatch.setattr(run_module, "OWN_CHECK_LIMITS", LIMITS[check])
    packs = api.load_claims([_module(tmp_path)], packs={"limits": _pack()})
    options = api.RunOptions(faults=False, pattern=f"{check} or waits-on-f")
    run = api.run_packs(packs, api.Reference(), options)
    code = "claim.check_wall_limit" if check == "sleeps" else "claim.check_cpu_limit"
    assert _reasons(run) == {f"f.{check}": ("error", code), "f.waits-on-f": ("passed", None)}


@pytest.mark.parametrize("check", ["sleeps", "loops"])
def test_a_learners_run_ends_a_check_that_sleeps_or_loops(tmp_path, check):
    packs = api.load_claims([_module(tmp_path)], packs={"limits": _pack()})
    learner = tmp_path / "mine.py"
    learner.write_text("def f():\n    return 2.0\n", encoding="utf-8")
    options = api.RunOptions(pattern=check, limits=LIMITS[check])
    run = api.run_packs(packs, api.LearnerFile(learner), options)
    (result,) = run.results
    # the sleep is the check's own (no value of the learner's makes the judge sleep); a CPU
    # overrun is blamed on the value the check was computing on, as for any learner's value
    code = "claim.check_wall_limit" if check == "sleeps" else "boundary.check_cpu"
    assert (result.status, result.reason and result.reason.code) == ("error", code)


def test_waiting_on_a_learners_slow_function_is_not_the_checks_wall_time(tmp_path):
    packs = api.load_claims([_module(tmp_path)], packs={"limits": _pack()})
    learner = tmp_path / "mine.py"
    learner.write_text("import time\n\ndef f():\n    time.sleep(1.5)\n    return 2.0\n")
    run = api.run_packs(
        packs,
        api.LearnerFile(learner),
        api.RunOptions(pattern="waits-on-f", limits=LIMITS["sleeps"]),
    )
    assert [(r.status, r.reason) for r in run.results] == [("passed", None)]


def test_a_checks_own_memory_error_is_its_error_not_a_limit(tmp_path):
    """Our checks have no memory cap of the judge's: a MemoryError of theirs is said as
    any exception of theirs is, at the pack's line, not as a limit run past."""
    packs = api.load_claims([_module(tmp_path)], packs={"limits": _pack()})
    run = api.run_packs(packs, api.Reference(), api.RunOptions(faults=False, pattern="runs-out"))
    (result,) = run.results
    assert result.status == "error" and result.reason is not None
    assert result.reason.code == "claim.raised_at", result.reason


def test_a_check_that_hangs_on_the_references_values_is_stopped_for_a_failing_learner(
    tmp_path, monkeypatch
):
    """A learner's failing claim runs the check on the reference, to tell the course's bug
    from the learner's: that run is under our checks' limits too (a review: a check that
    hangs on the reference's values alone hung every failing learner)."""
    monkeypatch.setattr(run_module, "OWN_CHECK_LIMITS", LIMITS["sleeps"])
    pack = _pack(sleep_on_the_references_value_only=True)
    packs = api.load_claims([_module(tmp_path)], packs={"limits": pack})
    learner = tmp_path / "mine.py"
    learner.write_text("def f():\n    return 3.0\n", encoding="utf-8")
    run = api.run_packs(packs, api.LearnerFile(learner), api.RunOptions(pattern="sleeps"))
    (result,) = run.results  # the course's bug, said as such (an error, as any of its bugs)
    assert result.status == "error"
    assert result.reason is not None and result.reason.code == "claim.check_wall_limit"


def test_a_callers_own_timers_are_as_they_were_after_a_run(tmp_path):
    """Every claim's limits arm the interval timers; a caller's own watchdog (an alarm, a
    profiling timer) is disarmed for the claim and set again after, less the time taken."""
    import signal

    packs = api.load_claims([_module(tmp_path)], packs={"limits": _pack()})
    signal.setitimer(signal.ITIMER_REAL, 300.0)
    try:
        api.run_packs(packs, api.Reference(), api.RunOptions(faults=False, pattern="waits-on-f"))
        left, _ = signal.getitimer(signal.ITIMER_REAL)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    assert 200.0 < left < 300.0


def test_what_a_learner_prints_is_read_up_to_a_limit_then_its_claims_error(tmp_path):
    """Printing is cheap for the learner and reading it is not for the judge: 106 GB printed
    with sendfile cost the judge 4.4 times the learner's CPU (an attack round, 2026-12-07).
    Past ``output_mib`` in one claim the worker is stopped and the claim errs, said so."""
    packs = api.load_claims([_module(tmp_path)], packs={"limits": _pack()})
    learner = tmp_path / "mine.py"
    learner.write_text(
        "import sys\n\ndef f():\n    sys.stdout.write('x' * (3 << 20))\n    return 2.0\n",
        encoding="utf-8",
    )
    options = api.RunOptions(pattern="waits-on-f", limits=WorkerLimits(output_mib=1))
    (result,) = api.run_packs(packs, api.LearnerFile(learner), options).results
    assert (result.status, result.reason and result.reason.code) == ("error", "boundary.printed")
