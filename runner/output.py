"""Text output for people: a line per claim, the numbers of each failure, the totals."""

from __future__ import annotations

import sys
from typing import TextIO

from checks.registry import Implementation
from runner.load import ClaimPack
from runner.models import ClaimResult
from runner.numbers import show, show_expectation

LABEL = {"passed": "passed", "failed": "FAILED", "error": "ERROR", "skipped": "skipped"}


def print_run(
    pack: ClaimPack, impl: Implementation, results: list[ClaimResult], out: TextIO | None = None
) -> None:
    out = out or sys.stdout
    meta = pack.meta
    print(
        f"{meta.id} v{meta.version} · {meta.title.zh} / {meta.title.en} · {impl.describe()}",
        file=out,
    )
    width = max((len(r.id) for r in results), default=0)
    for r in results:
        stage = f"{r.stage.zh} {r.stage.en}"
        print(f"  {LABEL[r.status]:<7}  {r.id:<{width}}  {stage}", file=out)
        for line in failure_lines(r, pack):
            print(f"           {line}", file=out)


def failure_lines(result: ClaimResult, pack: ClaimPack) -> list[str]:
    """For a claim that did not pass: each failing measurement as expected ± tol, actual."""
    if result.status in ("error", "skipped"):
        return [result.error or result.status]
    if result.status != "failed":
        return []
    claim = next(c.claim for c in pack.claims if c.claim.id == result.id)
    by_measure = {e.measure: e for e in claim.expect}
    lines = []
    for m in result.measurements:
        if m.verdict == "passed":
            continue
        exp = by_measure[m.name]
        line = f"{m.name}: expected {show_expectation(exp)}, actual {show(m.actual, exp.unit)}"
        lines.append(line + (f" ({m.detail})" if m.detail else ""))
    return lines


def totals_line(results: list[ClaimResult]) -> str:
    counts = {s: sum(r.status == s for r in results) for s in LABEL}
    line = f"{counts['passed']} passed, {counts['failed']} failed"
    if counts["error"]:
        line += f", {counts['error']} error{'s' if counts['error'] != 1 else ''}"
    if counts["skipped"]:
        line += f", {counts['skipped']} skipped"
    return line


def print_totals(results: list[ClaimResult], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    print(totals_line(results), file=out)
