"""What does `validate` cost beyond importing its dependencies and parsing the files?

Measured in one run, each side in a fresh process pinned to the same core, alternating so
that drift in the machine's load affects both alike (medians and minima of the rounds):

- baseline: ``import numpy, yaml, pydantic, jsonschema_rs, dulwich`` (what validate imports
  from outside the standard library) and ``yaml.load(..., Loader=yaml.CSafeLoader)`` of
  every file of the batch;
- validate: ``python -m runner validate BATCH --repo REPO --jobs 1`` on the same files: a
  batch of valid submissions (the chapter's template, filled) whose commit is read from a
  real learner repository and whose artifact exists there.

The runner is byte-compiled first, as ``pip install .`` does. CPU time (user + system of
each child) is what is compared: on this shared machine other processes inflate wall time.
Target (issue #10): validate <= 1.5x the baseline. Then, for scale, validating one file in
an already started process against parsing it alone, and the batch with --jobs 2. Nothing
is asserted; the numbers are printed.

    python bench/bench_validate.py [--copies N] [--rounds R]
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

ARTIFACT = "results/tradeoffs.json"
SUBMISSION = """\
schema: learn-llm.evidence.v1
module: 23-design-tradeoffs
commit: {commit}
verified_at: 2025-03-14
environment: CPython 3.11.7, NumPy 2.4.6, Linux x86_64, CPU only
seed: 0
commands:
  - PYTHONPATH=python python -m pytest python/tests/test_design_tradeoffs.py -q
  - PYTHONPATH=python python scripts/tradeoff_run.py
metrics:
  - name: support_log10_gpt2_vocab_1000_ctx
    expected: 4701.20
    actual: 4701.196560612873
  - name: gpt2_small_parameter_total
    expected: 123532032
    actual: 123532032
artifacts:
  - {artifact}
cost:
  gross_usd: 0
  credit_usd: 0
licenses:
  - source: GPT-2 small configuration (openai/gpt-2)
    version: 124M
    license: MIT
    attribution: OpenAI
    redistribution: figures only; no weights are redistributed
known_failures:
  - none
"""
BASELINE = """\
import sys
from pathlib import Path
import numpy, yaml, pydantic, jsonschema_rs, dulwich
for path in sorted(Path(sys.argv[1]).iterdir()):
    yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)
"""
# ``import pydantic`` alone imports almost nothing (pydantic 2 loads BaseModel when it is first
# named); bench_run's floor defines one model, as any pydantic-based tool does. Printed beside
# the baseline above for comparison; the target is judged against the baseline above.
WITH_A_MODEL = BASELINE.replace(
    "import numpy, yaml, pydantic, jsonschema_rs, dulwich\n",
    "import numpy, yaml, pydantic, jsonschema_rs, dulwich\n"
    "class M(pydantic.BaseModel):\n    x: int\n",
)
GIT_ENV = {
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    "HOME": tempfile.gettempdir(),
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "Learner",
    "GIT_AUTHOR_EMAIL": "learner@example.invalid",
    "GIT_COMMITTER_NAME": "Learner",
    "GIT_COMMITTER_EMAIL": "learner@example.invalid",
}


def learner_repo(repo: Path) -> str:
    (repo / ARTIFACT).parent.mkdir(parents=True)
    (repo / ARTIFACT).write_text('{"ok": true}\n', encoding="utf-8")
    for args in (["init", "-q"], ["add", ARTIFACT], ["commit", "-q", "-m", "results"]):
        subprocess.run(["git", "-C", str(repo), *args], env=GIT_ENV, check=True)
    done = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], env=GIT_ENV, capture_output=True, text=True
    )
    return done.stdout.strip()


def one_core() -> int | None:
    return min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None


def timed(cmd: list[str], core: int | None, expect: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run. CPU time (user + system of the child) is the
    figure compared: on a shared machine other processes inflate wall time, not it."""

    def pin() -> None:
        if core is not None:
            os.sched_setaffinity(0, {core})

    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "LEARN_LLM_LANG": "en"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        cmd, cwd=ROOT, env=env, preexec_fn=pin, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != expect:
        sys.exit(
            f"{' '.join(cmd)} exited {done.returncode}:\n{(done.stdout + done.stderr)[-2000:]}"
        )
    return elapsed, cpu


