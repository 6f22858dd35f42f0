"""How much does a full run cost beyond importing what it needs?

Times ``python -m runner run claims/`` (every claim and every fault, evidence written to a
temporary folder) against importing the runtime dependencies and defining one pydantic model
(issue 10's floor: what any pydantic-based tool pays before its first line), in the same
process tree, alternating the two so that drift in the machine's load affects both alike.
Prints the medians and their ratio. Target: <= 1.6x.

    python bench/bench_run.py [--repeat N]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr.decode()[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    compiled = compile_bytecode()
    with tempfile.TemporaryDirectory() as out:
        run = [sys.executable, "-m", "runner", "run", "claims/", "--out", out]
        timed(run), timed(BARE)  # warm the file cache for both
        runs, bares = [], []
        for _ in range(args.repeat):
            runs.append(timed(run))
            bares.append(timed(BARE))
    r, b = statistics.median(runs), statistics.median(bares)
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
        f"ratio: {r / b:.2f}x of the medians, {r_min / b_min:.2f}x of the fastest (target <= 1.60x)"
    )


if __name__ == "__main__":
    main()
