"""How the runner scales: with the number of claims, and with the number of submissions.

1. Claims: synthetic packs of 10, 100 and 1,000 claims (each a cheap real check), run
   in-process through load -> validate -> run -> record. The runner's overhead per claim is
   (wall time - the checks' own time) / N; it should stay under 1 ms and flat in N.
2. Submissions: a folder of generated learner submissions (the template-sized form, each a
   little different), validated by the CLI with --jobs 1 and --jobs 2: submissions/second.
3. The full run (every claim and fault of claims/) against importing the runtime
   dependencies and defining one pydantic model (issue 10's floor: what any pydantic-based
   tool pays before its first line), and where the run's time goes, phase by phase.

Everything is measured in this one run; nothing is asserted. ``--write`` also writes the
output, with the machine and versions, to bench/RESULTS.md.

    python bench/bench_scaling.py [--submissions 10000] [--write]
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import yaml
from bench_run import ONE_THREAD, compile_bytecode  # the sibling script (its folder is on sys.path)
from bench_validate import GIT_ENV

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MODULE_YAML = """id: bench-scaling
title: {zh: 规模测试, en: scaling benchmark}
version: 1
chapter: chapter.txt
pack: design-tradeoffs
seed: 0
"""


def synthetic_pack(directory: Path, n: int) -> Path:
    """A module of ``n`` claims, 50 per file, each checking log10 V^T for its own (V, T)."""
    module = directory / f"bench-{n}"
    module.mkdir(parents=True)
    (module / "module.yaml").write_text(MODULE_YAML, encoding="utf-8")
    (module / "chapter.txt").write_text("a synthetic chapter\n", encoding="utf-8")
    per_file = 50
    for f in range(0, n, per_file):
        claims = []
        for i in range(f, min(n, f + per_file)):
            vocab, length = 1000 + i, 10 + i % 90
            claims.append(
                {
                    "id": f"bench.claim-{i}",
                    "statement": {"zh": f"第 {i} 条", "en": f"claim {i}"},
                    "check": "challenge_support",
                    "inputs": {"vocab": vocab, "length": length},
                    "expect": [
                        {
                            "measure": "support_log10",
                            "value": float(length * np.log10(vocab)),
                            "tolerance": {"kind": "close", "rel": 1e-12},
                            "source": "derived: T log10 V",
                        }
                    ],
                }
            )
        doc = {
            "proposition": 1,
            "stage": {"zh": "测试", "en": "bench"},
            "title": {"zh": "规模", "en": "scale"},
            "claims": claims,
        }
        text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
        (module / f"{f // per_file:03d}.yaml").write_text(text, encoding="utf-8")
    return module


def committed(module: Path) -> None:
    """``module`` in a git repository of its own, committed."""
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "claims"]):
        subprocess.run(["git", "-C", str(module), *args], env=GIT_ENV, check=True)


def claims_scaling(sizes: list[int], repeat: int) -> list[str]:
    from runner.cli import main

    lines = ["claims  wall (ms)  checks (ms)  overhead/claim (ms)"]
    per_claim = []
    overheads = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            module = synthetic_pack(Path(tmp), n)
            committed(module)  # evidence records the commit that holds the claims
            walls, checks = [], []
            for _ in range(repeat):
                out = Path(tmp) / f"ev-{n}"
                shutil.rmtree(out, ignore_errors=True)
                buf = io.StringIO()
                start = time.perf_counter()
                with redirect_stdout(buf):
                    code = main(["run", str(module), "--out", str(out), "--format", "json"])
                walls.append((time.perf_counter() - start) * 1000)
                if code != 0:
                    raise SystemExit(
                        f"synthetic pack of {n} did not pass:\n{buf.getvalue()[-2000:]}"
                    )
                doc = yaml.safe_load((out / "bench-scaling-v1.json").read_text(encoding="utf-8"))
                checks.append(sum(c["duration_ms"] for c in doc["claims"]))
            wall, check = statistics.median(walls), statistics.median(checks)
            per_claim.append((wall - check) / n)
            overheads.append(wall - check)
            lines.append(f"{n:>6,}  {wall:9.1f}  {check:11.1f}  {(wall - check) / n:19.3f}")
    # overhead(N) = fixed + marginal * N, fitted by least squares over the sizes run
    slope, fixed = np.polyfit(np.asarray(sizes, dtype=float), np.asarray(overheads), 1)
    # linear means each step from one size to the next costs about the same per added claim
    steps = [
        (overheads[i + 1] - overheads[i]) / (sizes[i + 1] - sizes[i]) for i in range(len(sizes) - 1)
    ]
    shown = ", ".join(f"{sizes[i]:,}->{sizes[i + 1]:,}: {m:.3f}" for i, m in enumerate(steps))
    linear = min(steps) > 0 and max(steps) / min(steps) <= 2
    lines.append(f"ms per added claim, step by step: {shown}")
    lines.append(
        f"fit: overhead = {fixed:.1f} ms + {slope:.3f} ms x claims: "
        f"{'linear' if linear else 'NOT linear (steps differ more than 2x)'}, "
        f"{slope:.3f} ms per claim (target <= 1 ms)"
    )
    return lines


GOOD = """schema: learn-llm.evidence.v1
module: 23-design-tradeoffs
commit: {commit}
verified_at: 2026-11-{day:02d}
environment: CPython 3.11, NumPy 2.4, Linux x86_64
seed: {seed}
commands:
  - python -m runner run claims/ --impl my_impl.py
