"""Where a run happened: the commit of the code that measured, and a sanitized environment.

No host name, user name or path ever enters the evidence: the environment is the Python and
NumPy versions and the operating system's family and machine type.
"""

from __future__ import annotations

import datetime as dt
import platform
import subprocess
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


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def measured_commit() -> Commit | None:
    """The last commit that changed what a run measures, and whether those files differ now.

    None when the project is not a git checkout (or git is missing).
    """
    sha = _git("log", "-1", "--format=%H", "--", *MEASURED_PATHS)
    if not sha:
        return None
    status = _git("status", "--porcelain", "--untracked-files=all", "--", *MEASURED_PATHS)
    return Commit(sha, dirty=bool(status))


def environment() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "numpy": np.__version__,
        "platform": f"{platform.system()}-{platform.machine()}",
    }


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
