"""What the commands share: loading modules one by one, and saying which could not load.

A module whose claim files are invalid, whose pack cannot be found or whose claims name
checks its pack lacks is left out with its problems on stderr (file:line, as always); the
other modules still run, list or inject, and the command exits 2 at the end, since claim
files were invalid. When no module can be used at all, it is the same error as ever.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from runner import api
from runner.errors import InvalidClaims
from runner.exits import EXIT_MISUSE
from runner.i18n import Catalog
from runner.load import ClaimPack
from runner.problems import Problem
from runner.text import printable


def load_each(paths: list[str], words: Catalog) -> tuple[list[ClaimPack], list[Problem]]:
    """The modules under ``paths`` that can run, with the others' problems already said."""
    packs, problems = api.load_each([Path(p) for p in paths])
    if problems and not packs:
        raise InvalidClaims(problems)
    if problems:
        for problem in sorted(problems, key=Problem.sort_key):
            _say(problem.render(words))
        _say(words("claims.left_out", n=len(problems)))
    return packs, problems


def final_code(code: int, problems: list[Problem]) -> int:
    """The command's exit code: 2 when some module's claim files were invalid."""
    return max(code, EXIT_MISUSE) if problems else code


def _say(line: str) -> None:
    with contextlib.suppress(OSError):
        print(printable(line), file=sys.stderr)