metrics:
  - name: support_log10_gpt2_vocab_1000_ctx
    expected: 4701.20
    actual: {support}
  - name: gpt2_small_parameter_total
    expected: 123532032
    actual: 123532032
artifacts:
  - evidence/23-design-tradeoffs-v2.json
cost:
  gross_usd: 0
  credit_usd: 0
licenses:
  - source: CS229 lecture notes
    version: Spring 2026
    license: cited, not redistributed
    attribution: Tengyu Ma, Chris Ré
    redistribution: not redistributed
known_failures:
  - none
"""


def validation_scaling(count: int) -> list[str]:
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        for i in range(count):
            text = GOOD.format(
                commit=commit, day=1 + i % 28, seed=i, support=4701.196560612873 + (i % 7) * 1e-4
            )
            (folder / f"s{i:05d}.yaml").write_text(text, encoding="utf-8")
        lines.append(f"{count:,} submissions, validated by the CLI against --repo {ROOT.name}:")
        for jobs in (1, 2):
            start = time.perf_counter()
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "runner",
                    "validate",
                    str(folder),
                    "--repo",
                    str(ROOT),
                    "--jobs",
                    str(jobs),
                    "--claims",
                    str(ROOT / "claims"),
                    "--format",
                    "json",
                ],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=False,
                env={**os.environ, "LEARN_LLM_LANG": "en"},
            )
            seconds = time.perf_counter() - start
            if done.returncode != 0:
                raise SystemExit(f"validation failed:\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
            lines.append(f"  --jobs {jobs}: {seconds:6.2f} s, {count / seconds:7.0f} submissions/s")
    return lines


def validation_against_parsing() -> list[str]:
    """bench_validate.py's figures: one submission validated against only parsing it."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_validate.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.rstrip().splitlines()


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True)
    return time.perf_counter() - start


DEPENDENCIES = (
    "import numpy, yaml, jsonschema_rs, threadpoolctl, pydantic\n"
    "class M(pydantic.BaseModel):\n    x: int"
)


def full_run(repeat: int) -> list[str]:
    floor = [sys.executable, "-c", DEPENDENCIES]
    with tempfile.TemporaryDirectory() as out:
        run = [sys.executable, "-m", "runner", "run", "claims/", "--out", out]
        for cmd in (run, floor):
            timed(cmd)  # warm the file cache
        times: dict[str, list[float]] = {"run": [], "floor": []}
        for _ in range(repeat):
            for name, cmd in (("run", run), ("floor", floor)):
                times[name].append(timed(cmd))
    r, f = (statistics.median(times[k]) * 1000 for k in ("run", "floor"))
    fastest = {k: min(v) * 1000 for k, v in times.items()}  # the least disturbed of each
    return [
        f"full run (python -m runner run claims/, every claim and fault): {r:7.1f} ms",
        f"import the dependencies and define one pydantic model:          {f:7.1f} ms",
        f"(medians of {repeat} runs each, alternating)",
        f"ratio: {r / f:.2f}x of the medians, {fastest['run'] / fastest['floor']:.2f}x of the "
        "fastest runs (target <= 3x, issue 20)",
    ]


