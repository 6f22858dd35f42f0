"""Gradescope's ``results.json``: what autograders of that kind read.

One test per claim (its points, its visibility: a ``hidden`` claim is shown to the learner
only after grading), the score and the maximum, and each claim's output in the language the
command was given. Written atomically, like evidence.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from runner.api import Run
from runner.i18n import Catalog
from runner.record import write_text_atomic
from runner.reporters import text


def results(run: Run, words: Catalog) -> dict[str, Any]:
    if run.load_failure is not None:
        message = text.load_failure_line(run, words)
        return {"score": 0.0, "output": message, "tests": [], "visibility": "visible"}
    tests = []
    for pack_run in run.packs:
        for r in pack_run.results:
            lines = [words.pick(r.statement)]
            lines += text.claim_detail_lines(r, words, verbose=True)
            tests.append(
                {
                    "name": r.id,
                    "number": f"{r.proposition}",
                    "score": r.score,
                    "max_score": r.points,
                    "status": "passed" if r.status == "passed" else "failed",
                    "output": "\n".join(lines),
                    "visibility": r.visibility,
                }
            )
    got, most = run.points()
    return {
        "score": got,
        "max_score": most,
        "output": text.totals_line(run, words),
        "visibility": "visible",
        "tests": tests,
    }


def write(path: Path, run: Run, words: Catalog) -> None:
    write_text_atomic(path, json.dumps(results(run, words), ensure_ascii=False, indent=2) + "\n")
