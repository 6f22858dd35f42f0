"""Does a class run's main process grow with the class?

Judges a class of 24 and one of 96 learners' files (copies of the reference scaffold and the
four mistakes of bench_class.py, in the same proportion), each with ``--jobs 2``, evidence
written, the JSON document on stdout and a JUnit file, the way a grader's run reports, and
reads the main process's own peak resident memory (``VmHWM`` in /proc/self/status, read by
the process itself as it ends: the judges are forked from it, so the peak its parent sees in
``ru_maxrss`` would include theirs). Prints both peaks and the growth per learner between
them (target < 0.2 MiB per learner).

    python bench/bench_class_memory.py [--small 24] [--large 96]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_class import MISTAKES, make_class  # noqa: E402  (this folder is not a package)
from bench_run import compile_bytecode  # noqa: E402

TARGET_MIB = 0.2
JOBS = 2
# the main process as `python -m runner` runs it, reporting its own peak as it ends
PROBE = """
import re, sys
from runner.cli import main
code = main(sys.argv[1:])
status = open("/proc/self/status", encoding="ascii").read()
print("VmHWM", re.search(r"VmHWM:\\s+(\\d+) kB", status)[1], file=sys.stderr)
sys.exit(code)
"""


def a_class(folder: Path, size: int) -> Path:
    """``size`` files: the 24 of bench_class.py repeated (copies and mistakes alike)."""
    _, files = make_class(folder)
    klass = folder / f"class{size}"
    klass.mkdir()
    for i in range(size):
        source = files[i % len(files)]
        (klass / f"{i:03d}_{source.name}").write_bytes(source.read_bytes())
    return klass


def peak_kib(klass: Path, out: Path) -> tuple[int, float]:
    cmd = [sys.executable, "-c", PROBE, "run", "claims/", "--lang", "en", "--quiet",
           "--impl", str(klass), "--jobs", str(JOBS), "--out", str(out / "ev"),
           "--format", "json", "--junit-xml", str(out / "junit.xml")]  # fmt: skip
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 1 or "VmHWM" not in done.stderr:  # the mistakes fail
        sys.exit(f"class run exited {done.returncode}:\n{done.stderr[-2000:]}")
    return int(done.stderr.rsplit("VmHWM", 1)[1].split()[0]), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=24)
    parser.add_argument("--large", type=int, default=96)
    args = parser.parse_args()
    compiled = compile_bytecode()
    peaks = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (args.small, args.large):
            folder = Path(tmp) / f"n{size}"
            folder.mkdir()
            peaks[size] = peak_kib(a_class(folder, size), folder)
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    print(f"machine: {machine}, load average {os.getloadavg()[0]:.2f} at the end; {compiled}")
    share = f"{len(MISTAKES)} of every 24 with a mistake"
    print(f"class runs, --jobs {JOBS}, evidence, JSON on stdout and JUnit written ({share}):")
    for size, (kib, seconds) in peaks.items():
        print(f"  {size:3d} learners: main process peak {kib / 1024:6.1f} MiB, {seconds:6.1f} s")
    (small, _), (large, _) = peaks[args.small], peaks[args.large]
    per = (large - small) / 1024 / (args.large - args.small)
    print(f"growth per learner from {args.small} to {args.large}: {per:.3f} MiB "
          f"(target < {TARGET_MIB} MiB)")  # fmt: skip


if __name__ == "__main__":
    main()
