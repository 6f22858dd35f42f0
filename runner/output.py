"""Text output for people: a line per claim, the numbers of each failure, the totals."""

from __future__ import annotations

import json
import sys
import unicodedata
from typing import Any, TextIO

from checks.registry import Implementation
from runner.i18n import language, pick, t
from runner.inject import FaultRun
from runner.judge import judge
from runner.load import ClaimPack
from runner.models import ClaimResult, Expectation
from runner.numbers import show, show_expectation

STATUSES = ("passed", "failed", "error", "skipped")


def print_json(payload: Any, out: TextIO | None = None) -> None:
    """One JSON document: indented for a person at a terminal, compact for a script, which
    is also several times faster (json's C encoder does not indent)."""
    stream = out or sys.stdout
    indent = 2 if stream.isatty() else None
    print(json.dumps(payload, ensure_ascii=False, indent=indent, default=str), file=stream)


def label(status: str) -> str:
    return t(f"status.{status}")


def pad(text: str, width: int) -> str:
    """Left-justify counting wide (CJK) characters as two columns, as a terminal shows them."""
    shown = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - shown)


def describe(impl: Implementation) -> str:
    if impl.kind == "reference":
        return t("impl.reference")
    return t(f"impl.{impl.kind}", name=impl.name)


def print_run(
    pack: ClaimPack, impl: Implementation, results: list[ClaimResult], out: TextIO | None = None
) -> None:
    out = out or sys.stdout
    meta = pack.meta
    print(f"{meta.id} v{meta.version} · {pick(meta.title)} · {describe(impl)}", file=out)
    width = max((len(r.id) for r in results), default=0)
    for r in results:
        print(f"  {pad(label(r.status), 7)}  {r.id:<{width}}  {pick(r.stage)}", file=out)
        if r.status != "passed":
            print(f"           {pick(r.statement)}", file=out)
        for line in failure_lines(r, pack):
            print(f"           {line}", file=out)


def failure_lines(result: ClaimResult, pack: ClaimPack) -> list[str]:
    """For a claim that did not pass: each failing measurement as expected ± tol, actual."""
    if result.status in ("error", "skipped"):
        return [result.error or result.status]
    if result.status != "failed":
        return []
    loaded = pack.claim(result.id)
    by_measure = {e.measure: e for e in loaded.claim.expect} if loaded else {}
    lines = []
    for m in result.measurements:
        if m.verdict == "passed" or m.name not in by_measure:
            continue
        exp = by_measure[m.name]
        detail = _detail(exp, m.actual) or m.detail
        line = t(
            "run.expected_actual",
            name=m.name,
            expected=show_expectation(exp),
            actual=show(m.actual, exp.unit),
        )
        lines.append(line + (t("run.detail", detail=detail) if detail else ""))
    return lines


def _detail(exp: Expectation, actual: Any) -> str | None:
    """Why the measurement failed, in the reader's language: judged again (a pure function
    of the two), since the result keeps the evidence's English."""
    try:
        return judge(exp, actual, language())[1]
    except Exception:  # the run could not judge it either; its own words stand
        return None


def totals_line(results: list[ClaimResult]) -> str:
    counts = {s: sum(r.status == s for r in results) for s in STATUSES}
    line = t("run.totals", passed=counts["passed"], failed=counts["failed"])
    if counts["error"]:
        line += t("run.totals.errors", n=counts["error"], s="s" if counts["error"] != 1 else "")
    if counts["skipped"]:
        line += t("run.totals.skipped", n=counts["skipped"])
    return line


def print_totals(results: list[ClaimResult], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    print(totals_line(results), file=out)


# -- faults -----------------------------------------------------------------------------------
def print_fault_run(pack: ClaimPack, run: FaultRun, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    fault = run.fault
    print(t("fault.header", id=fault.id, title=pick(fault.title)), file=out)
    meta = pack.meta
    replaces = t("fault.replaces", function=fault.replaces, module=meta.id, version=meta.version)
    print(replaces, file=out)
    catchers = set(fault.catchers)
    shown = [r for r in run.results if r.status != "passed" or r.id in catchers]
    width = max((len(r.id) for r in shown), default=0)
    for r in shown:
        role = t("fault.catcher") if r.id in catchers else t("fault.also_broke")
        status = label(r.status) if r.status != "passed" else t("status.survived")
        print(f"  {pad(status, 8)} {r.id:<{width}}  {pick(r.stage)}  ({role})", file=out)
        for line in failure_lines(r, pack):
            print(f"           {line}", file=out)
    print(t("fault.expected_signal", signal=pick(fault.expected_signal)), file=out)
    print(t("fault.observed_signal"), file=out)
    for fact in run.facts:
        mark = "" if fact.held else "  [" + t("fault.differs_yaml", detail=fact.detail or "") + "]"
        print(f"  - {pick(fact.text)}{mark}", file=out)
    if fault.differs_from_chapter:
        print(t("fault.differs_chapter", text=pick(fault.differs_from_chapter)), file=out)
    print(verdict_line(run), file=out)


def verdict_line(run: FaultRun) -> str:
    n = len(run.fault.catchers)
    if run.caught:
        return t("fault.caught", n=n, catchers=", ".join(run.fault.catchers))
    survivors = ", ".join(run.survivors)
    return t("fault.survived", k=len(run.survivors), n=n, survivors=survivors)


def print_fault_summary(pack: ClaimPack, runs: list[FaultRun], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    print(t("fault.summary_header", module=pack.meta.id, version=pack.meta.version), file=out)
    width = max((len(r.fault.id) for r in runs), default=0)
    for run in runs:
        status = t("status.caught") if run.caught else t("status.survived")
        broken = ", ".join(run.broken)
        what = t("fault.breaks", claims=broken) if broken else t("fault.breaks_nothing")
        print(f"  {pad(status, 8)} {run.fault.id:<{width}}  {what}", file=out)
        if not run.caught:
            print(
                f"           {t('fault.still_passing', claims=', '.join(run.survivors))}", file=out
            )
        for fact in run.facts:
            if not fact.held:
                detail = f"{pick(fact.text)} ({fact.detail})"
                print(f"           {t('fault.differs_yaml', detail=detail)}", file=out)
    caught = sum(r.caught for r in runs)
    print(t("fault.score", caught=caught, total=len(runs)), file=out)


def print_fault_list(rows: list[dict[str, Any]], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    width = max((len(r["id"]) for r in rows), default=0)
    for row in rows:
        title = row["title"]["zh" if language() == "zh" else "en"]
        print(f"{row['id']:<{width}}  {title}", file=out)
        detail = t(
            "fault.list_replaces", function=row["replaces"], catchers=", ".join(row["catchers"])
        )
        print(f"{'':<{width}}  {detail}", file=out)


def print_listing(modules: list[dict[str, Any]], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    lang = language()
    for module in modules:
        print(f"{module['id']} v{module['version']} · {module['title'][lang]}", file=out)
        print(f"  {t('list.claims', n=len(module['claims']))}", file=out)
        for claim in module["claims"]:
            print(f"    {claim['id']}  [{claim['stage'][lang]}]", file=out)
            print(f"      {claim['statement'][lang]}", file=out)
        print(f"  {t('list.faults', n=len(module['faults']))}", file=out)
        for fault in module["faults"]:
            print(f"    {fault['id']}  {fault['title'][lang]}", file=out)
