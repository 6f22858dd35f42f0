"""What does one more learner cost when a class is judged at once?

Builds a class of 24 learners' files in a temporary folder (20 copies of the reference
scaffold, 4 with one mistake each), then times, alternating so that drift in the machine's
load affects them alike:

    cold:  python -m runner run claims/ --impl one.py            (one learner, cold start;
                                                                  its claims on two judges)
    alone: the same with --jobs 1                                (one judge, as before)
    class: python -m runner run claims/ --impl CLASS/ --jobs 2   (all 24)
    half:  the same on the class's first 12 files

All write evidence (to temporary folders), as a grader's run does. The marginal cost of a
learner is what the class run costs beyond one cold run, per further learner:
(class - cold) / 23; printed as a ratio of the cold run (target <= 0.25x), from the medians
and from the fastest runs (the machine is shared: the fastest are the least disturbed). Since
one learner's claims are shared by two judges, the cold run is shorter and that difference
counts its saving as the class's cost; (class - half) / 12 is printed too, where the
start-up cancels out.

Then, in this process, where one learner's time goes: the fork server's start (once per
judging process), a worker's start (fork and confinement), importing the file, waiting on
the worker (the learner's code and the round trips), the checks' own work in the judge,
and building and writing the evidence.

    python bench/bench_class.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_run import ONE_THREAD, compile_bytecode  # noqa: E402  (this folder is not a package)

CLASS_SIZE = 24
JOBS = 2
TARGET = 0.25
# Mistakes a learner makes (each replaces one function of the reference scaffold).
MISTAKES = {
    "fp16_bill": (
        "    return batch * length * vocab * bytes_per_value",
        "    return batch * length * vocab * 2  # FP16 whatever was asked",
    ),
    "temperature_times": (
        "def softmax_temperature(",
        "def softmax_temperature(logits, temperature):\n"
        "    z = np.asarray(logits, dtype=np.float64) * temperature  # times, not divided\n"
        "    e = np.exp(z - z.max(axis=-1, keepdims=True))\n"
        "    return e / e.sum(axis=-1, keepdims=True)\n\n\n"
        "def _unused_softmax_temperature(",
    ),
    "no_causal_mask": (
        "def causal_masked_attention(",
        "def causal_masked_attention(scores):\n"
        "    s = np.asarray(scores, dtype=np.float64)  # no mask: every position sees all\n"
        "    e = np.exp(s - s.max(axis=-1, keepdims=True))\n"
        "    return e / e.sum(axis=-1, keepdims=True)\n\n\n"
        "def _unused_causal_masked_attention(",
    ),
    "top_k_unwritten": (
        "def top_k_renormalize(",
        "def top_k_renormalize(probs, k):\n"
        "    raise NotImplementedError\n\n\n"
        "def _unused_top_k_renormalize(",
    ),
}


def make_class(folder: Path) -> tuple[Path, list[Path]]:
    """The class: (a correct learner's file for the cold run, every file of the class)."""
    scaffold = subprocess.run(
        [sys.executable, "-m", "runner", "scaffold", "23-design-tradeoffs", "--reference"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    klass = folder / "class"
    klass.mkdir()
    files = []
    for i in range(CLASS_SIZE - len(MISTAKES)):
        path = klass / f"learner{i + 1:02d}.py"
        path.write_text(scaffold, encoding="utf-8")
        files.append(path)
    for name, (old, new) in MISTAKES.items():
        if scaffold.count(old) != 1:
            sys.exit(f"the reference scaffold changed: {old!r} is not there once")
        path = klass / f"{name}.py"
        path.write_text(scaffold.replace(old, new), encoding="utf-8")
        files.append(path)
    alone = folder / "alone.py"
    alone.write_text(scaffold, encoding="utf-8")
    return alone, files


def timed(cmd: list[str], expect: set[int]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in expect:
        sys.exit(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return elapsed, done.stdout


def check_class(payload: dict[str, object]) -> None:
    """The class was judged as it should be: the copies pass, each mistake fails."""
    rows = payload["learners"]
    assert isinstance(rows, list) and len(rows) == CLASS_SIZE
    for row in rows:
        name = Path(row["file"]).stem
        passed = row["exit_code"] == 0
        if passed != (name not in MISTAKES):
            sys.exit(f"{row['file']}: exit {row['exit_code']}, counts {row['counts']}")


def phases(alone: Path, files: list[Path]) -> list[str]:
    """Where one learner's time goes, judged in this process (one judge, no --jobs)."""
    import argparse as ap

    from runner import api, cmd_run
    from runner.learner import session
    from runner.provenance import Commit, start_measured_commit
    from runner.record import write_evidence

    packs = api.load_claims([ROOT / "claims"])
    commit = start_measured_commit([p.directory for p in packs])()
    if not isinstance(commit, Commit):
        sys.exit("the claims are not in a git checkout: evidence cannot be written")
    spent = {"start": 0.0, "import": 0.0, "wait": 0.0, "calls": 0.0, "exchanges": 0.0}
    real_start, real_receive, real_exchange = (
        session._Server.start.__func__,  # type: ignore[attr-defined]
        session.LearnerSession._receive,
        session.LearnerSession._exchange,
    )

    def start(cls: type, target: object, args: tuple[object, ...]) -> object:
        spent["_t0"] = time.perf_counter()
        return real_start(cls, target, args)

    def receive(self: session.LearnerSession, name: str) -> dict[str, object]:
        reply = real_receive(self, name)
        now = time.perf_counter()
        if reply.get("status") == "confined":
            spent["start"] += now - spent["_t0"]
            spent["_t1"] = now
        elif reply.get("status") in ("loaded", "raised") and "_t1" in spent:
            spent["import"] += now - spent.pop("_t1")
        return reply

    def exchange(
        self: session.LearnerSession,
        name: str,
        request: bytes,
        cases: int,
        through_raises: bool = False,
    ) -> list[dict[str, object]]:
        t = time.perf_counter()
        try:
            replies = real_exchange(self, name, request, cases, through_raises)
            spent["calls"] += len(replies)
            return replies
        finally:
            spent["wait"] += time.perf_counter() - t
            spent["exchanges"] += 1

    session._Server.start = classmethod(start)  # type: ignore[method-assign, assignment]
    session.LearnerSession._receive = receive  # type: ignore[method-assign]
    session.LearnerSession._exchange = exchange  # type: ignore[method-assign]
    args = ap.Namespace(paths=["claims/"], pattern=None, challenge=None)
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        api.run_packs(packs, api.LearnerFile(alone))
        first = time.perf_counter() - t
        for key in (
            "start",
            "import",
            "wait",
            "calls",
            "exchanges",
        ):  # the first learner is not counted
            spent[key] = 0.0
        total = evidence = 0.0
        for path in files:
            t = time.perf_counter()
            run = api.run_packs(packs, api.LearnerFile(path))
            t2 = time.perf_counter()
            docs = cmd_run._evidence(run, commit, args)
            write_evidence(Path(out), docs, commit.root, variant=path.stem)
            total += t2 - t
            evidence += time.perf_counter() - t2
    n = len(files)
    own = total - spent["start"] - spent["import"] - spent["wait"]
    ms = 1000 / n
    return [
        f"first learner of a judging process (fork server start included): {first * 1000:7.1f} ms",
        f"per learner, mean of {n} (one judge):",
        f"  worker start (fork, confinement)        {spent['start'] * ms:7.1f} ms",
        f"  importing the file                      {spent['import'] * ms:7.1f} ms",
        f"  waiting on the worker, {spent['calls'] / n:,.0f} calls in"
        f" {spent['exchanges'] / n:,.0f} exchanges  {spent['wait'] * ms:7.1f} ms",
        f"  the checks' own work in the judge       {own * ms:7.1f} ms",
        f"  evidence build and write                {evidence * ms:7.1f} ms",
        f"  total                                   {(total + evidence) * ms:7.1f} ms",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    compiled = compile_bytecode()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        alone, files = make_class(folder)
        half = folder / "half"  # the first half of the class, for the marginal cost
        half.mkdir()
        for path in files[: CLASS_SIZE // 2]:
            (half / path.name).write_bytes(path.read_bytes())
        base = [sys.executable, "-m", "runner", "run", "claims/", "--lang", "en"]
        cold_cmd = [*base, "--impl", str(alone), "--out", str(folder / "ev-cold")]
        alone_cmd = [*cold_cmd, "--jobs", "1"]  # one learner on one judge, as before sharing
        class_cmd = [*base, "--impl", str(folder / "class"), "--jobs", str(JOBS),
                     "--out", str(folder / "ev-class"), "--format", "json"]  # fmt: skip
        half_cmd = [*base, "--impl", str(half), "--jobs", str(JOBS),
                    "--out", str(folder / "ev-half")]  # fmt: skip
        timed(cold_cmd, {0})  # warm the file cache for each
        timed(alone_cmd, {0})
        timed(half_cmd, {0, 1})
        _, out = timed(class_cmd, {1})
        check_class(json.loads(out))
        colds, alones, classes, halves = [], [], [], []
        for _ in range(args.repeat):
            colds.append(timed(cold_cmd, {0})[0])
            alones.append(timed(alone_cmd, {0})[0])
            classes.append(timed(class_cmd, {1})[0])
            halves.append(timed(half_cmd, {0, 1})[0])
        breakdown = phases(alone, files)
    cold, klass = statistics.median(colds), statistics.median(classes)
    cold_min, class_min = min(colds), min(classes)
    one, one_min = statistics.median(alones), min(alones)
    # what a further learner costs, from two class sizes (the start-up cancels out), and as
    # issue 20 first defined it: beyond one cold run
    grown = (klass - statistics.median(halves)) / (CLASS_SIZE - CLASS_SIZE // 2)
    per = (klass - cold) / (CLASS_SIZE - 1)
    per_min = (class_min - cold_min) / (CLASS_SIZE - 1)
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    # the machine may be shared: its load says how much the figures below can be trusted
    print(f"machine: {machine}, load average {os.getloadavg()[0]:.2f} at the end")
    print(f"{args.repeat} runs of each, alternating; {compiled}")
    copies = CLASS_SIZE - len(MISTAKES)
    print(f"class: {CLASS_SIZE} files ({copies} copies of the reference scaffold, "
          f"{len(MISTAKES)} with a mistake), --jobs {JOBS}, evidence written")  # fmt: skip
    for what, median, fastest in (
        ("cold run, one file (its claims shared by two judges):", cold, cold_min),
        ("cold run, one file, --jobs 1 (one judge):            ", one, one_min),
        (f"class run, {CLASS_SIZE} files:                                ", klass, class_min),
        (f"class run, its first {CLASS_SIZE // 2} files:                      ",
         statistics.median(halves), min(halves)),
    ):  # fmt: skip
        print(f"{what} median {median * 1000:7.1f} ms, fastest {fastest * 1000:7.1f} ms")
    print(f"marginal cost per learner, (class - cold) / {CLASS_SIZE - 1}: "
          f"median {per * 1000:6.1f} ms, fastest {per_min * 1000:6.1f} ms")  # fmt: skip
    print(f"ratio to the cold run: {per / cold:.3f}x of the medians, "
          f"{per_min / cold_min:.3f}x of the fastest (target <= {TARGET:.2f}x); "
          f"to the cold run on one judge: {per / one:.3f}x of the medians")  # fmt: skip
    print(f"marginal cost from the two class sizes, (class - half) / {CLASS_SIZE // 2}: "
          f"{grown * 1000:6.1f} ms, {grown / cold:.3f}x the cold run, "
          f"{grown / one:.3f}x the cold run on one judge (medians)")  # fmt: skip
    print("where one learner's time goes (in-process):")
    for line in breakdown:
        print(f"  {line}")
    # The floor: the claims' own work with the reference called in-process (no boundary, no
    # fault, one BLAS thread as the runner), shared by JOBS judges: a learner's functions
    # and the checks on their answers do that work, wherever they run
    work = reference_work()
    floor = work / JOBS
    print(f"floor: the claims on the reference in-process (no fault, no boundary), "
          f"{work * 1000:.0f} ms, over {JOBS} jobs = {floor * 1000:.0f} ms per learner, "
          f"{floor / cold:.3f}x the cold run; the marginal cost is {per / floor:.2f}x that "
          "floor (the rest: the boundary, the worker's start, tracemalloc in the worker)")  # fmt: skip


def reference_work() -> float:
    """Median time of running every claim on the reference in one warm process."""
    code = (
        "import time\nfrom pathlib import Path\nfrom runner import api\n"
        "packs = api.load_claims([Path('claims')])\n"
        "api.run_packs(packs, api.Reference(), api.RunOptions(faults=False))\n"
        "times = []\nfor _ in range(3):\n    t = time.perf_counter()\n"
        "    api.run_packs(packs, api.Reference(), api.RunOptions(faults=False))\n"
        "    times.append(time.perf_counter() - t)\nprint(sorted(times)[1])\n"
    )
    one_thread = {**os.environ, **dict.fromkeys(ONE_THREAD, "1")}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
        env=one_thread,
    )  # fmt: skip
    return float(done.stdout)


if __name__ == "__main__":
    main()
