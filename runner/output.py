"""Text output for people: a line per claim, the numbers of each failure, the totals."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from checks.registry import Implementation
from runner.inject import FaultRun
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


# -- faults -----------------------------------------------------------------------------------
def print_fault_run(pack: ClaimPack, run: FaultRun, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    fault = run.fault
    print(f"fault {fault.id} · {fault.title.zh} / {fault.title.en}", file=out)
    print(f"replaces {fault.replaces}() in {pack.meta.id} v{pack.meta.version}", file=out)
    catchers = set(fault.catchers)
    shown = [r for r in run.results if r.status != "passed" or r.id in catchers]
    width = max((len(r.id) for r in shown), default=0)
    for r in shown:
        role = "catcher" if r.id in catchers else "also broke"
        label = LABEL[r.status] if r.status != "passed" else "SURVIVED"
        print(f"  {label:<8} {r.id:<{width}}  {r.stage.zh} {r.stage.en}  ({role})", file=out)
        for line in failure_lines(r, pack):
            print(f"           {line}", file=out)
    print(f"chapter's signal: {fault.expected_signal.zh} / {fault.expected_signal.en}", file=out)
    print("observed signal:", file=out)
    for fact in run.facts:
        mark = "" if fact.held else "  [differs from faults.yaml: " + (fact.detail or "") + "]"
        print(f"  - {fact.text.zh}", file=out)
        print(f"    {fact.text.en}{mark}", file=out)
    if fault.differs_from_chapter:
        print(f"differs from the chapter: {fault.differs_from_chapter.zh}", file=out)
        print(f"  {fault.differs_from_chapter.en}", file=out)
    print(verdict_line(run), file=out)


def verdict_line(run: FaultRun) -> str:
    n = len(run.fault.catchers)
    if run.caught:
        return f"caught: all {n} catchers broke ({', '.join(run.fault.catchers)})"
    return (
        f"SURVIVED: {len(run.survivors)} of {n} catchers still pass under the fault "
        f"({', '.join(run.survivors)}); the claims would not notice this mistake"
    )


def print_fault_summary(pack: ClaimPack, runs: list[FaultRun], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    print(f"{pack.meta.id} v{pack.meta.version} · fault injection", file=out)
    width = max((len(r.fault.id) for r in runs), default=0)
    for run in runs:
        label = "caught" if run.caught else "SURVIVED"
        broken = ", ".join(run.broken) or "nothing"
        print(f"  {label:<8} {run.fault.id:<{width}}  breaks {broken}", file=out)
        if not run.caught:
            print(f"           still passing: {', '.join(run.survivors)}", file=out)
        for fact in run.facts:
            if not fact.held:
                print(
                    f"           differs from faults.yaml: {fact.text.en} ({fact.detail})", file=out
                )
    caught = sum(r.caught for r in runs)
    print(f"score: {caught}/{len(runs)} faults caught", file=out)


def print_fault_list(rows: list[dict[str, Any]], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    width = max((len(r["id"]) for r in rows), default=0)
    for row in rows:
        print(f"{row['id']:<{width}}  {row['title']['zh']} / {row['title']['en']}", file=out)
        print(
            f"{'':<{width}}  replaces {row['replaces']}(); caught by {', '.join(row['catchers'])}",
            file=out,
        )


def print_listing(modules: list[dict[str, Any]], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    for module in modules:
        title = module["title"]
        print(f"{module['id']} v{module['version']} · {title['zh']} / {title['en']}", file=out)
        print(f"  claims ({len(module['claims'])}):", file=out)
        for claim in module["claims"]:
            stage = claim["stage"]
            print(f"    {claim['id']}  [{stage['zh']} {stage['en']}]", file=out)
            print(f"      {claim['statement']['zh']}", file=out)
            print(f"      {claim['statement']['en']}", file=out)
        print(f"  faults ({len(module['faults'])}):", file=out)
        for fault in module["faults"]:
            print(f"    {fault['id']}  {fault['title']['zh']} / {fault['title']['en']}", file=out)