PHASES = r"""
import os, time
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as the entry point does
marks = [("start", time.perf_counter())]
def mark(name):
    marks.append((name, time.perf_counter()))
import numpy, yaml, jsonschema_rs, threadpoolctl, pydantic
class M(pydantic.BaseModel):
    x: int
mark("import the dependencies and define one pydantic model")
from pathlib import Path
import tempfile
from runner import api
from runner.inject import fault_section
from runner.provenance import start_measured_commit
from runner.record import build_evidence, write_evidence
import checks  # noqa: F401  (chapter 23's pack: imported in this phase, as before)
mark("import the runner and the checks")
packs = api.load_claims([Path("claims")])
pending = start_measured_commit([p.directory for p in packs])  # git works while claims run
mark("load and validate the claim files")
from runner.inject import run_with_faults
registry = packs[0].code.registry
results, fault_runs = run_with_faults(packs[0], registry.reference(), registry)
mark("run the claims and, beside them, the faults")
commit = pending()
mark("wait for git's answer (asked before the claims ran)")
implementation = {"kind": "reference", "name": "reference", "sha256": None}
reused = {id(r) for r in results}
work = {  # each claim's own run, the reference's and every fault's, in whichever process
    "run the claims and, beside them, the faults": sum(r.duration_ms for r in results)
    + sum(r.duration_ms for f in fault_runs for r in f.results if id(r) not in reused),
}
doc = build_evidence(
    packs[0], results, implementation, commit, "bench", 0.0, fault_section(fault_runs)
)
mark("build the evidence")
with tempfile.TemporaryDirectory() as out:
    write_evidence(Path(out), [(packs[0], doc)], commit.root)
mark("validate it against the schema and write it")
for (_, a), (name, b) in zip(marks, marks[1:]):
    print(f"{(b - a) * 1000:.3f}|{work.get(name, 0.0):.3f}|{name}")
"""


def phases(repeat: int) -> list[str]:
    """Where a full run's time goes, phase by phase, in fresh processes (median)."""
    runs = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", PHASES],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, **dict.fromkeys(ONE_THREAD, "1")},  # as the runner sets
        )
        runs.append([line.split("|", 2) for line in done.stdout.splitlines()])
    names = [name for _, _, name in runs[0]]
    medians = [statistics.median(float(r[i][0]) for r in runs) for i in range(len(names))]
    works = [statistics.median(float(r[i][1]) for r in runs) for i in range(len(names))]
    lines = []
    for m, w, n in zip(medians, works, names, strict=True):
        lines.append(f"{m:8.1f} ms  {n}")
        if w:
            lines.append(f"{w:8.1f} ms    the claims' own runs, summed over the processes")
    total, deps, work = sum(medians), medians[0], sum(works)
    lines.append(f"{total:8.1f} ms  in all (median of {repeat} fresh processes per phase)")
    lines += [
        "",
        f"The claims' own runs are {work / deps:.2f}x the dependencies' import (CPU in every",
        "process: checks, the reference's functions, tracemalloc where a peak is measured);",
        "bench/bench_run.py prints the floor.",
    ]
    return lines


def machine() -> list[str]:
    from importlib.metadata import version

    versions = ", ".join(
        f"{d} {version(d)}" for d in ("numpy", "pydantic", "jsonschema-rs", "pyyaml")
    )
    return [
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()}",
        f"Python {platform.python_version()}, {versions}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--write", action="store_true", help="also write bench/RESULTS.md")
    args = parser.parse_args()
    os.environ["LEARN_LLM_LANG"] = "en"
    compiled = compile_bytecode()
    sections = [
        ("Machine", [*machine(), compiled]),
        (
            "Claims scaling (in-process, median of runs)",
            claims_scaling([10, 100, 1000], args.repeat),
        ),
        ("Validation scaling", validation_scaling(args.submissions)),
        ("Validation against parsing alone", validation_against_parsing()),
        (
            "Full run against the dependencies and one pydantic model",
            full_run(max(11, args.repeat)),
        ),
        ("Where a full run's time goes", phases(max(5, args.repeat))),
    ]
    text = "\n".join(
        f"## {title}\n\n```\n" + "\n".join(lines) + "\n```\n" for title, lines in sections
    )
    print(text)
    if args.write:
        stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        header = (
            "# Benchmark results\n\nWritten by `python bench/bench_scaling.py --write` on "
            f"{stamp}; every figure below comes from that one run.\n\n"
        )
        (ROOT / "bench" / "RESULTS.md").write_text(header + text, encoding="utf-8")


if __name__ == "__main__":
    main()
