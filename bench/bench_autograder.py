"""What one Gradescope submission costs: the bundle's run_autograder, in a fake /autograder.

Builds the bundle of chapter 23's module and chapter 5's example (as `.ci/course` holds a
course), unpacks it into a temporary /autograder with the venv setup.sh would make (made
offline: the bundle's wheel installed without dependencies, which come from this
environment), then runs run_autograder once per submission, alternating the three kinds
so that drift in the machine's load affects them alike:

    correct  the reference scaffold with chapter 5's functions (every claim passes)
    wrong    the same with softmax_temperature computing in float16 (6 claims fail)
    broken   a SyntaxError (nothing can be imported: every claim at 0)

For each it prints the wall time and the CPU time of every process of the run (the
autograder, the engine, its fork server and workers), read from /proc while they run (a
worker's CPU never reaches its parent's rusage: it is not waited for by the engine), and
the load average, since the machine may be shared.

    python bench/bench_autograder.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")


def cpu_of_tree(root_pid: int, seen: dict[int, float]) -> None:
    """Record the CPU seconds of ``root_pid`` and every descendant alive now."""
    children: dict[int, list[int]] = {}
    stats: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        children.setdefault(ppid, []).append(pid)
        stats[pid] = (int(fields[11]) + int(fields[12])) / TICK  # utime + stime
    todo = [root_pid]
    while todo:
        pid = todo.pop()
        if pid in stats:
            seen[pid] = max(seen.get(pid, 0.0), stats[pid])
        todo += children.get(pid, [])


def run_once(layout: Path, source: str, name: str) -> tuple[float, float, float]:
    for folder in ("submission", "results"):
        shutil.rmtree(layout / folder, ignore_errors=True)
    (layout / "submission").mkdir()
    (layout / "submission" / name).write_text(source, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["AUTOGRADER_ROOT"] = str(layout)
    seen: dict[int, float] = {}
    start = time.perf_counter()
    process = subprocess.Popen(
        [str(layout / "source" / "run_autograder")],
        cwd=layout,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while process.poll() is None:
        cpu_of_tree(process.pid, seen)
        time.sleep(0.01)
    wall = time.perf_counter() - start
    assert (layout / "results" / "results.json").is_file()
    return wall, sum(seen.values()), os.getloadavg()[0]


def build(work: Path) -> tuple[Path, dict[str, str]]:
    """The bundle, the fake /autograder, and the three submissions' sources."""
    env = {**os.environ, "LEARN_LLM_LANG": "en"}
    modules = [str(ROOT / "claims" / "23-design-tradeoffs"),
               str(ROOT / "examples" / "course" / "claims" / "05-softmax")]  # fmt: skip
    zipped = work / "autograder.zip"
    subprocess.run([sys.executable, "-m", "runner", "bundle", "gradescope", *modules,
                    "--out", str(zipped)], check=True, env=env, cwd=ROOT)  # fmt: skip
    layout = work / "autograder"
    with zipfile.ZipFile(zipped) as z:
        z.extractall(layout / "source")
        for info in z.infolist():
            (layout / "source" / info.filename).chmod(info.external_attr >> 16 & 0o777)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(layout / "venv")],
                   check=True)  # fmt: skip
    python = layout / "venv" / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    (wheel,) = (layout / "source" / "wheels").glob("*.whl")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                    "--no-deps", "--no-index", str(wheel)], check=True)  # fmt: skip
    scaffold = subprocess.run(
        [sys.executable, "-m", "runner", "scaffold", "23-design-tradeoffs", "--reference"],
        capture_output=True, text=True, check=True, env=env, cwd=ROOT,
    ).stdout  # fmt: skip
    softmax = (
        (ROOT / "tests" / "data" / "course" / "softmax_learner.py").read_text().split('"""', 2)[2]
    )
    correct = scaffold + "\n" + softmax
    wrong = correct + (
        "\n\n_right_softmax = softmax_temperature\n\n\n"
        "def softmax_temperature(logits, temperature):\n"
        "    return _right_softmax(np.asarray(logits).astype(np.float16), temperature)\n"
    )
    broken = "def softmax_temperature(logits, temperature):\n    return logits /\n"
    return layout, {"correct": correct, "wrong": wrong, "broken": broken}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        layout, sources = build(Path(work))
        times: dict[str, list[tuple[float, float, float]]] = {k: [] for k in sources}
        for _ in range(args.repeat):
            for kind, source in sources.items():
                times[kind].append(run_once(layout, source, "my_impl.py"))
    print(f"{os.cpu_count()} CPUs; {args.repeat} runs of each; seconds, median (fastest)")
    for kind, rows in times.items():
        wall = [r[0] for r in rows]
        cpu = [r[1] for r in rows]
        load = statistics.median(r[2] for r in rows)
        print(f"{kind:8} wall {statistics.median(wall):5.2f} ({min(wall):5.2f})"
              f"  cpu {statistics.median(cpu):5.2f} ({min(cpu):5.2f})  load {load:4.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
