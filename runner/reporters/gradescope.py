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

Module = tuple[str, Sequence[LoadedClaim]]  # a module's id and the claims it was to judge


def results(run: Run, words: Catalog, modules: Sequence[Module] = ()) -> dict[str, Any]:
    """The results of ``run``; ``modules`` hold the claims it was to judge (they give a file
    that could not be loaded its tests and its maximum score). Of a run of several modules,
    each test's number begins with its module's place, so that no two modules' claims share
    a number, and a claim id two modules share gets its module's id before it, so that no
    two tests share a name."""
    if run.load_failure is not None:
        return _unloadable(run, words, modules)
    tests = []
    shown = {s: 0 for s in text.STATUSES}
    later = 0
    never = 0
    summary: list[str] = []
    several = len(run.packs) > 1
    shared = _shared_ids([[r.id for r in p.results] for p in run.packs])
    for place, pack_run in enumerate(run.packs, 1):
        numbers = claim_numbers(
            [r.proposition for r in pack_run.results], place if several else None
        )
        for r, number in zip(pack_run.results, numbers, strict=True):
            lines = [words.pick(r.statement)]
            lines += text.claim_detail_lines(r, words, verbose=True)
            tests.append(
                {
                    "name": _name(pack_run.pack.meta.id, r.id, shared),
                    "number": number,
                    "score": r.score,
                    "max_score": r.points,
                    "status": "passed" if r.status == "passed" else "failed",
                    "output": "\n".join(lines),
                    "visibility": r.visibility,
                }
            )
            if r.visibility == "visible":
                shown[r.status] += 1
            elif r.visibility == "hidden":  # Gradescope never shows a learner these
                never += 1
            else:
                later += 1
        if run.implementation.get("kind") == "learner":
            # what each function's claims found, from the claims the learner sees now
            visible = [r for r in pack_run.results if r.visibility == "visible"]
            course = text.course_functions(run)
            summary += text.feedback_lines(pack_feedback(pack_run, visible, course), words)
    got, most = run.points()
    output = text.totals(shown, words)
    if later:
        output += "\n" + words("gradescope.shown_later", n=later)
    if never:
        output += "\n" + words("gradescope.never_shown", n=never)
    if summary:
        output += "\n" + "\n".join(summary)
    return {
        "score": got,
        "max_score": most,
        "output": output,
        "visibility": "visible",
        "tests": tests,
    }


def _shared_ids(modules: Sequence[Sequence[str]]) -> set[str]:
    """The claim ids more than one module of the run has."""
    seen: Counter[str] = Counter(i for ids in modules for i in set(ids))
    return {i for i, n in seen.items() if n > 1}


def _name(module: str, claim: str, shared: set[str]) -> str:
    """A test's name: the claim's id, with its module's before it when another module of
    the run has a claim of that id too."""
    return f"{module} · {claim}" if claim in shared else claim


def _unloadable(run: Run, words: Catalog, modules: Sequence[Module]) -> dict[str, Any]:
    message = text.load_failure_line(run, words)
    if run.load_output:
        message = "\n".join([message, *text.printed_lines(run.load_output, 0, words)])
    several = len(modules) > 1
    shared = _shared_ids([[c.claim.id for c in claims] for _, claims in modules])
    tests = [
        {
            "name": _name(module, c.claim.id, shared),
            "number": number,
            "score": 0.0,
            "max_score": c.claim.points,
            "status": "failed",
            "output": "\n".join([words.pick(c.claim.statement), message]),
            "visibility": c.claim.visibility,
        }
        for place, (module, claims) in enumerate(modules, 1)
        for c, number in zip(
            claims,
            claim_numbers([c.proposition for c in claims], place if several else None),
            strict=True,
        )
    ]
    return {
        "score": 0.0,
        "max_score": sum(c.claim.points for _, claims in modules for c in claims),
        "output": message,
        "visibility": "visible",
        "tests": tests,
    }


def claim_numbers(propositions: Sequence[int], module: int | None = None) -> list[str]:
    """Gradescope's test ``number`` of each claim of one module, in order: its proposition,
    a dot and its place among that proposition's claims (``13.1``, ``13.2``), the place
    zero-padded to the proposition's count (``13.01`` .. ``13.26``), so that the numbers sort
    the same as text, as versions and as decimals, and no two claims share one; with
    ``module``, the module's place first (``2.13.01``)."""
    counts = Counter(propositions)
    seen: Counter[int] = Counter()
    out = []
    for p in propositions:
        seen[p] += 1
        number = f"{p}.{seen[p]:0{len(str(counts[p]))}d}"
        out.append(number if module is None else f"{module}.{number}")
    return out


def write(path: Path, run: Run, words: Catalog, modules: Sequence[Module] = ()) -> None:
    data = results(run, words, modules)
    write_text_atomic(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")
