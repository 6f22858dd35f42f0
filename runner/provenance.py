"""Where a run happened: the commit of the code that measured, and a sanitized environment.

No host name, user name or path ever enters the evidence: the environment is the Python and
NumPy versions and the operating system's family and machine type.
"""

from __future__ import annotations

import datetime as dt
import platform
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PROJECT_ROOT = Path(__file__).resolve().parents[1]
# What produced a measurement: the code, the claims, the schemas and the pinned versions.
# A commit that touches only evidence, tests or docs does not change what a run measures.
MEASURED_PATHS = ("checks", "claims", "runner", "schemas", "pyproject.toml")


@dataclass(frozen=True)
class Commit:
    sha: str
    dirty: bool


def _start_git(*args: str) -> Callable[[], str | None]:
    """Start ``git ARGS`` now; the returned function waits for its output (None on failure)."""
    try:
        proc = subprocess.Popen(
            ["git", *args],
            cwd=PROJECT_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
    except OSError:
        return lambda: None

    def result() -> str | None:
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return None
        return out.strip() if proc.returncode == 0 else None

    return result


def start_measured_commit() -> Callable[[], Commit | None]:
    """Ask git now, answer later: the two questions of :func:`measured_commit` run in their
    own processes while the claims run, and describe the tree as it was when they started."""
    sha = _start_git("log", "-1", "--format=%H", "--", *MEASURED_PATHS)
    status = _start_git("status", "--porcelain", "--untracked-files=all", "--", *MEASURED_PATHS)

    def answer() -> Commit | None:
        found, changed = sha(), status()
        return Commit(found, dirty=bool(changed)) if found else None

    return answer


def measured_commit() -> Commit | None:
    """The last commit that changed what a run measures, and whether those files differ now.

    None when the project is not a git checkout (or git is missing).
    """
    return start_measured_commit()()


def environment() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "numpy": np.__version__,
        "platform": f"{platform.system()}-{platform.machine()}",
    }


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
