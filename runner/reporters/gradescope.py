"""Gradescope's ``results.json``: what autograders of that kind read.

The format is Gradescope's autograder specification
(https://gradescope-autograders.readthedocs.io/en/latest/specs/): a ``score`` and
``max_score``, an ``output`` for the whole submission, and one test per claim with its
``name``, ``number``, ``score``, ``max_score``, ``output`` and ``visibility`` (``points`` and
``visibility`` come from the claim; a ``hidden`` claim is shown to the learner only after
grading, so the submission's own ``output`` counts only the claims shown now). A file that
cannot be loaded at all still gets a result: every claim at 0, each saying why. Messages
are in the language the command was given; written atomically, like evidence.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from runner.api import Run
from runner.feedback import pack_feedback
from runner.i18n import Catalog
from runner.load import LoadedClaim
from runner.record import write_text_atomic
from runner.reporters import text


def results(run: Run, words: Catalog, claims: Sequence[LoadedClaim] = ()) -> dict[str, Any]:
    """The results of ``run``; ``claims`` are the claims it was to judge (they give a file
    that could not be loaded its tests and its maximum score)."""
    if run.load_failure is not None:
        return _unloadable(run, words, claims)
    tests = []
    shown = {s: 0 for s in text.STATUSES}
    later = 0
    summary: list[str] = []
    results = [r for p in run.packs for r in p.results]
    numbers = iter(claim_numbers([r.proposition for r in results]))
    for pack_run in run.packs:
        for r in pack_run.results:
            lines = [words.pick(r.statement)]
            lines += text.claim_detail_lines(r, words, verbose=True)
            tests.append(
                {
                    "name": r.id,
                    "number": next(numbers),
                    "score": r.score,
                    "max_score": r.points,
                    "status": "passed" if r.status == "passed" else "failed",
                    "output": "\n".join(lines),
                    "visibility": r.visibility,
                }
            )
            if r.visibility == "visible":
                shown[r.status] += 1
            else:
                later += 1
        if run.implementation.get("kind") == "learner":
            # what each function's claims found, from the claims the learner sees now
            visible = [r for r in pack_run.results if r.visibility == "visible"]
            summary += text.feedback_lines(pack_feedback(pack_run, visible), words)
    got, most = run.points()
    output = text.totals(shown, words)
    if later:
        output += "\n" + words("gradescope.shown_later", n=later)
    if summary:
        output += "\n" + "\n".join(summary)
    return {
        "score": got,
        "max_score": most,
        "output": output,
        "visibility": "visible",
        "tests": tests,
    }


def _unloadable(run: Run, words: Catalog, claims: Sequence[LoadedClaim]) -> dict[str, Any]:
    message = text.load_failure_line(run, words)
    if run.load_output:
        message = "\n".join([message, *text.printed_lines(run.load_output, 0, words)])
    numbers = claim_numbers([c.proposition for c in claims])
    tests = [
        {
            "name": c.claim.id,
            "number": number,
            "score": 0.0,
            "max_score": c.claim.points,
            "status": "failed",
            "output": "\n".join([words.pick(c.claim.statement), message]),
            "visibility": c.claim.visibility,
        }
        for c, number in zip(claims, numbers, strict=True)
    ]
    return {
        "score": 0.0,
        "max_score": sum(c.claim.points for c in claims),
        "output": message,
        "visibility": "visible",
        "tests": tests,
    }


def claim_numbers(propositions: Sequence[int]) -> list[str]:
    """Gradescope's test ``number`` of each claim, in order: its proposition, a dot and its
    place among that proposition's claims (``13.1``, ``13.2``), the place zero-padded to the
    proposition's count (``13.01`` .. ``13.26``), so that the numbers sort the same as text,
    as versions and as decimals, and no two claims share one."""
    counts = Counter(propositions)
    seen: Counter[int] = Counter()
    out = []
    for p in propositions:
        seen[p] += 1
        out.append(f"{p}.{seen[p]:0{len(str(counts[p]))}d}")
    return out


def write(path: Path, run: Run, words: Catalog, claims: Sequence[LoadedClaim] = ()) -> None:
    data = results(run, words, claims)
    write_text_atomic(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")