def rate(fn: object, n: int) -> float:
    """Calls per CPU second of this process."""
    start = time.process_time()
    for _ in range(n):
        fn()  # type: ignore[operator]
    return n / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=1000, help="submissions in the batch")
    parser.add_argument("--rounds", type=int, default=7, help="runs of each side, alternating")
    args = parser.parse_args()
    core = one_core()
    # byte-compiled, as `pip install .` leaves it (the dependencies are); without this, a
    # PYTHONDONTWRITEBYTECODE environment compiles the runner's source in every run
    subprocess.run([sys.executable, "-m", "compileall", "-q", "runner", "checks"], cwd=ROOT)

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        commit = learner_repo(work / "repo")
        text = SUBMISSION.format(commit=commit, artifact=ARTIFACT)
        batch = work / "batch"
        batch.mkdir()
        for i in range(args.copies):
            (batch / f"learner-{i:05d}.yaml").write_text(text, encoding="utf-8")

        baseline_cmd = [sys.executable, "-c", BASELINE, str(batch)]
        model_cmd = [sys.executable, "-c", WITH_A_MODEL, str(batch)]
        validate_cmd = [sys.executable, "-m", "runner", "validate", str(batch)]
        validate_cmd += ["--repo", str(work / "repo"), "--claims", str(ROOT / "claims")]
        timed(baseline_cmd, core, 0), timed([*validate_cmd, "--jobs", "1"], core, 0)  # warm
        baselines, validates, models = [], [], []
        for _ in range(args.rounds):
            baselines.append(timed(baseline_cmd, core, 0))
            validates.append(timed([*validate_cmd, "--jobs", "1"], core, 0))
            models.append(timed(model_cmd, core, 0))
        jobs2 = [timed([*validate_cmd, "--jobs", "2"], None, 0) for _ in range(3)]

        # one file, in a process that has already started and loaded the claims
        import yaml

        from runner.validate_many import make_validator

        validator = make_validator(ROOT / "claims", work / "repo", None)
        path = batch / "learner-00000.yaml"
        report = validator.validate_file(path)
        if not report.valid:
            sys.exit(f"the benchmark's submission is invalid: {report.problems}")
        raw = path.read_bytes()
        rate(lambda: validator.validate_file(path), 200)
        rate(lambda: yaml.load(raw, Loader=yaml.CSafeLoader), 200)
        per_validate = statistics.median(
            rate(lambda: validator.validate_file(path), 500) for _ in range(5)
        )
        per_parse = statistics.median(
            rate(lambda: yaml.load(raw, Loader=yaml.CSafeLoader), 500) for _ in range(5)
        )

    b_wall, b_cpu = (statistics.median(x) for x in zip(*baselines, strict=True))
    v_wall, v_cpu = (statistics.median(x) for x in zip(*validates, strict=True))
    b_min, v_min = min(c for _, c in baselines), min(c for _, c in validates)
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    where = f"pinned to core {core}" if core is not None else "not pinned"
    print(f"machine: {machine}; load average {os.getloadavg()[0]:.1f} at the end")
    print(f"batch: {args.copies:,} valid submissions of {len(text.encode()):,} bytes, one commit")
    print(f"fresh processes, {where}, {args.rounds} alternating rounds; CPU s (wall s), medians:")
    print(
        f"  baseline (import the dependencies, CSafeLoader each file): {b_cpu:.3f} ({b_wall:.3f})"
    )
    print(
        f"  validate --jobs 1:                                          {v_cpu:.3f} ({v_wall:.3f})"
    )
    ratio, fastest = v_cpu / b_cpu, v_min / b_min
    print(
        f"  ratio of CPU time: {ratio:.2f}x median, {fastest:.2f}x fastest runs (target <= 1.50x)"
    )
    print(f"  ratio of wall time: {v_wall / b_wall:.2f}x median")
    m_cpu = statistics.median(c for _, c in models)
    print(
        f"  beside a baseline that also defines one pydantic model (bench_run's floor): "
        f"{m_cpu:.3f}; validate is {v_cpu / m_cpu:.2f}x it (for comparison, not the target)"
    )
    jobs2_wall = statistics.median(w for w, _ in jobs2)
    print(f"  validate --jobs 2 (not pinned, median of 3): {jobs2_wall:.3f} s wall")
    print("one file in a started process (CPU time, median of 5 x 500):")
    print(f"  parse alone (CSafeLoader): {1e6 / per_parse:7.1f} us")
    ratio = per_parse / per_validate
    print(f"  validate_file:             {1e6 / per_validate:7.1f} us ({ratio:.2f}x)")


if __name__ == "__main__":
    main()
