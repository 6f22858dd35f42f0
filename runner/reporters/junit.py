"""JUnit XML for CI dashboards: one test case per claim, per fault, or per submission.

The layout follows the Jenkins JUnit schema (junit-10.xsd): ``testsuites`` holding one
``testsuite`` per module with the required ``name``, ``tests``, ``failures`` and ``errors``
counts, and ``testcase`` elements with at most one ``failure``, ``error`` or ``skipped``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from runner.api import PackRun, Run
from runner.i18n import Catalog
from runner.inject import FaultRun
from runner.record import write_text_atomic
from runner.reporters import text

if TYPE_CHECKING:  # only validate builds submission suites; run never imports it
    from runner.submission import Report

Outcome = Literal["passed", "failure", "error", "skipped"]


@dataclass(frozen=True)
class Case:
    name: str
    classname: str
    outcome: Outcome
    time_s: float = 0.0
    message: str = ""
    text: str = ""


@dataclass
class Suite:
    name: str
    cases: list[Case] = field(default_factory=list)


@dataclass
class Totals:
    tests: int = 0
    failures: int = 0
    errors: int = 0
    seconds: float = 0.0


def to_xml(suites: list[Suite], name: str) -> str:
    totals = Totals()
    parts = [suite_xml(suite, totals) for suite in suites]
    return "".join(document(parts, totals, name))


def suite_xml(suite: Suite, totals: Totals) -> str:
    """One ``testsuite`` element, indented as it sits in the document; its counts are added
    to ``totals`` (the document's own counts come last, once every suite is known)."""
    counts = {o: sum(c.outcome == o for c in suite.cases) for o in ("failure", "error", "skipped")}
    seconds = sum(c.time_s for c in suite.cases)
    el = ET.Element(
        "testsuite",
        name=suite.name,
        tests=str(len(suite.cases)),
        failures=str(counts["failure"]),
        errors=str(counts["error"]),
        skipped=str(counts["skipped"]),
        time=f"{seconds:.3f}",
    )
    for case in suite.cases:
        tc = ET.SubElement(
            el, "testcase", name=case.name, classname=case.classname, time=f"{case.time_s:.3f}"
        )
        if case.outcome != "passed":
            child = ET.SubElement(tc, case.outcome, message=_clean(case.message))
            child.text = _clean(case.text) or None
    totals.tests += len(suite.cases)
    totals.failures += counts["failure"]
    totals.errors += counts["error"]
    totals.seconds += seconds
    ET.indent(el, level=1)
    return ET.tostring(el, encoding="unicode")


def document(suites_xml: Iterable[str], totals: Totals, name: str) -> Iterator[str]:
    """The whole document in parts: ``testsuites`` with the totals, then each suite's XML
    (from :func:`suite_xml`) as it comes, so a class's report need not be in memory at once."""
    root = ET.Element(
        "testsuites",
        name=name,
        tests=str(totals.tests),
        failures=str(totals.failures),
        errors=str(totals.errors),
        time=f"{totals.seconds:.3f}",
    )
    root.text = "-"  # an element with text is written with a closing tag, split at it below
    head, tail = ET.tostring(root, encoding="unicode").split(">-<", 1)
    yield '<?xml version="1.0" encoding="UTF-8"?>\n' + head + ">"
    empty = True
    for part in suites_xml:
        empty = False
        yield "\n  " + part
    yield ("" if empty else "\n") + "<" + tail + "\n"


def write(path: Path, suites: list[Suite], name: str) -> None:
    write_text_atomic(path, to_xml(suites, name))


def write_parts(path: Path, suites_xml: Iterable[str], totals: Totals, name: str) -> None:
    """The document at ``path``, atomically, from suites already written as XML
    (:func:`suite_xml`) with their ``totals``."""
    write_text_atomic(path, document(suites_xml, totals, name))


def _clean(text: str) -> str:
    """XML 1.0 cannot hold most control characters; drop them rather than write bad XML."""
    return "".join(ch for ch in text if ch in "\t\n\r" or ord(ch) >= 0x20)


# -- from results -------------------------------------------------------------------------------
STATUS_OUTCOME: dict[str, Outcome] = {
    "passed": "passed",
    "failed": "failure",
    "error": "error",
    "skipped": "skipped",
}


def run_suites(run: Run, words: Catalog, label: str = "") -> list[Suite]:
    """One suite per module of the run (per learner and module, in a class)."""
    if run.load_failure is not None:
        suite = Suite(label or str(run.implementation.get("name", "")))
        message = text.load_failure_line(run, words)
        suite.cases.append(Case("load", "learn-llm.load", "error", message=message, text=message))
        return [suite]
    return [claims_suite(p, words, label) for p in run.packs]


def claims_suite(pack_run: PackRun, words: Catalog, label: str = "") -> Suite:
    meta = pack_run.pack.meta
    suite = Suite(f"{meta.id} v{meta.version}" + (f" · {label}" if label else ""))
    for r in pack_run.results:
        lines = text.claim_detail_lines(r, words) if r.status != "passed" else []
        suite.cases.append(
            Case(
                name=r.id,
                classname=f"{meta.id}.{r.stage.en.replace(' ', '-')}",
                outcome=STATUS_OUTCOME[r.status],
                time_s=r.duration_ms / 1000,
                message=lines[0] if lines else "",
                text="\n".join([*lines, "", r.statement.zh, r.statement.en]) if lines else "",
            )
        )
    return suite


def faults_suite(pack_run: PackRun, runs: list[FaultRun], words: Catalog) -> Suite:
    meta = pack_run.pack.meta
    suite = Suite(f"{meta.id} v{meta.version} faults")
    for run in runs:
        facts = [text.fact_text(f, words) for f in run.facts]
        suite.cases.append(
            Case(
                name=run.fault.id,
                classname=f"{meta.id}.faults",
                outcome="passed" if run.caught else "failure",
                time_s=sum(r.duration_ms for r in run.results) / 1000,
                message="" if run.caught else text.verdict_line(run, words),
                text="" if run.caught else "\n".join(facts),
            )
        )
    return suite


def submissions_suite(reports: list[Report], words: Catalog) -> Suite:
    suite = Suite("submissions")
    for report in reports:
        suite.cases.append(
            Case(
                name=report.file,
                classname="learn-llm.evidence.v1",
                outcome="passed" if report.valid else "failure",
                message="" if report.valid else report.headline(words),
                text="\n".join(p.render(words) for p in report.problems),
            )
        )
    return suite
