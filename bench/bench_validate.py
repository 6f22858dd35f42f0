"""How much does validating a learner submission cost beyond parsing it?

In one process pinned to one core: a template-sized submission (the chapter's learner
template, properly filled, its artifact on disk in a temporary repository) validated with one
``Validator`` many times, beside ``yaml.load(text, Loader=yaml.CSafeLoader)`` of the same file
as many times. The two alternate in rounds so that drift in the machine's load affects both
alike; the medians of the rounds are compared. Target: validate <= 2x parse alone.

Then the command line end to end on a folder of copies, with --jobs 1 and --jobs 2 (these
use every core the machine has). Nothing is asserted; the numbers are printed.

    python bench/bench_validate.py [--iterations N] [--rounds R] [--copies C]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from runner.validate_many import make_validator  # noqa: E402

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


def head() -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()


def pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    allowed = os.sched_getaffinity(0)
    core = min(allowed)
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core} of {len(allowed)}"


def unpin() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, range(os.cpu_count() or 1))


def rate(fn: object, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()  # type: ignore[operator]
    return n / (time.perf_counter() - start)


def cli(folder: Path, repo: Path, jobs: int) -> float:
    cmd = [sys.executable, "-m", "runner", "validate", str(folder), "--repo", str(repo)]
    cmd += ["--claims", str(ROOT / "claims"), "--jobs", str(jobs)]
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(
            f"{' '.join(cmd)} exited {done.returncode}:\n{(done.stdout + done.stderr)[-2000:]}"
        )
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3000, help="per side, in all rounds")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--copies", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3, help="command-line runs per --jobs")
    args = parser.parse_args()
    per_round = max(1, args.iterations // args.rounds)

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        repo = work / "repo"
        (repo / ARTIFACT).parent.mkdir(parents=True)
        (repo / ARTIFACT).write_text('{"ok": true}\n', encoding="utf-8")
        path = work / "submission.yaml"
        path.write_text(SUBMISSION.format(commit=head(), artifact=ARTIFACT), encoding="utf-8")
        text = path.read_text(encoding="utf-8")

        where = pin_to_one_core()
        validator = make_validator(ROOT / "claims", repo, None)
        report = validator.validate_file(path)
        if not report.valid:
            sys.exit(
                "the benchmark's submission is invalid:\n" + "\n".join(map(str, report.problems))
            )

        def validate() -> None:
            validator.validate_file(path)

        def parse() -> None:
            yaml.load(text, Loader=yaml.CSafeLoader)

        rate(validate, 50), rate(parse, 50)  # warm caches (the schema, the file)
        validates, parses = [], []
        for _ in range(args.rounds):
            validates.append(rate(validate, per_round))
            parses.append(rate(parse, per_round))
        v, p = statistics.median(validates), statistics.median(parses)
        unpin()

        folder = work / "copies"
        folder.mkdir()
        for i in range(args.copies):
            (folder / f"learner-{i:04d}.yaml").write_text(text, encoding="utf-8")
        cli(folder, repo, 1)  # warm the file cache
        ends = {jobs: [cli(folder, repo, jobs) for _ in range(args.repeat)] for jobs in (1, 2)}

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(f"submission: {len(text.encode()):,} bytes (the chapter's template, filled)")
    print(f"in one process, {where}; {args.rounds} rounds of {per_round:,} each, alternating")
    print(f"parse alone (yaml.load, CSafeLoader): median {p:9,.0f} files/s  {1e6 / p:7.1f} µs each")
    print(f"validate (Validator.validate_file):   median {v:9,.0f} files/s  {1e6 / v:7.1f} µs each")
    print(f"ratio validate/parse: {p / v:.2f}x (target <= 2.00x)")
    print(f"command line, {args.copies} copies, median of {args.repeat} runs (start-up included):")
    for jobs, times in ends.items():
        t = statistics.median(times)
        print(f"  --jobs {jobs}: {t:6.2f} s  {args.copies / t:7.0f} files/s")


if __name__ == "__main__":
    main()
