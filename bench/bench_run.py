"""How much does a full run cost beyond importing what it needs?

Times ``python -m runner run claims/`` (every claim and every fault, evidence written to a
temporary folder) against importing the runtime dependencies and defining one pydantic model
(issue 10's floor: what any pydantic-based tool pays before its first line), in the same
process tree, alternating the two so that drift in the machine's load affects both alike.
Prints the medians and their ratio. Target (issue 20): <= 3x.

    python bench/bench_run.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from runner.__main__ import ONE_THREAD  # noqa: E402  (what the runner sets before NumPy starts)

BARE = [
    sys.executable,
    "-c",
    "import numpy, yaml, jsonschema_rs, threadpoolctl, pydantic\n"
    "class M(pydantic.BaseModel):\n    x: int",
]


def compile_bytecode() -> str:
    """Byte-compile the runner and the checks, as ``pip install .`` does when it installs.

    An editable install leaves that to the first import, and where PYTHONDONTWRITEBYTECODE is
    set (it is on this course's machines) every run would compile ~40 modules from source
    again: ~80 ms that an installed runner never pays, and not a cost of the run itself.
    """
    import compileall

    for folder in ("runner", "checks"):
        if not compileall.compile_dir(ROOT / folder, quiet=1):
            sys.exit(f"could not byte-compile {folder}/")
    return "runner/ and checks/ byte-compiled first, as pip install . does"


CPU: list[float] = []  # the CPU time (user + system) of each command timed, in order


def timed(cmd: list[str]) -> float:
    """The command's wall time; its CPU time (its processes', children included) is
    appended to CPU."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr.decode()[-2000:]}")
    return elapsed


PHASES = """
import time
t0 = time.perf_counter()
from pathlib import Path
import checks  # noqa: F401  (chapter 23's pack: imported in this phase, as before)
from runner import api
from runner.inject import run_with_faults
t1 = time.perf_counter()
packs = api.load_claims([Path("claims")])
t2 = time.perf_counter()
c2 = time.process_time()
api.run_packs(packs, api.Reference(), api.RunOptions(faults=False))
t3 = time.perf_counter()
c3 = time.process_time()
for pack in packs:
    run_with_faults(pack, pack.code.registry.reference(), pack.code.registry)
t4 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, c3 - c2, t4 - t3)
"""


def phases(repeat: int) -> list[float]:
    """Medians of: importing the runner and the checks, loading the claims, running every
    claim on the reference alone (no fault, one core; wall and CPU), and running the claims
    with every fault beside them as a run does (on every core), in one process through the
    core API: without start-up or writing."""
    rows = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", PHASES],
            cwd=ROOT,
            capture_output=True,
            check=True,
            text=True,
            env={**os.environ, **dict.fromkeys(ONE_THREAD, "1")},
        )
        rows.append([float(x) for x in done.stdout.split()])
    return [statistics.median(column) for column in zip(*rows, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    compiled = compile_bytecode()
    with tempfile.TemporaryDirectory() as out:
        run = [sys.executable, "-m", "runner", "run", "claims/", "--out", out]
        # a learner's run: the reference written out as a learner's file (every claim passes),
        # writing where the full run recorded the reference, as a grader's runs do: its
        # claims are split between its two judges by the costs that evidence recorded
        scaffold = subprocess.run(
            [sys.executable, "-m", "runner", "scaffold", "23-design-tradeoffs", "--reference"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        learner_file = Path(out) / "learner.py"
        learner_file.write_text(scaffold, encoding="utf-8")
        learner = [*run, "--impl", str(learner_file)]
        timed(run), timed(BARE), timed(learner)  # warm the file cache for each
        runs, bares, learners = [], [], []
        CPU.clear()
        for _ in range(args.repeat):
            runs.append(timed(run))
            bares.append(timed(BARE))
            learners.append(timed(learner))
    run_cpu, bare_cpu = (statistics.median(CPU[i::3]) for i in range(2))
    r, b = statistics.median(runs), statistics.median(bares)
    n, n_min = statistics.median(learners), min(learners)
    # the fastest of each is the least disturbed by whatever else the machine was doing
    r_min, b_min = min(runs), min(bares)
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    print(f"{args.repeat} runs of each, alternating; {compiled}")
    print(
        "import of the dependencies and one pydantic model: "
        f"median {b * 1000:7.1f} ms, fastest {b_min * 1000:7.1f} ms"
    )
    print(
        "python -m runner run claims/ (every claim and fault): "
        f"median {r * 1000:7.1f} ms, fastest {r_min * 1000:7.1f} ms"
    )
    print(
        f"ratio: {r / b:.2f}x of the medians, {r_min / b_min:.2f}x of the fastest (target <= 3x, issue 20)"
    )
    print(
        f"python -m runner run claims/ --impl LEARNER (the reference as a learner's file): "
        f"median {n * 1000:7.1f} ms, fastest {n_min * 1000:7.1f} ms; {n / r:.2f}x the full run "
        f"of the medians, {n_min / r_min:.2f}x of the fastest (target <= 1.3x, issue 20)"
    )
    # (a learner's worker is not a child this process waits for: its CPU is not counted)
    print(
        f"CPU time (user + system, every process; medians): bare import {bare_cpu * 1000:.0f} "
        f"ms, full run {run_cpu * 1000:.0f} ms ({run_cpu / bare_cpu:.2f}x)"
    )
    imports, load, claims, claims_cpu, with_faults = phases(max(3, args.repeat // 3))
    print(
        f"phases (medians, in one process): import the runner and the checks {imports * 1000:.0f} "
        f"ms, load the claims {load * 1000:.0f} ms, the claims on the reference alone "
        f"{claims * 1000:.0f} ms ({claims_cpu * 1000:.0f} ms CPU, one core, no fault), the "
        f"claims with every fault beside them {with_faults * 1000:.0f} ms (every core)"
    )
    floor = b + claims
    print(
        f"floor: the bare import plus the claims on the reference without faults = "
        f"{floor * 1000:.0f} ms, {floor / b:.2f}x the bare import. This is the checks' cost as "
        "they are written (their Python, and tracemalloc around every call whose peak memory "
        f"is measured), not an arithmetic floor; the whole run is {r / floor:.2f}x it"
    )


if __name__ == "__main__":
    main()
