"""Text for people: a line per claim, the numbers behind each verdict, the totals.

Everything here renders results it is given, in the language it is given; nothing judges.
Functions return lines, so the command line prints them and tests read them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from runner.api import PackRun, Run
from runner.facts import render
from runner.feedback import (
    FirstCall,
    FunctionFeedback,
    PackFeedback,
    not_written,
    pack_feedback,
    where_they_part,
)
from runner.i18n import Catalog, is_bilingual
from runner.inject import FactResult, FaultRun
from runner.models import ClaimResult, Detail, Diagnosis, MeasurementResult, MistakeMatch
from runner.models.results import RESTATES_VALUES
from runner.numbers import apart, pair_apart, show, show_expected
from runner.record import Drift

STATUSES = ("passed", "failed", "error", "skipped")
INDENT = " " * 11
MAX_DRIFT_LINES = 40


def pad(text: str, width: int) -> str:
    """Left-justify counting wide (CJK) characters as two columns, as a terminal shows them."""
    return text + " " * max(0, width - width_of(text))


def status_word(status: str, words: Catalog) -> str:
    return words(f"status.{status}")


def describe_impl(info: dict[str, Any], words: Catalog) -> str:
    kind = info.get("kind", "reference")
    if kind == "reference":
        return words("impl.reference")
    return words(f"impl.{kind}", name=info.get("name", "?"))


def detail(d: Detail | None, words: Catalog) -> str:
    return words(d.code, **pair_apart(d.params)) if d is not None else ""


def localize(value: Any, words: Catalog) -> Any:
    """``value`` with every bilingual text in it (``{"zh": ..., "en": ...}``, such as a
    generated case's label) in the reader's language; everything else as it is."""
    if is_bilingual(value):
        return words.pick(value)
    if isinstance(value, dict):
        return {k: localize(v, words) for k, v in value.items()}
    if isinstance(value, list):
        return [localize(v, words) for v in value]
    return value


# -- a run ------------------------------------------------------------------------------------
def run_lines(run: Run, words: Catalog, verbose: bool = False) -> list[str]:
    """A line per claim, then (for a learner's file) what each function's claims found and
    the propositions apart from the contract, then the totals. A learner's claims that only
    wait for functions not written yet are one line of the summary unless ``verbose``."""
    lines: list[str] = []
    if run.load_failure is not None:
        lines.append(load_failure_line(run, words))
        lines += printed_lines(run.load_output, 0, words)
        return lines
    if run.load_output:
        lines.append(words("run.printed_on_import"))
        lines += printed_lines(run.load_output, 0, words)
    learner = run.implementation.get("kind") == "learner"
    for pack_run in run.packs:
        if not pack_run.results and not pack_run.faults:
            continue  # -k chose none of its claims: no header over nothing
        lines += pack_lines(
            pack_run, run.implementation, words, verbose, collapse=learner and not verbose
        )
        if learner:
            lines += feedback_lines(
                pack_feedback(pack_run, course=course_functions(run)), words, verbose
            )
    closing = []  # why a run whose claims all passed still exits 1: its last lines say so
    for pack_run in run.packs:  # a reference run's faults: said only when one is wanting
        wanting = [f for f in pack_run.faults or [] if not f.caught or not f.observed_as_declared]
        if wanting:
            lines += fault_summary_lines(pack_run, wanting, words, score=False)
            closing.append(words("fault.run_wanting", n=len(wanting), module=pack_run.pack.meta.id))
        elif pack_run.faults:  # one line: they ran, and every one was caught
            lines.append(words("fault.run_all_caught", n=len(pack_run.faults)))
    lines.append(totals_line(run, words))
    return lines + closing


def course_functions(run: Run) -> set[str]:
    """The functions every module of ``run`` asks a learner for."""
    return {name for p in run.packs for name in p.pack.code.registry.subjects}


def load_failure_line(run: Run, words: Catalog) -> str:
    failure = run.load_failure
    assert failure is not None
    name = run.implementation.get("name", "?")
    params = dict(failure.params)
    if failure.code in ("load.raised", "load.course_code"):
        line = params.get("line")
        params["where"] = f"{name}:{line}" if line else name
    return words(failure.code, file=name, **{k: v for k, v in params.items() if k != "file"})


def pack_lines(
    pack_run: PackRun,
    impl: dict[str, Any],
    words: Catalog,
    verbose: bool = False,
    collapse: bool = False,
) -> list[str]:
    """The module's header and a line per claim (with ``collapse``, not the claims that only
    wait for functions not written yet: the function summary counts them)."""
    meta = pack_run.pack.meta
    lines = [f"{meta.id} v{meta.version} · {words.pick(meta.title)} · {describe_impl(impl, words)}"]
    shown = [r for r in pack_run.results if not (collapse and not_written(r))]
    width = max((len(r.id) for r in shown), default=0)
    explained: set[str] = set()  # collapsed: each function's diagnosis is shown once
    for r in shown:
        lines.append(
            f"  {pad(status_word(r.status, words), 7)}  {r.id:<{width}}  {words.pick(r.stage)}"
        )
        if r.status != "passed":
            lines.append(f"{INDENT}{words.pick(r.statement)}")
        details = claim_detail_lines(r, words, verbose, explained if collapse else None)
        lines += [f"{INDENT}{line}" for line in details]
    return lines


def claim_detail_lines(
    r: ClaimResult,
    words: Catalog,
    verbose: bool = False,
    explained: set[str] | None = None,
    twin: bool = False,
) -> list[str]:
    """Why a claim did not pass (each failing measurement, the reason, the diagnosis, what
    the learner's code printed); with ``verbose``, every measurement of every claim. Given
    ``explained`` (the functions whose diagnosis an earlier claim showed), a function's
    diagnosis is shown only the first time (the set is updated). ``twin``: the code judged
    is a fault's twin, not the reader's own."""
    lines: list[str] = []
    if r.reason is not None:
        lines.append(detail(r.reason, words))
    for m in r.measurements:
        if verbose or m.verdict != "passed":
            lines.append(measurement_line(m, words, mark=verbose))
    for d in r.diagnosis:
        if explained is None or d.function not in explained:
            lines += diagnosis_lines(d, words)
    first = r.observations.get("first_mismatch")
    explained_here = any(d.matches or d.first_difference for d in r.diagnosis)
    if explained is not None:
        explained_here = explained_here or any(d.function in explained for d in r.diagnosis)
        explained.update(d.function for d in r.diagnosis if d.matches or d.first_difference)
    if r.status == "failed" and isinstance(first, dict) and not explained_here:
        at, expected, actual = where_they_part(first)
        lines.append(
            words(
                MISMATCH[bool(at), twin],
                case=_ordinal(first.get("case")),
                label=localize(first.get("label", ""), words),
                at=at,
                **parted_texts(expected, actual, words),
            )
        )
    if r.output and (verbose or r.status != "passed"):
        lines.append(words("run.printed"))
        lines += printed_lines(r.output, r.output_dropped, words)
    return lines


def _ordinal(index: Any) -> str:
    """A case's index as the evidence records it (from 0), as a reader counts (from 1, as
    the diagnosis counts calls): 第 1 组 is the first."""
    return f"{index + 1:,}" if isinstance(index, int) and not isinstance(index, bool) else "?"


MISMATCH = {  # (at a place inside the value, the code judged is a fault's twin)
    (False, False): "run.first_mismatch",
    (True, False): "run.first_mismatch_at",
    (False, True): "run.first_mismatch.twin",
    (True, True): "run.first_mismatch_at.twin",
}


def measurement_line(m: MeasurementResult, words: Catalog, mark: bool = False) -> str:
    value, actual_value = localize(m.expected, words), m.actual
    tolerance: Mapping[str, Any] = m.tolerance
    if m.verdict != "passed":
        value, tolerance, actual_value = apart(value, tolerance, actual_value, m.unit)
    expected = show_expected(value, tolerance, m.unit, words("word.raises"))
    actual = show(localize(actual_value, words), m.unit)
    line = words("run.expected_actual", name=m.name, expected=expected, actual=actual)
    if m.detail is not None and m.detail.code not in RESTATES_VALUES:
        line += words("run.detail", detail=detail(m.detail, words))
    if m.context:
        line += words("run.context")
    if mark:
        line = f"{'✓' if m.verdict == 'passed' else '✗'} {line}"
    return line


def diagnosis_lines(d: Diagnosis, words: Catalog) -> list[str]:
    """Which known mistake a failing function behaves like; if none, where it first differs
    from the reference."""
    n = {"n": d.calls, "unit": "count"}
    if d.matches:
        names = words("diagnose.or").join(m.id for m in d.matches)
        lines = [words("diagnose.behaves_like", function=d.function, mistakes=names, **n)]
        lines += [f"  - {mistake_text(m, d.function, words)}" for m in d.matches]
        if not d.complete:
            lines.append("  " + words("diagnose.partial"))
        return lines
    first = d.first_difference
    if not d.complete and not first:
        return [words("diagnose.incomplete", function=d.function)]
    if d.complete:
        lines = [words("diagnose.none", function=d.function, **n)]
    else:  # the judge's cap stopped it after the reference's replay found where it differs
        lines = [words("diagnose.unfinished", function=d.function)]
    if first:
        code = "diagnose.first_difference_at" if first.get("at") else "diagnose.first_difference"
        lines.append(
            "  "
            + words(
                code,
                call=int(first.get("call", 0)) + 1,
                inputs=str(first.get("inputs", "")),
                at=str(first.get("at", "")),
                **parted_texts(first.get("expected"), first.get("actual"), words, outcome_text),
            )
        )
    return lines


def mistake_text(m: MistakeMatch, function: str, words: Catalog) -> str:
    """``id: explanation (where)``, saying which function the mistake is in when another."""
    shown = {"id": m.id, "explanation": words.pick(m.explanation), "where": words.pick(m.where)}
    if m.replaces and m.replaces != function:
        return words("diagnose.mistake_in", function=m.replaces, **shown)
    return words("diagnose.mistake", **shown)


def outcome_text(value: Any, words: Catalog) -> str:
    """A value of a first difference: a number, a short description, or what was raised."""
    if isinstance(value, dict) and "raised" in value:
        return f"{words('word.raises')} {value['raised']}"
    return show(value)


def call_text(call: FirstCall, words: Catalog) -> str:
    """``f(float64 [2, 1, -1], 0.1)``: a first differing call with its arguments."""
    arguments = call.arguments
    if not isinstance(arguments, dict):
        return call.inputs
    parts = [summary_text(a, words) for a in arguments.get("args") or []]
    kwargs = arguments.get("kwargs") or {}
    if isinstance(kwargs, dict):
        parts += [f"{k}={summary_text(v, words)}" for k, v in kwargs.items()]
    return f"{call.inputs}({', '.join(parts)})"


# values of a summarized array shown: an input's as the diagnosis shows them, an outcome's
# all that the contract claim recorded
SHOWN_VALUES, SHOWN_OUTCOME = 6, 12


def summary_text(value: Any, words: Catalog, shown: int = SHOWN_VALUES) -> str:
    """A value as a contract claim summarizes it (runner.pack.contract), in a few
    characters, as the diagnosis shows inputs: ``float64 [2, 1, -1]``, ``float16 (12,)``,
    ``float64 (8, 8) ∈ [-1.5, 2]``, ``np.int64(3)``, ``raises ValueError``."""
    value = localize(value, words)
    if isinstance(value, list):
        return "[" + ", ".join(summary_text(v, words, shown) for v in value) + "]"
    if not isinstance(value, dict):
        return show(value)
    if "raised" in value:
        return f"{words('word.raises')} {value['raised']}"
    if "numpy" in value and "value" in value:
        return f"np.{value['numpy']}({show(value['value'])})"
    if set(value) == {"sequence"}:
        return f"[… {show(value['sequence'], 'count')}]"
    dtype, shape = value.get("dtype"), value.get("shape")
    if isinstance(dtype, str) and isinstance(shape, list):
        dims = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
        numbers = value.get("array")
        if isinstance(numbers, list) and len(shape) == 1 and len(numbers) <= shown:
            return f"{dtype} {show(numbers)}"
        text = f"{dtype} {dims}"
        if "min" in value and "max" in value:
            text += f" ∈ [{show(value['min'])}, {show(value['max'])}]"
        if value.get("non_finite"):
            text += f", {show(value['non_finite'], 'count')} NaN/inf"
        return text
    return show(value)


def _outcome_summary(value: Any, words: Catalog) -> str:
    return summary_text(value, words, SHOWN_OUTCOME)


def parted_texts(
    expected: Any, actual: Any, words: Catalog, render: Callable[[Any, Catalog], str] | None = None
) -> dict[str, str]:
    """``expected`` and ``actual`` where they part, as ``render`` (a contract claim's
    summary by default) shows them; two different numbers that look the same at its few
    digits are shown in full (a variance that loses digits gives -1.5215719 where the
    reference gives -1.5215738)."""
    render = render or _outcome_summary
    shown = render(expected, words), render(actual, words)
    numbers = all(
        isinstance(v, float | int) and not isinstance(v, bool) for v in (expected, actual)
    )
    if shown[0] == shown[1] and numbers and expected != actual:
        shown = repr(float(expected)), repr(float(actual))
    # each with its verb: a value is given, an exception raised ("gives raises" read badly)
    said = [
        words("outcome.raises", error=v["raised"])
        if isinstance(v, dict) and "raised" in v
        else words("outcome.gives", value=text)
        for v, text in zip((expected, actual), shown, strict=True)
    ]
    return {"expected": said[0], "actual": said[1]}


def printed_lines(text: str, dropped: int, words: Catalog) -> list[str]:
    """The first 20 lines of what a learner's code printed, and how many characters more it
    printed: those of the lines not shown and those the capture did not keep."""
    lines = text.splitlines()
    shown = [f"  | {line}" for line in lines[:20]]
    hidden = max(0, len(text) - sum(len(line) + 1 for line in lines[:20])) + dropped
    if hidden:
        shown.append("  | " + words("run.printed_more", n=f"{hidden:,}"))
    return shown


# -- what each function's claims found -----------------------------------------------------
def feedback_lines(fb: PackFeedback, words: Catalog, verbose: bool = False) -> list[str]:
    """Each function with its verdict and the claims that judge it (a wrong one with its
    first differing call and the known mistake that fits), the functions not written yet in
    one line (one each with ``verbose``), then the propositions and the contract apart."""
    if not fb.functions:
        return []
    unwritten = fb.having("not_written")
    written = len(fb.functions) - len(unwritten)
    lines = ["", words("feedback.header", written=written, total=len(fb.functions))]
    rows = [*fb.having("wrong"), *fb.having("right"), *fb.having("waiting")]
    rows += fb.having("unjudged")
    if verbose:
        rows += unwritten
    verdicts = {f.verdict: words(f"feedback.verdict.{f.verdict}") for f in rows}
    status_width = max((width_of(v) for v in verdicts.values()), default=0)
    name_width = max((len(f.name) for f in rows), default=0)
    for f in rows:
        lead = f"  {pad(verdicts[f.verdict], status_width)}  {f.name:<{name_width}}  "
        lines.append(lead + _function_claims(f, words))
        lines += [f"  {' ' * status_width}  {line}" for line in _why_wrong(f, words)]
    if unwritten and not verbose:
        names = ", ".join(f.name for f in unwritten)
        # "it" for one function not written yet, "them" for several
        key = "feedback.waits_for_it" if len(unwritten) == 1 else "feedback.claims_wait"
        waiting = words(key, n=fb.waiting)
        lines.append("  " + words("feedback.not_written", functions=names, waiting=waiting))
    for f in unwritten:
        if f.near is not None:
            lines.append("  " + words("feedback.near", name=f.name, near=f.near))
    for kind in fb.kinds:
        lines.append(
            "  "
            + words(
                f"feedback.kind.{kind.kind}",
                totals=totals(dict(kind.counts), words),
                points=_points(kind.points),
                max_points=_points(kind.max_points),
            )
        )
    return lines


def _function_claims(f: FunctionFeedback, words: Catalog) -> str:
    if f.verdict == "wrong":
        return words("feedback.failing", n=len(f.failing), claims=", ".join(f.failing))
    if f.verdict == "not_written":
        return words("feedback.waits_for_it", n=len(f.waiting))
    if f.verdict == "waiting":
        return words("feedback.only_waiting", n=len(f.waiting))
    if f.verdict == "unjudged":
        return words("feedback.unjudged", n=len(f.claims), claims=", ".join(f.claims))
    text = words("feedback.passed", n=len(f.passed))
    if f.waiting:
        text += words("feedback.also_waiting", n=len(f.waiting))
    return text


FIRST_CALL = {  # (at a place inside the value, the kind of input known)
    (False, False): "feedback.first_call",
    (True, False): "feedback.first_call_at",
    (False, True): "feedback.first_call.label",
    (True, True): "feedback.first_call_at.label",
}


def _why_wrong(f: FunctionFeedback, words: Catalog) -> list[str]:
    """A wrong function's first differing call, the known mistakes that fit it, the
    arguments it changes in place, or why it erred."""
    if f.verdict != "wrong":
        return []
    lines = []
    call = f.first_call
    if call is not None:
        label = localize(call.label, words)
        lines.append(
            words(
                FIRST_CALL[bool(call.at), bool(label)],
                call=call_text(call, words),
                label=label or "",
                at=call.at,
                **parted_texts(call.expected, call.actual, words),
            )
        )
    for m in f.mistakes:
        lines.append(words("feedback.mistake", mistake=mistake_text(m, f.name, words)))
    if f.modified:  # beside a first differing call too: two mistakes, both said
        lines.append(words("feedback.modified", arguments=f.modified))
    if f.result_shared:
        lines.append(words("feedback.result_shared"))
    if f.reason is not None and call is None and not f.mistakes:
        lines.append(detail(f.reason, words))
    if f.wrong_uses:
        lines.append(words("feedback.wrong_uses", function=f.name, uses=f.wrong_uses))
    return lines


def width_of(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def totals_line(run: Run, words: Catalog) -> str:
    counts = run.counts()
    return totals(counts, words)


def totals(counts: dict[str, int], words: Catalog) -> str:
    line = words("run.totals", passed=counts["passed"], failed=counts["failed"])
    if counts["error"]:
        line += words("run.totals.errors", n=counts["error"])
    if counts["skipped"]:
        line += words("run.totals.skipped", n=counts["skipped"])
    return line


def drift_lines(drifted: list[tuple[str, Drift]], words: Catalog) -> list[str]:
    lines = []
    for f, d in drifted[:MAX_DRIFT_LINES]:
        if d.missing:
            lines.append(words("run.no_evidence", file=f))
        elif d.unreadable is not None:
            lines.append(words("run.unreadable_evidence", reason=words.say(d.unreadable)))
        else:
            lines.append(
                words("run.drift", file=f, path=d.path, committed=d.committed, fresh=d.fresh)
            )
    if len(drifted) > MAX_DRIFT_LINES:
        lines.append(words("run.drift_more", n=len(drifted) - MAX_DRIFT_LINES))
    return lines


# -- a class ----------------------------------------------------------------------------------
def class_header(n: int, words: Catalog) -> str:
    return words("class.header", n=n)


def class_row(name: str, run: Run, words: Catalog, width: int = 0) -> str:
    """A learner's row: points and counts, or why the file could not be used."""
    if run.load_failure is not None:
        return f"  {pad(name, width)}  {load_failure_line(run, words)}"
    got, most = run.points()
    row = words(
        "class.row",
        points=_points(got),
        max_points=_points(most),
        totals=totals(run.counts(), words),
    )
    return f"  {pad(name, width)}  {row}"


def _points(x: float) -> str:
    return f"{x:g}"


# -- faults -----------------------------------------------------------------------------------
def fact_text(fact: FactResult, words: Catalog) -> str:
    return render(words.pick(fact.template), fact.values)


def fault_run_lines(pack_run: PackRun, run: FaultRun, words: Catalog) -> list[str]:
    fault = run.fault
    meta = pack_run.pack.meta
    lines = [
        words("fault.header", id=fault.id, title=words.pick(fault.title)),
        words("fault.replaces", function=fault.replaces, module=meta.id, version=meta.version),
    ]
    catchers = set(fault.catchers)
    shown = [r for r in run.results if r.status != "passed" or r.id in catchers]
    width = max((len(r.id) for r in shown), default=0)
    for r in shown:
        role = words("fault.catcher") if r.id in catchers else words("fault.also_broke")
        status = status_word(r.status, words) if r.status != "passed" else words("status.survived")
        lines.append(f"  {pad(status, 8)} {r.id:<{width}}  {words.pick(r.stage)}  ({role})")
        lines += [f"{INDENT}{line}" for line in claim_detail_lines(r, words, twin=True)]
    lines.append(words("fault.expected_signal", signal=words.pick(fault.expected_signal)))
    lines.append(words("fault.observed_signal"))
    for fact in run.facts:
        mark = (
            ""
            if fact.held
            else "  [" + words("fault.differs_yaml", detail=detail(fact.detail, words)) + "]"
        )
        lines.append(f"  - {fact_text(fact, words)}{mark}")
    if fault.differs_from_chapter:
        lines.append(words("fault.differs_chapter", text=words.pick(fault.differs_from_chapter)))
    lines.append(verdict_line(run, words))
    if run.unsound:
        lines.append(words("fault.fails_on_reference", claims=", ".join(run.unsound)))
    return lines


def verdict_line(run: FaultRun, words: Catalog) -> str:
    n = len(run.fault.catchers)
    if run.caught:
        return words("fault.caught", n=n, catchers=", ".join(run.fault.catchers))
    return words("fault.survived", k=len(run.survivors), n=n, survivors=", ".join(run.survivors))


def fault_summary_lines(
    pack_run: PackRun, runs: list[FaultRun], words: Catalog, score: bool = True
) -> list[str]:
    meta = pack_run.pack.meta
    lines = [words("fault.summary_header", module=meta.id, version=meta.version)]
    width = max((len(r.fault.id) for r in runs), default=0)
    for run in runs:
        status = words("status.caught") if run.caught else words("status.survived")
        broken = ", ".join(run.broken)
        what = words("fault.breaks", claims=broken) if broken else words("fault.breaks_nothing")
        lines.append(f"  {pad(status, 8)} {run.fault.id:<{width}}  {what}")
        if run.passing:
            lines.append(f"{INDENT}{words('fault.still_passing', claims=', '.join(run.passing))}")
        if run.errored:
            lines.append(f"{INDENT}{words('fault.errored', claims=', '.join(run.errored))}")
        if run.unsound:
            claims = ", ".join(run.unsound)
            lines.append(f"{INDENT}{words('fault.fails_on_reference', claims=claims)}")
        for fact in run.facts:
            if not fact.held:
                text = f"{fact_text(fact, words)} ({detail(fact.detail, words)})"
                lines.append(f"{INDENT}{words('fault.differs_yaml', detail=text)}")
    if score:  # not when only the wanting faults are listed (a run's closing line)
        caught = sum(r.caught for r in runs)
        line = words("fault.score", caught=caught, total=len(runs))
        stale = sum(not fact.held for r in runs for fact in r.facts)
        if stale:  # caught, and yet wanting: the exit code is 1 for these
            line += words("fault.score_stale", n=stale)
        lines.append(line)
    return lines


def fault_list_lines(rows: list[dict[str, Any]], words: Catalog) -> list[str]:
    width = max((len(r["id"]) for r in rows), default=0)
    lines = []
    for row in rows:
        lines.append(f"{row['id']:<{width}}  {words.pick(row['title'])}")
        text = words(
            "fault.list_replaces", function=row["replaces"], catchers=", ".join(row["catchers"])
        )
        lines.append(f"{'':<{width}}  {text}")
    return lines


def listing_lines(modules: list[dict[str, Any]], words: Catalog) -> list[str]:
    lines = []
    for module in modules:
        lines.append(f"{module['id']} v{module['version']} · {words.pick(module['title'])}")
        lines.append(f"  {words('list.claims', n=len(module['claims']))}")
        for claim in module["claims"]:
            # a grader sets points and visibility per claim: the listing is where they are read back
            grading = [words("list.points", n=claim["points"])]
            if claim["visibility"] != "visible":
                grading.append(words(f"list.visibility.{claim['visibility']}"))
            lines.append(
                f"    {claim['id']}  [{words.pick(claim['stage'])}] · {' · '.join(grading)}"
            )
            lines.append(f"      {words.pick(claim['statement'])}")
        lines.append(f"  {words('list.faults', n=len(module['faults']))}")
        for fault in module["faults"]:
            lines.append(f"    {fault['id']}  {words.pick(fault['title'])}")
    return lines
